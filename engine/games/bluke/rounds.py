"""Checking and scoring the hands of a Bluke or New Jersey Bluke game record.

The number of cards dealt changes every hand on a fixed schedule (`hand_sizes`), so a
game is a known number of rounds: `BlukeRounds` plugs the game into the round driver
(engine/games/_common/driver.py) and names the winner after the last hand of the
schedule. `check_round` turns one round's fields (`cards`, `upcard`, `bids`, `tricks`,
`play`) into the points it gives, or into every problem it has, a field at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, GameSetup, Problem, literal, names_and, plural, problem
from engine.games._common.driver import RoundRules, RoundScore, score_rounds
from engine.games._common.play import missing_upcard, not_an_upcard
from engine.games._common.rounds import (
    NumberMap,
    compare_with_play,
    game_over,
    read_player_numbers,
    values_text,
)
from engine.games.bluke.cards import DECK_SIZE, parse_card, trump_of
from engine.games.bluke.play import CARD_HINT, check_play

#: Ruling: the largest hand is 13 at 2-4 players ...
STANDARD_MAX: Final = 13
#: ... and floor(52 / players) above, which leaves at least two of the 54 cards undealt.
PLAIN_CARDS: Final = 52
SET_FACTOR: Final = 10
#: `bids` and `tricks`: their range depends on the hand's size, so they are read as any
#: whole number and the range is checked here.
BIDS: Final = NumberMap("bids", "bid made", "bid", '{"Ann": 2, "Bob": 1}')
TRICKS_TAKEN: Final = NumberMap("tricks", "tricks taken", "tricks", '{"Ann": 2, "Bob": 1}')


@dataclass(frozen=True, slots=True)
class Variant:
    """What tells the two games apart."""

    rising: bool  # bluke-nj: the hands run 1 up to the largest and back down
    blukes_in_trump: bool  # bluke-nj: the Blukes belong to the trump suit


@dataclass(slots=True)
class BlukeRound(RoundScore):
    """A scored hand: bid scores in `points`, the players who went set in `hooks`."""


class BlukeRounds(RoundRules[BlukeRound]):
    """The hands of one Bluke game: bid scores add up, and the game ends after the last
    hand of the schedule (`hand_sizes`), the most points winning or sharing the win."""

    def __init__(self, setup: GameSetup, variant: Variant) -> None:
        super().__init__(setup)
        self.variant = variant
        self.max_cards: int = setup.options["max_cards"]
        self.sizes = hand_sizes(self.n, variant.rising, self.max_cards)

    def document_problem(self) -> Problem | None:
        why = max_cards_problem(self.n, self.max_cards)
        return None if why is None else problem(None, "bad_option", why)

    fields = "dealer, cards, bids, tricks, ..."

    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> BlukeRound | list[Problem]:
        """The points of one round, or every problem found in it."""
        setup = self.setup
        variant = self.variant
        sizes = self.sizes
        players = setup.players
        n = len(players)
        size = sizes[number - 1]
        given = rnd.get("cards")
        if given is not None and (type(given) is not int or given != size):
            _refuse_cards(number, given, size, sizes, variant, errors)
        upcard, upcard_ok = _read_upcard(number, rnd.get("upcard"), size, n, errors)
        low = 0 if setup.options["allow_zero_bid"] else 1
        bids = _read_bids(number, players, setup.seat, rnd.get("bids"), low, size, errors)
        counts = _read_tricks(setup, variant, number, rnd, dealer, size, upcard, upcard_ok, errors)
        if counts is None:
            return errors
        total = sum(counts)
        if total != size:
            errors.append(
                problem(
                    number,
                    "tricks_not_cards",
                    f"The tricks add up to {total} ({values_text(players, counts, range(n))}); "
                    f"with {size} card{'s' if size != 1 else ''} dealt to each player a hand has "
                    f"exactly {size} trick{'s' if size != 1 else ''}.",
                    "tricks",
                )
            )
        if errors or bids is None:
            return errors
        return _score(bids, counts)

    def end(
        self, before: list[int], after: list[int], checked: BlukeRound, number: int
    ) -> list[int] | Problem | None:
        if number < len(self.sizes):
            return None
        top = max(after)
        return [s for s in range(self.n) if after[s] == top]

    def output_round(
        self, dealer: int, checked: BlukeRound, scores: list[int], index: int
    ) -> dict[str, Any]:
        players = self.players
        return {
            "dealer": players[dealer],
            "cards": self.sizes[index],
            "points": dict(zip(players, checked.points, strict=True)),
            "hooks": [players[s] for s in checked.hooks],
            "scores": dict(zip(players, scores, strict=True)),
        }

    def game_over(self, number: int, index: int, winner: str | list[str] | None) -> Problem:
        ended = f"{len(self.sizes)}, the last hand of the schedule"
        return game_over(number, ended, _winner_text(winner))


def standard_max_cards(players: int) -> int:
    """The largest hand by the Ruling: 13 at 2-4 players, floor(52 / players) above
    (so at least two cards stay undealt and one can be turned up)."""
    return STANDARD_MAX if players <= 4 else PLAIN_CARDS // players


def most_cards_possible(players: int) -> int:
    """The largest hand the 54 cards allow: dealing out every card is allowed by agreement
    (the text's 18-card 3-player hand, the extra 9-card hand at 6), with no upcard."""
    return DECK_SIZE // players


def max_cards_problem(players: int, value: int) -> str | None:
    """Why option `max_cards` cannot be `value` at this table, or None when it can."""
    if value == 0 or 1 <= value <= most_cards_possible(players):
        return None
    return (
        f"The largest hand must be from 1 to {most_cards_possible(players)} cards at a table of "
        f"{players} (54 cards), or 0 for the standard {standard_max_cards(players)}; "
        f"not {value}."
    )


def hand_sizes(players: int, rising: bool, max_cards: int = 0) -> list[int]:
    """The cards dealt to each player, hand by hand, for a whole game.

    `bluke`: from the largest hand down to 1 and back up (13, 12, ..., 1, 2, ..., 13);
    `bluke-nj` (`rising`): from 1 up to the largest and back down. `max_cards` 0 means the
    standard largest hand for the table (`standard_max_cards`).
    """
    k = max_cards or standard_max_cards(players)
    if rising:
        return [k - abs(k - i) for i in range(1, 2 * k)]
    return [abs(k - i) + 1 for i in range(1, 2 * k)]


def _schedule_words(sizes: Sequence[int], rising: bool) -> str:
    k = max(sizes)
    if rising:
        return f"the hands run from 1 card up to {k} and back down to 1"
    return f"the hands run from {k} cards down to 1 and back up to {k}"


def _refuse_cards(
    number: int,
    given: Any,
    size: int,
    sizes: Sequence[int],
    variant: Variant,
    errors: list[Problem],
) -> None:
    """The refusal of a `cards` field that is not the schedule's hand size for this round."""
    if type(given) is not int:
        errors.append(
            problem(
                number,
                "bad_field",
                f"cards must be the number of cards dealt to each player, not {literal(given)}.",
                "cards",
            )
        )
    else:
        errors.append(
            problem(
                number,
                "wrong_cards",
                f"Round {number} deals {size} card{'s' if size != 1 else ''} to each "
                f"player, not {given}: {_schedule_words(sizes, variant.rising)}, one "
                "card a hand.",
                "cards",
            )
        )


def _read_upcard(
    number: int, raw: Any, size: int, n: int, errors: list[Problem]
) -> tuple[int | None, bool]:
    """(upcard or None, readable): any card, a Bluke meaning no trump; none when every
    card is dealt."""
    if raw is None:
        return None, True
    if size * n == DECK_SIZE:
        errors.append(
            problem(
                number,
                "no_upcard",
                f"All 54 cards are dealt in this hand ({size} to each of {n} players), so "
                "no card is turned up and the hand has no trump; remove the upcard.",
                "upcard",
            )
        )
        return None, False
    upcard = parse_card(raw)
    if upcard is None:
        errors.append(not_an_upcard(number, raw, CARD_HINT))
        return None, False
    return upcard, True


def _read_bids(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw: Any,
    low: int,
    size: int,
    errors: list[Problem],
) -> list[int] | None:
    """`bids`: every player, `low` (0 or 1) to the cards dealt; None when incomplete or
    wrong (reported)."""
    if raw is None:
        errors.append(
            problem(
                number,
                "bids_missing",
                f"No bids are entered for this hand; enter each player's bid ({low} to {size}).",
                "bids",
            )
        )
        return None
    read = read_player_numbers(number, BIDS, raw, players, seat, errors)
    if type(raw) is not dict:
        return None
    complete = True
    for name in players:
        if name not in raw:
            errors.append(
                problem(
                    number,
                    "bid_missing",
                    f"{name} has no bid; every player bids on every hand, {low} to {size}.",
                    "bids",
                    name,
                )
            )
            complete = False
            continue
        b = raw[name]
        if type(b) is not int:
            complete = False  # reported by the reader
        elif not low <= b <= size:
            complete = False
            if b == 0:
                why = "bids start at 1 in this game (a bid of 0 is not allowed)"
            else:
                cards = plural(size, "card")
                why = f"with {cards} dealt a bid runs from {low} to {size}"
            errors.append(
                problem(number, "bid_out_of_range", f"{name} bid {b}, but {why}.", "bids", name)
            )
    return read if complete else None


def _read_tricks(
    setup: GameSetup,
    variant: Variant,
    number: int,
    rnd: dict[str, Any],
    dealer: int,
    size: int,
    upcard: int | None,
    upcard_ok: bool,
    errors: list[Problem],
) -> list[int] | None:
    """Tricks per seat from the summary, from the cards played, or both (and then they
    agree); None when they cannot be read (reported)."""
    players = setup.players
    raw: Any = rnd.get("tricks")
    counts = read_player_numbers(number, TRICKS_TAKEN, raw, players, setup.seat, errors)
    # Unreadable tricks (an unknown name, a word) are reported already; adding them up
    # would only say the same again.
    if counts is not None and not _tricks_in_range(number, raw, size, errors):
        counts = None
    raw_play = rnd.get("play")
    if raw_play is not None and upcard_ok:
        if upcard is None and size * len(players) != DECK_SIZE:
            errors.append(missing_upcard(number, " so the trump suit is known"))
        else:
            played = check_play(
                number=number,
                players=players,
                seat=setup.seat,
                dealer=dealer,
                size=size,
                upcard=upcard,
                trump=trump_of(upcard),
                nj=variant.blukes_in_trump,
                raw=raw_play,
            )
            if isinstance(played, list):
                errors.extend(played)
            else:
                compare_with_play(number, players, played, counts, None, errors)
                counts = played.counts
    if counts is None and raw is None and raw_play is None:
        errors.append(
            problem(
                number,
                "tricks_missing",
                "No tricks are entered for this hand; enter how many tricks each player took.",
                "tricks",
            )
        )
    return counts


def _tricks_in_range(number: int, raw: dict[str, int], size: int, errors: list[Problem]) -> bool:
    """Whether every count in a readable `tricks` is from 0 to the cards dealt."""
    ok = True
    for name, c in raw.items():
        if not 0 <= c <= size:
            errors.append(
                problem(
                    number,
                    "bad_field",
                    f"{name}'s tricks must be a whole number from 0 to {size}, not {c}.",
                    "tricks",
                    name,
                )
            )
            ok = False
    return ok


def _score(bids: list[int], counts: list[int]) -> BlukeRound:
    """A bid made scores 10 a trick bid and 1 an extra trick; a bid missed loses 10 a
    trick bid (and counts as a hook: the player went set)."""
    points = [0] * len(bids)
    hooks: list[int] = []
    for s, b in enumerate(bids):
        c = counts[s]
        if c >= b:
            points[s] = SET_FACTOR * b + c - b
        else:
            points[s] = -SET_FACTOR * b
            hooks.append(s)
    return BlukeRound(points, hooks)


def _winner_text(winner: str | list[str] | None) -> str:
    if isinstance(winner, list):
        return f"{names_and(winner)} shared the win"
    return f"{winner} won"


def score_game(setup: GameSetup, rounds: list[Any], *, variant: Variant) -> GameResult:
    """Check and score the hands of one game (see `BlukeRounds`)."""
    return score_rounds(BlukeRounds(setup, variant), rounds)
