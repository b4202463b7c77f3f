"""Bluke (`bluke`) and its New Jersey variant (`bluke-nj`).

An Oh Hell relative for 2-15 players with a 54-card pack: the 52 cards and two jokers,
the Hi and Lo Bluke, which beat every trump. The hand size changes every hand on a fixed
schedule; each player bids the tricks they will take, scores 10 a trick bid plus 1 an
extra trick when they make it and loses 10 a trick bid when they go set; the highest
total after the last hand wins. New Jersey Bluke runs the schedule the other way round
and makes the Blukes part of the trump suit. The rules as implemented are in
docs/rules-bluke.md.
"""

from __future__ import annotations

from functools import partial

from engine.base import EngineUsageError, OptionInfo, RulesInfo, TableSizes
from engine.games._common.rules import GameRules
from engine.games.bluke.online import BlukeNJRound, BlukeRound
from engine.games.bluke.rounds import Variant, hand_sizes, score_game
from engine.games.bluke.simulate import simulate_game

ROUND_FIELDS = ("dealer", "cards", "upcard", "bids", "tricks", "play")


def _options() -> dict[str, OptionInfo]:
    return {
        "max_cards": OptionInfo(
            "max_cards",
            0,
            "Cards dealt to each player on the largest hand. 0 (the default) is the "
            "standard: 13 at 2-4 players, floor(52 / players) above. Otherwise 1 to "
            "floor(54 / players); a hand that deals out all 54 cards has no upcard and no "
            "trump.",
            minimum=0,
        ),
        "allow_zero_bid": OptionInfo(
            "allow_zero_bid",
            False,
            "Whether a player may bid 0 (the rules say bids run from 1 to the cards dealt).",
        ),
    }


#: The two games, by rules id.
_VARIANTS = {
    "bluke": Variant(rising=False, blukes_in_trump=False),
    "bluke-nj": Variant(rising=True, blukes_in_trump=True),
}


#: The online round of each game.
_ONLINE = {"bluke": BlukeRound, "bluke-nj": BlukeNJRound}


#: "Bluke is best played with three or four players"; two, or five and more, can play,
#: "but for larger games the dealing must be altered and the game is thereby shortened".
#: So a tournament seats tables of three or four (the engine checks games of 2 to 15).
TABLES = TableSizes(split_min=3, split_max=4, play_min=3, play_max=4, ideal=4)


def _rule_set(rules_id: str, name: str) -> GameRules:
    info = RulesInfo(
        id=rules_id,
        name=name,
        min_players=2,
        max_players=15,
        lower_is_better=False,
        options=_options(),
        round_fields=ROUND_FIELDS,
        tables=TABLES,
    )
    variant = _VARIANTS[rules_id]
    return GameRules(
        info,
        partial(score_game, variant=variant),
        partial(simulate_game, variant=variant),
        online=_ONLINE[rules_id],
    )


BLUKE = _rule_set("bluke", "Bluke")
BLUKE_NJ = _rule_set("bluke-nj", "Bluke (New Jersey)")

RULE_SETS = (BLUKE, BLUKE_NJ)
_BY_ID = {rule_set.info.id: rule_set for rule_set in RULE_SETS}


def schedule(rules_id: str, players: int, max_cards: int = 0) -> list[int]:
    """The cards dealt to each player on each hand of a whole game, for a form that shows
    the next hand's size (round `i` of a record deals ``schedule(...)[i - 1]``).

    Raises `EngineUsageError` for another rules id or an impossible table.
    """
    rule_set = _BY_ID.get(rules_id)
    if rule_set is None:
        raise EngineUsageError(f"{rules_id!r} is not a Bluke rules id")
    info = rule_set.info
    if not info.min_players <= players <= info.max_players:
        raise EngineUsageError(f"{info.name} is played by 2 to 15 players, not {players}")
    if not 0 <= max_cards <= 54 // players:
        raise EngineUsageError(f"max_cards {max_cards} is impossible at {players} players")
    return hand_sizes(players, _VARIANTS[rules_id].rising, max_cards)
