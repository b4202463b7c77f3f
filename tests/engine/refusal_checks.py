"""The test of a table of refusals, shared by Huckley Buck's (test_refusals.py,
test_refusals_penalties_and_tricks.py) and Ten-Point Buck's
(test_ten_point_buck_refusals.py, test_ten_point_buck_play_refusals.py); and Huckley
Buck's round in which each of five players takes a trick."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import engine

OK = {"tricks": {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1, "Eve": 1}}

# (id, record, round, code, field, player or None, words the message must contain)
Case = tuple[str, Any, int | None, str, str | None, str | None, list[str]]
# What a table checks of every case besides: (record, output, round, code).
Also = Callable[[Any, dict[str, Any], int | None, str], None]


def refusal_test(cases: list[Case], also: Also) -> Callable[..., None]:
    """The test of `cases`, one case a test: each record is refused with the case's code,
    in its round, field and for its player, with its words in the message; then `also`."""

    @pytest.mark.parametrize(
        ("record", "round_number", "code", "field", "player", "words"),
        [case[1:] for case in cases],
        ids=[case[0] for case in cases],
    )
    def test(
        record: Any,
        round_number: int | None,
        code: str,
        field: str | None,
        player: str | None,
        words: list[str],
    ) -> None:
        output = engine.check(record)
        assert output["valid"] is False
        matching = [e for e in output["errors"] if e["code"] == code]
        assert matching, output["errors"]
        error = matching[0]
        assert error["round"] == round_number
        assert error["field"] == field
        assert error.get("player") == player
        for word in words:
            assert word in error["message"], error["message"]
        also(record, output, round_number, code)

    return test


def error_shapes(record: Any, output: dict[str, Any], round_number: int | None, code: str) -> None:
    """The shape of every error: the spec's keys plus the field/player extension."""
    for e in output["errors"]:
        assert set(e) <= {"round", "code", "message", "field", "player"}
        assert e["code"].islower()
        assert " " not in e["code"]
        assert e["message"]
        assert "\n" not in e["message"]
