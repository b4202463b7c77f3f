"""The round driver: walking a game's rounds in order, the same for every game.

A game record's rounds are checked and scored one after the other: the deal passes on,
each round's points change the running scores, the game may end, and the first invalid
round (or a round after the end) stops the walk. That loop is written once, here
(`score_rounds`). A game plugs into it with a `RoundRules`: how to check and score one
round, how the points change the scores, when the game is over and who won, who deals
next, and what an output round holds. docs/engine.md says what a new game implements.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.base import GameResult, GameSetup, Problem, problem, show
from engine.games._common.rounds import game_over, not_a_round, winner_value, wrong_dealer


@dataclass(slots=True)
class RoundScore:
    """A valid round, scored: what every game's output round shows.

    A game adds what it needs to end the game or to build its output round (the trick
    order, a sweep, the card points) in a subclass.
    """

    points: list[int]  # the change per seat, before any floor the game applies
    hooks: list[int]  # seats hooked (or set), one entry per hook, in seat order


R = TypeVar("R", bound=RoundScore)


class RoundRules(ABC, Generic[R]):
    """One game's rules for its rounds, bound to the table of one record.

    `check_round` is the one method every game writes; the others have the common
    behaviour (scores start at `start` and add up, the deal passes left after every
    round, the output round is dealer, points, hooks, scores) for a game to override.
    """

    #: What every player's score is before the first round.
    start: int = 0
    #: The game's round fields, as the refusal of a round that is not an object lists them.
    fields: str = "dealer, ..."

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.players = setup.players
        self.n = len(setup.players)

    def document_problem(self) -> Problem | None:
        """A problem with the whole record that only this game can see (an option that
        does not fit the table, say), found before any round is read; None when none."""
        return None

    @abstractmethod
    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> R | list[Problem]:
        """Round `number` (1-based), dealt by seat `dealer`, scored; or every problem found
        in it. The driver has read the `dealer` field: `errors` holds its problem, if any,
        and the game adds the problems of its own fields after it."""

    def add(self, scores: list[int], checked: R) -> list[int]:
        """The running scores after a valid round (a new list: the driver keeps the old
        one in case `end` refuses the round)."""
        return [v + p for v, p in zip(scores, checked.points)]  # noqa: B905 (same length)

    @abstractmethod
    def end(
        self, before: list[int], after: list[int], checked: R, number: int
    ) -> list[int] | Problem | None:
        """After round `number`: the seats that won (one, or several sharing the win),
        None while the game goes on, or a problem that refuses the round after all (the
        scores it gave are then dropped)."""

    def next_dealer(self, dealer: int) -> int:
        """Who deals after `dealer`: the next seat to the left, misdeals included."""
        return dealer + 1 if dealer + 1 < self.n else 0

    def output_round(
        self, dealer: int, checked: R, scores: list[int], index: int
    ) -> dict[str, Any]:
        """The output's entry for a valid round (`index` is 0-based)."""
        players = self.players
        return {
            "dealer": players[dealer],
            "points": dict(zip(players, checked.points, strict=True)),
            "hooks": [players[s] for s in checked.hooks],
            "scores": dict(zip(players, scores, strict=True)),
        }

    def game_over(self, number: int, index: int, winner: str | list[str] | None) -> Problem:
        """The refusal of round `number`, entered after the game ended with round `index`."""
        return game_over(number, str(index), f"{show(winner)} won")


def check_misdeal(number: int, rnd: dict[str, Any], errors: list[Problem]) -> bool | None:
    """The `misdeal` field: True, False, or None when it is not given or not a boolean
    (reported)."""
    misdeal = rnd.get("misdeal")
    if misdeal is not None and type(misdeal) is not bool:
        errors.append(problem(number, "bad_field", "misdeal must be true or false.", "misdeal"))
        return None
    return misdeal


def score_rounds(rules: RoundRules[R], rounds: list[Any]) -> GameResult:
    """Check and score `rounds` in order with `rules`; stop at the first invalid round."""
    players = rules.players
    scores = [rules.start] * rules.n
    result = GameResult(rounds=[], scores={})
    refused = rules.document_problem()
    first = rules.setup.first_dealer
    if refused is not None or first is None:
        # first_dealer is None only for a game with no rounds yet (see engine.record).
        if refused is not None:
            result.errors.append(refused)
        result.scores = dict.fromkeys(players, rules.start)
        return result
    dealer = first
    # Bound once: the loop runs for every round of every record checked, and a call per
    # round costs measurable time, so the defaults a game keeps are done in the loop.
    check_round, add, end = rules.check_round, rules.add, rules.end
    kind = type(rules)
    plain_add = kind.add is RoundRules.add
    plain_output = kind.output_round is RoundRules.output_round
    plain_deal = kind.next_dealer is RoundRules.next_dealer
    n = rules.n
    for index, rnd in enumerate(rounds):
        number = index + 1
        if result.finished:
            result.errors.append(rules.game_over(number, index, result.winner))
            break
        if type(rnd) is not dict:
            checked: R | list[Problem] = not_a_round(number, rules.fields, rnd)
        else:
            # The rotation is the driver's, so the check of a round's `dealer` is too.
            given = rnd.get("dealer")
            wrong = given is not None and given != players[dealer]
            errors = [wrong_dealer(number, players, dealer, given)] if wrong else []
            checked = check_round(rnd, number, dealer, errors)
        if isinstance(checked, list):
            result.errors.extend(checked)
            result.next_dealer = players[dealer]
            break
        points = checked.points
        after = [v + p for v, p in zip(scores, points)] if plain_add else add(scores, checked)  # noqa: B905
        won = end(scores, after, checked, number)
        if isinstance(won, dict):
            # The round is refused after all: its scores do not count.
            result.errors.append(won)
            result.next_dealer = players[dealer]
            break
        scores = after
        if won is not None:
            result.finished = True
            result.winner = winner_value(players, won)
        if plain_output:
            result.rounds.append(
                {
                    "dealer": players[dealer],
                    "points": dict(zip(players, points)),  # noqa: B905
                    "hooks": [players[s] for s in checked.hooks],
                    "scores": dict(zip(players, scores)),  # noqa: B905
                }
            )
        else:
            result.rounds.append(rules.output_round(dealer, checked, scores, index))
        if not plain_deal:
            dealer = rules.next_dealer(dealer)
        elif dealer + 1 < n:
            dealer += 1
        else:
            dealer = 0
    else:
        result.next_dealer = None if result.finished else players[dealer]
    result.scores = dict(zip(players, scores, strict=True))
    return result
