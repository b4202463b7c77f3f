"""The examples of docs/game-record.md, input to output, exactly."""

from __future__ import annotations

import engine

SPEC_INPUT = {
    "format": "buck-game/1",
    "rules": "huckley-buck",
    "players": ["Ann", "Bob", "Cy", "Dee", "Eve"],
    "first_dealer": "Ann",
    "options": {},
    "rounds": [
        {"dealer": "Ann", "out": ["Bob"], "tricks": {"Ann": 1, "Cy": 3, "Dee": 1, "Eve": 0}},
        {"dealer": "Bob", "misdeal": True},
        {
            "dealer": "Cy",
            "tricks": {"Ann": 2, "Bob": 0, "Cy": 1, "Dee": 2, "Eve": 0},
            "penalties": [{"player": "Eve", "kind": "renege"}],
        },
    ],
}

SPEC_OUTPUT = {
    "valid": True,
    "rules": "huckley-buck",
    "rounds": [
        {
            "dealer": "Ann",
            "points": {"Ann": 1, "Bob": 0, "Cy": 3, "Dee": 1, "Eve": -3},
            "hooks": ["Eve"],
            "scores": {"Ann": 1, "Bob": 0, "Cy": 3, "Dee": 1, "Eve": 0},
        },
        {
            "dealer": "Bob",
            "points": {"Ann": 0, "Bob": -3, "Cy": 0, "Dee": 0, "Eve": 0},
            "hooks": ["Bob"],
            "scores": {"Ann": 1, "Bob": 0, "Cy": 3, "Dee": 1, "Eve": 0},
        },
        {
            "dealer": "Cy",
            "points": {"Ann": 2, "Bob": -3, "Cy": 1, "Dee": 2, "Eve": -3},
            "hooks": ["Bob", "Eve"],
            "scores": {"Ann": 3, "Bob": 0, "Cy": 4, "Dee": 3, "Eve": 0},
        },
    ],
    "scores": {"Ann": 3, "Bob": 0, "Cy": 4, "Dee": 3, "Eve": 0},
    "finished": False,
    "winner": None,
    "next_dealer": "Dee",
    "errors": [],
}


def test_the_spec_example_gives_the_spec_output() -> None:
    assert engine.check(SPEC_INPUT) == SPEC_OUTPUT


def test_the_spec_example_keeps_the_key_order_of_the_spec() -> None:
    output = engine.check(SPEC_INPUT)
    assert list(output) == list(SPEC_OUTPUT)
    assert [list(r) for r in output["rounds"]] == [list(r) for r in SPEC_OUTPUT["rounds"]]


def test_the_spec_error_example_gives_the_spec_code_and_message() -> None:
    record = {
        **SPEC_INPUT,
        "rounds": [
            {"dealer": "Ann", "out": ["Bob", "Cy"], "tricks": {"Ann": 2, "Dee": 2, "Eve": 1}}
        ],
    }
    output = engine.check(record)
    assert output["valid"] is False
    assert output["errors"] == [
        {
            "round": 1,
            "code": "too_many_out",
            "message": "2 players dropped (Bob, Cy); at a table of 5 at most 1 may drop",
            "field": "out",
        }
    ]
