"""Checking and scoring the rounds of a Ten-Point Buck game record.

Source: the Ten-Point Buck rules text (Bidding, Scoring, The Doe, End of Game) and the
ruling that reads it; the ruling and every decision are in docs/rules-ten-point-buck.md.

A round is entered as `bids` (card points each player bid), `points` (card points each
player captured) and `doe_bonus` (who took the Doe and the Buck in one trick with the
Doe, or null), or as the cards themselves (`play`), from which the engine derives
`points` and `doe_bonus`. Each player scores Hunting Points by how far the points
captured are from the bid, plus the Doe's 2. After the fifth round (option `rounds`) the
most Hunting Points win; a tie at the top plays another round, and another, until it is
broken (or, with option `tie_break` "shared", the tied players share the win).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import (
    GameResult,
    GameSetup,
    Problem,
    field_words,
    names_and,
    plural,
    problem,
    show,
)
from engine.games._common.driver import RoundRules, RoundScore, score_rounds
from engine.games._common.rounds import (
    NumberMap,
    game_over,
    read_player_numbers,
    unknown_player,
    values_text,
)
from engine.games.ten_point_buck.cards import (
    BUCK,
    DECK_POINTS,
    DECK_SIZE,
    DOE_BONUS,
    KIND_VALUE,
    undealt_points_range,
)
from engine.games.ten_point_buck.play import CardPointsResult, check_play

#: No player can capture more card points than the deck holds, so a bid above it is
#: never closer to any result than a bid of 220 is: almost surely a typing slip.
MAX_BID: Final = DECK_POINTS
#: Scoring: Hunting Points by distance from the bid. Exact 10; 1-5 away 5; 6-10 away 3;
#: 11-15 away 2; 16 or more 0.
HUNTING_POINTS: Final[tuple[int, ...]] = tuple(
    10 if d == 0 else 5 if d <= 5 else 3 if d <= 10 else 2 if d <= 15 else 0
    for d in range(DECK_POINTS + MAX_BID + 1)
)
#: Round fields of the other trick games that Ten-Point Buck has no use for: nobody
#: drops, the text has no penalties or misdeals, there is no upcard, and scoring goes by
#: card points, not tricks.
UNUSED_FIELDS: Final = {
    "out": "Ten-Point Buck has no drops: every player plays every round",
    "misdeal": "Ten-Point Buck has no misdeal to enter: a deal that goes wrong is simply "
    "dealt again",
    "penalties": "Ten-Point Buck has no penalties",
    "upcard": "Ten-Point Buck has no upcard: the white cards are always trump",
    "tricks": "Ten-Point Buck scores card points, not tricks: enter the card points",
    "trick_winners": "Ten-Point Buck scores card points, not tricks: enter the card points",
}
OWN_FIELDS: Final = frozenset({"dealer", "bids", "points", "doe_bonus", "play"})
BIDS: Final = NumberMap("bids", "bid", "bid", '{"Ann": 22, "Bob": 40}', MAX_BID)
POINTS: Final = NumberMap(
    "points", "card points", "card points", '{"Ann": 22, "Bob": 40}', DECK_POINTS
)
_INT_ONLY: Final = {int}
_EMPTY: Final[tuple[Any, ...]] = (None, [], {}, False)


def hunting_points(bid: int, captured: int) -> int:
    """Scoring: the Hunting Points for capturing `captured` card points on `bid`."""
    return HUNTING_POINTS[abs(bid - captured)]


@dataclass(slots=True)
class PointsRound(RoundScore):
    """A scored round: Hunting Points (the Doe's bonus included) in `points`, no hooks,
    the card points captured and who took the Doe's bonus."""

    card_points: list[int]
    doe_bonus: int | None


class PointsRounds(RoundRules[PointsRound]):
    """The rounds of one Ten-Point Buck game: Hunting Points add up, and after the last
    round of option `rounds` the most win (a tie at the top plays on, or shares)."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__(setup)
        self.length: int = setup.options["rounds"]
        self.shared = setup.options["tie_break"] == "shared"

    fields = "dealer, bids, points, doe_bonus"

    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> PointsRound | list[Problem]:
        """The Hunting Points of one round, or every problem found in it."""
        setup = self.setup
        players = setup.players
        seat = setup.seat
        if not rnd.keys() <= OWN_FIELDS:
            for field, why in UNUSED_FIELDS.items():
                if rnd.get(field) not in _EMPTY:
                    errors.append(
                        problem(
                            number, "unused_field", f"{why}; clear {field_words(field)}.", field
                        )
                    )
        bids = _read_bids(number, players, seat, rnd.get("bids"), errors)
        raw_points = rnd.get("points")
        captured: list[int] | None = None
        if raw_points is not None:
            captured = _per_player(number, POINTS, raw_points, players, seat, errors)
        raw_bonus = rnd.get("doe_bonus")
        bonus = (
            None if raw_bonus is None else _read_doe_bonus(number, players, seat, raw_bonus, errors)
        )
        raw_play = rnd.get("play")
        if raw_play is not None:
            if errors:
                return errors
            played = check_play(
                number=number, players=players, seat=seat, dealer=dealer, raw=raw_play
            )
            if isinstance(played, list):
                return played
            _compare_with_play(number, players, played, captured, "doe_bonus" in rnd, bonus, errors)
            if errors:
                return errors
            assert bids is not None
            return _score(bids, played.points, played.doe_bonus)
        if captured is None:
            if raw_points is None:
                errors.append(
                    problem(
                        number,
                        "points_missing",
                        "No points are entered for this round; enter the card points each player "
                        "captured in the tricks.",
                        "points",
                    )
                )
            return errors
        _check_summary_points(number, players, len(players), captured, bonus, errors)
        if errors:
            return errors
        assert bids is not None
        return _score(bids, captured, bonus)

    def end(
        self, before: list[int], after: list[int], checked: PointsRound, number: int
    ) -> list[int] | Problem | None:
        top = game_end(after, number, self.length)
        if top is not None and (len(top) == 1 or self.shared):
            return top
        return None

    def output_round(
        self, dealer: int, checked: PointsRound, scores: list[int], index: int
    ) -> dict[str, Any]:
        entry = super().output_round(dealer, checked, scores, index)
        players = self.players
        entry["card_points"] = dict(zip(players, checked.card_points, strict=True))
        entry["doe_bonus"] = None if checked.doe_bonus is None else players[checked.doe_bonus]
        return entry

    def game_over(self, number: int, index: int, winner: str | list[str] | None) -> Problem:
        return game_over(number, str(index), f"{_winner_text(winner)} won")


def _per_player(
    number: int,
    spec: NumberMap,
    raw: Any,
    players: Sequence[str],
    seat: Mapping[str, int],
    errors: list[Problem],
) -> list[int] | None:
    """A player -> whole number field (`bids`, `points`) with every player in it."""
    if type(raw) is dict and len(raw) == len(players):
        # The usual case, checked in C: every player there with a plain int in range.
        given: list[Any] = list(map(raw.get, players))
        if set(map(type, given)) == _INT_ONLY and min(given) >= 0 and max(given) <= spec.top:
            return given
    values = read_player_numbers(number, spec, raw, players, seat, errors)
    if type(raw) is not dict:
        return None
    code = "missing_bid" if spec.name == "bids" else "missing_points"
    for name in players:
        if name not in raw:
            errors.append(
                problem(
                    number,
                    code,
                    f"{spec.name} has nothing for {name}; enter every player's {spec.value} "
                    "(0 included).",
                    spec.name,
                    name,
                )
            )
            values = None
    return values


def _read_bids(
    number: int, players: Sequence[str], seat: Mapping[str, int], raw: Any, errors: list[Problem]
) -> list[int] | None:
    """`bids`: every player's bid, required."""
    if raw is None:
        errors.append(
            problem(
                number,
                "bids_missing",
                "No bids are entered for this round; enter the card points each player bid.",
                "bids",
            )
        )
        return None
    return _per_player(number, BIDS, raw, players, seat, errors)


def _read_doe_bonus(
    number: int, players: Sequence[str], seat: Mapping[str, int], raw: Any, errors: list[Problem]
) -> int | None:
    """`doe_bonus`: the seat that took the Doe's bonus, or None (nobody, or not readable)."""
    if raw is None:
        return None
    bonus = seat.get(raw) if type(raw) is str else None
    if bonus is None:
        hint = ": the player who took the Doe and the Buck with the Doe, or nobody"
        errors.append(unknown_player(number, "doe_bonus", raw, players, hint))
    return bonus


def _check_summary_points(
    number: int,
    players: Sequence[str],
    n: int,
    captured: list[int],
    bonus: int | None,
    errors: list[Problem],
) -> None:
    """What a summary can be checked against without the cards.

    The points in play are 220 minus the undealt cards, which nobody records; so the total
    must lie within what some set of undealt cards allows. The Doe's bonus goes to the
    player who took the Buck, so that player has at least its 10 points.
    """
    low, high = undealt_points_range(n, bonus is not None)
    dealt = (
        " (the Doe and the Buck were dealt: someone took the Doe's bonus)"
        if bonus is not None
        else ""
    )
    total = sum(captured)
    if not DECK_POINTS - high <= total <= DECK_POINTS - low:
        errors.append(
            problem(
                number,
                "points_total",
                f"The card points add up to {total} ({values_text(players, captured, range(n))}); "
                f"with {n} players the {DECK_SIZE - 10 * n} undealt cards "
                f"hold {low} to {high} of the deck's {DECK_POINTS} points, so the points "
                f"captured add up to {DECK_POINTS - high} to {DECK_POINTS - low}{dealt}.",
                "points",
            )
        )
    if bonus is not None and captured[bonus] < KIND_VALUE[BUCK]:
        name = players[bonus]
        errors.append(
            problem(
                number,
                "doe_bonus_points",
                f"{name} took the Doe's bonus, so took the Buck's {KIND_VALUE[BUCK]} points "
                f"in that trick, but has {plural(captured[bonus], 'card point')}; correct the "
                "card points or the Doe's bonus.",
                "doe_bonus",
                name,
            )
        )


def _compare_with_play(
    number: int,
    players: Sequence[str],
    played: CardPointsResult,
    captured: list[int] | None,
    has_bonus: bool,
    bonus: int | None,
    errors: list[Problem],
) -> None:
    if captured is not None and captured != played.points:
        differ = [s for s in range(len(players)) if captured[s] != played.points[s]]
        errors.append(
            problem(
                number,
                "play_mismatch",
                f"points gives {values_text(players, captured, differ)} but the cards played "
                f"give {values_text(players, played.points, differ)}; correct the points or the "
                "cards.",
                "points",
                players[differ[0]] if len(differ) == 1 else None,
            )
        )
    if has_bonus and bonus != played.doe_bonus:
        said = "nobody" if bonus is None else players[bonus]
        truth = (
            "nobody took the Doe and the Buck in one trick"
            if played.doe_bonus is None
            else f"{players[played.doe_bonus]} took the Buck with the Doe"
        )
        errors.append(
            problem(
                number,
                "play_mismatch",
                f"The Doe's bonus says {said}, but by the cards played {truth}; correct the "
                "Doe's bonus or the cards.",
                "doe_bonus",
            )
        )


def _score(bids: list[int], captured: list[int], bonus: int | None) -> PointsRound:
    table = HUNTING_POINTS
    points = [table[b - c if b >= c else c - b] for b, c in zip(bids, captured, strict=True)]
    if bonus is not None:
        # The Doe: "The player who won this trick also immediately scores 2 Hunting Points."
        points[bonus] += DOE_BONUS
    return PointsRound(points, [], captured, bonus)


def game_end(scores: Sequence[int], rounds_played: int, rounds: int) -> list[int] | None:
    """End of Game: None while play goes on, else the seats with the most Hunting Points.

    After `rounds` rounds the most Hunting Points win; if two or more share the most,
    the caller decides whether they share the win or play another round.
    """
    if rounds_played < rounds:
        return None
    top = max(scores)
    return [s for s, v in enumerate(scores) if v == top]


def score_game(setup: GameSetup, rounds: list[Any]) -> GameResult:
    """Check and score the rounds of one game (see `PointsRounds`)."""
    return score_rounds(PointsRounds(setup), rounds)


def _winner_text(winner: str | list[str] | None) -> str:
    if isinstance(winner, list):
        return names_and(winner)
    return show(winner)
