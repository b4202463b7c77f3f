"""Every refusal a Ten-Point Buck record can hit: its code, field, player and message.

Bounds are worked out by hand: at 4 players 16 cards stay undealt, holding 20 to 115 of
the deck's 220 points, so the points captured add up to 105 to 200 (test_ten_point_buck.py
derives the undealt ranges); with the Doe's bonus won, the Doe and the Buck were dealt,
the undealt hold 22 to 110, and the points captured add up to 110 to 198. The refusals
of card-level play (the `play` field) are in test_ten_point_buck_play_refusals.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.records import FIVE, FOUR
from tests.engine.refusal_checks import refusal_test
from tests.engine.ten_point_buck_refusal_checks import next_dealer, tpb

BIDS = dict.fromkeys(FOUR, 40)
POINTS = dict.fromkeys(FOUR, 40)
OK: dict[str, Any] = {"bids": BIDS, "points": POINTS}


def finished_game() -> list[dict[str, Any]]:
    """Five rounds in which only Bob makes his bid: Bob 50, the others 3 each a round."""
    return [{"bids": BIDS, "points": {"Ann": 50, "Bob": 40, "Cy": 50, "Dee": 50}}] * 5


# (id, record, round, code, field, player or None, words the message must contain)
CASES: list[tuple[str, Any, int | None, str, str | None, str | None, list[str]]] = [
    # The document, through the engine's core with this rule set's limits.
    ("two players", tpb(players=["Ann", "Bob"]), None, "player_count", None, None, ["3 to 5"]),
    ("six players", tpb(players=[*FIVE, "Fay"]), None, "player_count", None, None, ["3 to 5"]),
    (
        "an option of another game",
        tpb(options={"target": 11}),
        None,
        "unknown_option",
        None,
        None,
        ["rounds, tie_break"],
    ),
    ("no rounds", tpb(options={"rounds": 0}), None, "bad_option", None, None, ["at least 1"]),
    (
        "an unknown tie break",
        tpb(options={"tie_break": "coin"}),
        None,
        "bad_option",
        None,
        None,
        ["play_on", "shared"],
    ),
    # A round's shape and dealer.
    ("a round that is not an object", tpb(["Ann", 40]), 1, "bad_round", None, None, ["bids"]),
    (
        "the wrong dealer",
        tpb(OK, OK | {"dealer": "Cy"}),
        2,
        "wrong_dealer",
        "dealer",
        None,
        ["Bob", "passes left"],
    ),
    # Fields of the other games.
    ("a drop", tpb(OK | {"out": ["Bob"]}), 1, "unused_field", "out", None, ["no drops"]),
    ("a misdeal", tpb(OK | {"misdeal": True}), 1, "unused_field", "misdeal", None, ["dealt again"]),
    (
        "a penalty",
        tpb(OK | {"penalties": [{"player": "Bob", "kind": "renege"}]}),
        1,
        "unused_field",
        "penalties",
        None,
        ["no penalties"],
    ),
    ("an upcard", tpb(OK | {"upcard": "7w"}), 1, "unused_field", "upcard", None, ["trump"]),
    ("tricks", tpb(OK | {"tricks": {"Ann": 5}}), 1, "unused_field", "tricks", None, ["points"]),
    (
        "trick winners",
        tpb(OK | {"trick_winners": ["Ann"] * 10}),
        1,
        "unused_field",
        "trick_winners",
        None,
        ["not tricks"],
    ),
    # Bids.
    ("no bids", tpb({"points": POINTS}), 1, "bids_missing", "bids", None, ["bid"]),
    ("bids not a mapping", tpb(OK | {"bids": [40] * 4}), 1, "bad_field", "bids", None, ["map"]),
    (
        "a bid as text",
        tpb(OK | {"bids": BIDS | {"Bob": "40"}}),
        1,
        "bad_field",
        "bids",
        "Bob",
        ['"40"', "0 to 220"],
    ),
    (
        "a negative bid",
        tpb(OK | {"bids": BIDS | {"Bob": -1}}),
        1,
        "bad_field",
        "bids",
        "Bob",
        ["-1"],
    ),
    (
        "a bid above the deck's points",
        tpb(OK | {"bids": BIDS | {"Bob": 221}}),
        1,
        "bad_field",
        "bids",
        "Bob",
        ["221", "0 to 220"],
    ),
    (
        "a bid of true",
        tpb(OK | {"bids": BIDS | {"Bob": True}}),
        1,
        "bad_field",
        "bids",
        "Bob",
        ["true"],
    ),
    (
        "a bid for a stranger",
        tpb(OK | {"bids": BIDS | {"Zed": 4}}),
        1,
        "unknown_player",
        "bids",
        None,
        ["Zed"],
    ),
    (
        "a player without a bid",
        tpb(OK | {"bids": {"Ann": 4, "Bob": 4, "Cy": 4}}),
        1,
        "missing_bid",
        "bids",
        "Dee",
        ["Dee"],
    ),
    # Points.
    ("no points and no play", tpb({"bids": BIDS}), 1, "points_missing", "points", None, []),
    (
        "points not a mapping",
        tpb(OK | {"points": 160}),
        1,
        "bad_field",
        "points",
        None,
        ["map"],
    ),
    (
        "points above the deck",
        tpb(OK | {"points": POINTS | {"Cy": 221}}),
        1,
        "bad_field",
        "points",
        "Cy",
        ["221", "0 to 220"],
    ),
    (
        "points for a stranger",
        tpb(OK | {"points": POINTS | {"Zed": 0}}),
        1,
        "unknown_player",
        "points",
        None,
        ["Zed"],
    ),
    (
        "a player without points",
        tpb(OK | {"points": {"Ann": 60, "Bob": 60, "Cy": 60}}),
        1,
        "missing_points",
        "points",
        "Dee",
        ["Dee", "0 included"],
    ),
    (
        "points adding up to more than 4 players can hold",
        tpb(OK | {"points": {"Ann": 50, "Bob": 50, "Cy": 50, "Dee": 51}}),
        1,
        "points_total",
        "points",
        None,
        ["201", "16 undealt", "105 to 200"],
    ),
    (
        "points adding up to less than 4 players hold",
        tpb(OK | {"points": {"Ann": 30, "Bob": 30, "Cy": 30, "Dee": 14}}),
        1,
        "points_total",
        "points",
        None,
        ["104", "105 to 200"],
    ),
    (
        "with the Doe's bonus the Doe and the Buck were dealt",
        tpb(OK | {"points": {"Ann": 50, "Bob": 50, "Cy": 50, "Dee": 49}, "doe_bonus": "Ann"}),
        1,
        "points_total",
        "points",
        None,
        ["199", "110 to 198", "Doe and the Buck were dealt"],
    ),
    (
        "a points total far off at 5 players",
        tpb(
            {"bids": dict.fromkeys(FIVE, 4), "points": dict.fromkeys(FIVE, 10)},
            players=FIVE,
        ),
        1,
        "points_total",
        "points",
        None,
        ["50", "6 undealt", "168 to 215"],
    ),
    # The Doe's bonus.
    (
        "the bonus for a stranger",
        tpb(OK | {"doe_bonus": "Zed"}),
        1,
        "unknown_player",
        "doe_bonus",
        None,
        ["Zed", "or nobody"],
    ),
    (
        "the bonus without the Buck's 10 points",
        tpb(OK | {"points": {"Ann": 9, "Bob": 60, "Cy": 60, "Dee": 60}, "doe_bonus": "Ann"}),
        1,
        "doe_bonus_points",
        "doe_bonus",
        "Ann",
        ["Ann", "10 points", "has 9"],
    ),
    # After the end.
    (
        "a round after the game ended",
        tpb(*finished_game(), OK),
        6,
        "game_over",
        None,
        None,
        ["round 5", "Bob won"],
    ),
]


test_refusal = refusal_test(CASES, also=next_dealer)


ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("empty fields of the other games", OK | {"out": [], "misdeal": False, "penalties": []}),
    ("a bid of 220", OK | {"bids": BIDS | {"Ann": 220}}),
    ("a bid of 0", OK | {"bids": BIDS | {"Ann": 0}}),
    ("points adding up to 200", OK | {"points": {"Ann": 50, "Bob": 50, "Cy": 50, "Dee": 50}}),
    ("points adding up to 105", OK | {"points": {"Ann": 30, "Bob": 30, "Cy": 30, "Dee": 15}}),
    ("the bonus with exactly the Buck", OK | {"points": POINTS | {"Ann": 10}, "doe_bonus": "Ann"}),
    ("no bonus, written as null", OK | {"doe_bonus": None}),
    ("a field of its own", OK | {"note": "Bob was late"}),
]


@pytest.mark.parametrize("rnd", [case[1] for case in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_accepted_at_the_edges(rnd: dict[str, Any]) -> None:
    output = engine.check(tpb(rnd))
    assert output["valid"], output["errors"]


def test_every_problem_of_the_round_is_reported() -> None:
    rnd = {"dealer": "Bob", "bids": {"Ann": -3}, "points": {"Zed": 4}, "out": ["Cy"]}
    output = engine.check(tpb(rnd))
    codes = {(e["code"], e["field"]) for e in output["errors"]}
    assert codes >= {
        ("wrong_dealer", "dealer"),
        ("bad_field", "bids"),
        ("missing_bid", "bids"),
        ("unknown_player", "points"),
        ("missing_points", "points"),
        ("unused_field", "out"),
    }
    assert all(e["round"] == 1 for e in output["errors"])


def test_rounds_after_an_invalid_one_are_not_scored() -> None:
    output = engine.check(tpb(OK, {"bids": BIDS}, OK))
    assert [e["round"] for e in output["errors"]] == [2]
    assert len(output["rounds"]) == 1
    assert output["next_dealer"] == "Bob"
    assert output["scores"] == dict.fromkeys(FOUR, 10)
