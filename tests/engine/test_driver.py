"""The round driver with a toy game plugged in the way docs/engine.md says a game does.

The toy: each round's `gain` field gives the dealer that many points; a gain of 7 is
refused after scoring (as Huckley Buck refuses a tie without the trick order); the first
to 3 wins. Expected values are worked out by hand from those three rules.
"""

from __future__ import annotations

from typing import Any

from engine.base import GameSetup, Problem, problem
from engine.games._common.driver import RoundRules, RoundScore, score_rounds

PLAYERS = ("Ann", "Bob", "Cy")


class Toy(RoundRules[RoundScore]):
    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> RoundScore | list[Problem]:
        if errors:
            return errors
        points = [0] * self.n
        points[dealer] = rnd["gain"]
        return RoundScore(points, [])

    def end(
        self, before: list[int], after: list[int], checked: RoundScore, number: int
    ) -> list[int] | Problem | None:
        if 7 in checked.points:
            return problem(number, "seven", "No sevens.")
        won = [s for s, v in enumerate(after) if v >= 3]
        return won or None


def play(*rounds: dict[str, Any], first: int | None = 0) -> Any:
    setup = GameSetup(
        players=PLAYERS, seat={p: s for s, p in enumerate(PLAYERS)}, first_dealer=first, options={}
    )
    return score_rounds(Toy(setup), list(rounds))


def test_the_deal_passes_left_and_the_points_add_up() -> None:
    result = play({"gain": 1}, {"gain": 2}, {"gain": 1}, {"gain": 1})
    assert [r["dealer"] for r in result.rounds] == ["Ann", "Bob", "Cy", "Ann"]
    assert result.scores == {"Ann": 2, "Bob": 2, "Cy": 1}
    assert result.next_dealer == "Bob"
    assert not result.finished
    assert result.errors == []


def test_the_game_ends_on_the_round_a_player_wins_and_later_rounds_are_refused() -> None:
    result = play({"gain": 3}, {"gain": 1})
    assert result.finished
    assert result.winner == "Ann"
    assert result.next_dealer is None
    assert [e["code"] for e in result.errors] == ["game_over"]
    assert len(result.rounds) == 1


def test_an_invalid_round_stops_the_walk_and_its_dealer_deals_next() -> None:
    result = play({"gain": 1}, {"dealer": "Cy", "gain": 1}, {"gain": 1})
    assert [e["code"] for e in result.errors] == ["wrong_dealer"]
    assert len(result.rounds) == 1
    assert result.next_dealer == "Bob"
    assert result.scores == {"Ann": 1, "Bob": 0, "Cy": 0}


def test_a_round_the_end_refuses_leaves_the_scores_as_they_were() -> None:
    result = play({"gain": 2}, {"gain": 7})
    assert [e["code"] for e in result.errors] == ["seven"]
    assert result.scores == {"Ann": 2, "Bob": 0, "Cy": 0}
    assert result.next_dealer == "Bob"
    assert not result.finished


def test_a_round_that_is_not_an_object_is_refused_with_the_game_fields() -> None:
    result = play({"gain": 1}, ["Bob", 2])  # type: ignore[arg-type]
    assert [e["code"] for e in result.errors] == ["bad_round"]
    assert "dealer, ..." in result.errors[0]["message"]
    assert result.next_dealer == "Bob"


def test_a_game_with_no_first_dealer_scores_everyone_at_the_start() -> None:
    result = play(first=None)
    assert result.scores == dict.fromkeys(PLAYERS, 0)
    assert result.rounds == []
