"""What the tables of Ten-Point Buck's refusals share (test_ten_point_buck_refusals.py,
test_ten_point_buck_play_refusals.py): a record of this rule set, and what each case
checks besides its error (refusal_checks.py has the test of a table)."""

from __future__ import annotations

from typing import Any

from tests.engine.records import FOUR, game
from tests.engine.test_ten_point_buck import RULES


def tpb(*rounds: Any, players: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    return game(*rounds, players=players or FOUR, rules=RULES, **kwargs)


def next_dealer(record: Any, output: dict[str, Any], round_number: int | None, code: str) -> None:
    """A refused round is the one to correct: its dealer deals next."""
    if round_number is not None and code != "game_over":
        # The round to correct: Ann deals round 1, and the deal passes left.
        players = record["players"]
        assert output["next_dealer"] == players[(round_number - 1) % len(players)]
