"""Huckley Buck (IHBA rules, `huckley-buck`) and Hucklebuck (`hucklebuck`).

Both games score alike: a point a trick, a hook of -3 (never below zero) for staying in
and taking no trick or for a penalty, first to 11. They differ in the play rules (the
IHBA text makes a player trump and kill; Hucklebuck only asks to follow suit), in where
the upcard may go, and in how two players reaching 11 in one round are told apart.
The rulings are in docs/rules.md.
"""

from __future__ import annotations

from functools import partial

from engine.base import OptionInfo, RulesInfo, TableSizes
from engine.games._common.rules import GameRules
from engine.games.huckley.online import (
    HB,
    IHBA,
    HucklebuckRound,
    HuckleyBuckRound,
    HuckleyOnlineRound,
)
from engine.games.huckley.rounds import Variant, score_game
from engine.games.huckley.simulate import simulate_game

ROUND_FIELDS = (
    "dealer",
    "out",
    "tricks",
    "trick_winners",
    "penalties",
    "misdeal",
    "upcard",
    "play",
)


def _options(tie_break: str) -> dict[str, OptionInfo]:
    return {
        "target": OptionInfo(
            "target", 11, "Points that win the game (the rules say 11).", minimum=1
        ),
        "dealer_may_drop": OptionInfo(
            "dealer_may_drop",
            True,
            "Whether the dealer may drop like anyone else (ruling 1 says yes).",
        ),
        "tie_break": OptionInfo(
            "tie_break",
            tie_break,
            "When two or more reach the target in one round: the first to reach it in "
            "trick order wins (trick_order), or the highest score wins and an exact tie "
            "plays on (highest_score).",
            choices=("trick_order", "highest_score"),
        ),
    }


#: Both texts: "Three to seven players" (IHBA: "best is four to six"), so a table of three
#: plays on. IHBA's tournament format splits more than seven players into groups of four
#: and adds the one to three left over as evenly as possible, so a split makes tables of
#: four to seven; Hucklebuck keeps that format (docs/format.md rule 8).
TABLES = TableSizes(split_min=4, split_max=7, play_min=3, play_max=7, ideal=4)


def _rule_set(
    rules_id: str,
    name: str,
    tie_break: str,
    variant: Variant,
    online: type[HuckleyOnlineRound],
) -> GameRules:
    info = RulesInfo(
        id=rules_id,
        name=name,
        min_players=3,
        max_players=7,
        lower_is_better=False,
        options=_options(tie_break),
        round_fields=ROUND_FIELDS,
        tables=TABLES,
    )
    return GameRules(
        info,
        partial(score_game, variant=variant),
        partial(simulate_game, variant=variant),
        online=online,
    )


HUCKLEY_BUCK = _rule_set(
    "huckley-buck",
    "Huckley Buck (IHBA)",
    "trick_order",
    IHBA,
    HuckleyBuckRound,
)
HUCKLEBUCK = _rule_set(
    "hucklebuck",
    "Hucklebuck",
    "highest_score",
    HB,
    HucklebuckRound,
)

RULE_SETS = (HUCKLEY_BUCK, HUCKLEBUCK)
