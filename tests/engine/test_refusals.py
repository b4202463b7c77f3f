"""Every refusal a scorer (or a client of the API) can hit, with its code, field and player.

Here: the document, a round's shape, names and drops; a round's penalties, misdeals and
tricks are in test_refusals_penalties_and_tricks.py, card-level refusals (the `play`
field) in test_play_refusals.py.
"""

from __future__ import annotations

from typing import Any

import engine
from tests.engine.records import FIVE, FOUR, THREE, game
from tests.engine.refusal_checks import OK, error_shapes, refusal_test

# (id, record, round, code, field, player or None, words the message must contain)
CASES: list[tuple[str, Any, int | None, str, str | None, str | None, list[str]]] = [
    # The document.
    ("not an object", ["rounds"], None, "not_an_object", None, None, ["JSON object"]),
    (
        "another format",
        {**game(), "format": "buck-game/2"},
        None,
        "unsupported_format",
        None,
        None,
        ["buck-game/1", "buck-game/2"],
    ),
    ("unknown rules id", game(rules="poker"), None, "unknown_rules", None, None, ["poker"]),
    ("no rules id", {**game(), "rules": None}, None, "unknown_rules", None, None, ["huckley-buck"]),
    ("players not a list", {**game(), "players": "Ann"}, None, "bad_players", None, None, []),
    (
        "a player without a name",
        game(players=["Ann", "", "Cy"]),
        None,
        "bad_players",
        None,
        None,
        [],
    ),
    (
        "a name twice",
        game(players=["Ann", "Bob", "Ann", "Cy"]),
        None,
        "duplicate_player",
        None,
        "Ann",
        ["Ann", "twice"],
    ),
    (
        "2 players ('Three to seven players')",
        game(players=["Ann", "Bob"]),
        None,
        "player_count",
        None,
        None,
        ["3 to 7", "not 2"],
    ),
    (
        "8 players",
        game(players=[*FIVE, "Fay", "Gus", "Hal"]),
        None,
        "player_count",
        None,
        None,
        ["not 8"],
    ),
    (
        "no first dealer",
        game({"tricks": {"Ann": 5}}, first_dealer=None),
        None,
        "missing_first_dealer",
        None,
        None,
        ["Say who dealt first"],
    ),
    (
        "first dealer not at the table",
        game(first_dealer="Zed"),
        None,
        "unknown_player",
        None,
        None,
        ["Zed"],
    ),
    (
        "unknown option",
        game(options={"target": 11, "jokers": True}),
        None,
        "unknown_option",
        None,
        None,
        ["jokers", "target"],
    ),
    (
        "target not a number",
        game(options={"target": "11"}),
        None,
        "bad_option",
        None,
        None,
        ["target"],
    ),
    ("target below 1", game(options={"target": 0}), None, "bad_option", None, None, ["at least 1"]),
    (
        "tie_break unknown",
        game(options={"tie_break": "coin"}),
        None,
        "bad_option",
        None,
        None,
        ["trick_order"],
    ),
    (
        "dealer_may_drop not a boolean",
        game(options={"dealer_may_drop": 1}),
        None,
        "bad_option",
        None,
        None,
        ["true or false"],
    ),
    (
        "options not an object",
        game(options=None) | {"options": [1]},
        None,
        "bad_option",
        None,
        None,
        [],
    ),
    ("rounds not a list", {**game(), "rounds": {"1": OK}}, None, "bad_rounds", None, None, []),
    # A round's shape.
    ("round not an object", game(OK, "Ann 5"), 2, "bad_round", None, None, ["Round 2"]),
    ("out not a list", game({**OK, "out": "Bob"}), 1, "bad_field", "out", None, []),
    (
        "out names a player twice",
        game({"out": ["Bob", "Bob"], "tricks": {"Ann": 5}}),
        1,
        "bad_field",
        "out",
        "Bob",
        ["twice"],
    ),
    ("tricks not an object", game({"tricks": [1, 1, 1, 1, 1]}), 1, "bad_field", "tricks", None, []),
    (
        "tricks not a number",
        game({"tricks": {"Ann": "5"}}),
        1,
        "bad_field",
        "tricks",
        "Ann",
        ["Ann", "0 to 5"],
    ),
    ("tricks above 5", game({"tricks": {"Ann": 6}}), 1, "bad_field", "tricks", "Ann", ["0 to 5"]),
    (
        "tricks negative",
        game({"tricks": {"Ann": -1, "Bob": 6}}),
        1,
        "bad_field",
        "tricks",
        "Ann",
        [],
    ),
    (
        "tricks a boolean",
        game({"tricks": {"Ann": True, "Bob": 4}}),
        1,
        "bad_field",
        "tricks",
        "Ann",
        [],
    ),
    ("misdeal not a boolean", game({**OK, "misdeal": "yes"}), 1, "bad_field", "misdeal", None, []),
    (
        "penalties not a list",
        game({**OK, "penalties": {"player": "Ann"}}),
        1,
        "bad_field",
        "penalties",
        None,
        [],
    ),
    (
        "penalty without a kind",
        game({**OK, "penalties": [{"player": "Ann"}]}),
        1,
        "bad_field",
        "penalties",
        None,
        ["kind"],
    ),
    (
        "trick_winners not a list",
        game({**OK, "trick_winners": "Ann"}),
        1,
        "bad_field",
        "trick_winners",
        None,
        [],
    ),
    (
        "play not an object",
        game({**OK, "upcard": "2S", "play": []}),
        1,
        "bad_field",
        "play",
        None,
        ["hands"],
    ),
    # Names.
    (
        "dealer not the expected one",
        game({**OK, "dealer": "Bob"}),
        1,
        "wrong_dealer",
        "dealer",
        None,
        ["Ann", "Bob"],
    ),
    (
        "dealer of round 2 is left of round 1's",
        game(OK, {**OK, "dealer": "Cy"}),
        2,
        "wrong_dealer",
        "dealer",
        None,
        ["Bob", "Cy", "left"],
    ),
    (
        "out names a stranger",
        game({"out": ["Zed"], "tricks": {"Ann": 5}}),
        1,
        "unknown_player",
        "out",
        None,
        ["Zed"],
    ),
    (
        "tricks names a stranger",
        game({"tricks": {"Ann": 4, "Zed": 1}}),
        1,
        "unknown_player",
        "tricks",
        None,
        ["Zed"],
    ),
    (
        "trick_winners names a stranger",
        game({**OK, "trick_winners": ["Ann", "Bob", "Cy", "Dee", "Zed"]}),
        1,
        "unknown_player",
        "trick_winners",
        None,
        ["Zed"],
    ),
    (
        "penalty names a stranger",
        game({**OK, "penalties": [{"player": "Zed", "kind": "renege"}]}),
        1,
        "unknown_player",
        "penalties",
        None,
        ["Zed"],
    ),
    # Drops (ruling 1).
    (
        "ruling 1: no drops at 4 players",
        game({"out": ["Bob"], "tricks": {"Ann": 5}}, players=FOUR),
        1,
        "drop_not_allowed",
        "out",
        "Bob",
        ["Bob", "table of 4"],
    ),
    (
        "ruling 1: no drops at 3 players",
        game({"out": ["Bob", "Cy"], "tricks": {"Ann": 5}}, players=THREE),
        1,
        "drop_not_allowed",
        "out",
        None,
        ["Bob, Cy", "table of 3"],
    ),
    (
        "IHBA: 'For games with five players, only one may drop'",
        game({"out": ["Bob", "Cy"], "tricks": {"Ann": 5}}),
        1,
        "too_many_out",
        "out",
        None,
        ["2 players dropped (Bob, Cy)", "at most 1"],
    ),
    (
        "option dealer_may_drop off",
        game({"out": ["Ann"], "tricks": {"Bob": 5}}, options={"dealer_may_drop": False}),
        1,
        "dealer_cannot_drop",
        "out",
        "Ann",
        ["Ann"],
    ),
]


test_it_refuses = refusal_test(CASES, also=error_shapes)


def test_a_document_error_keeps_the_output_shape_and_zero_scores() -> None:
    output = engine.check(game(OK, options={"jokers": True}))
    assert output == {
        "valid": False,
        "rules": "huckley-buck",
        "rounds": [],
        "scores": dict.fromkeys(FIVE, 0),
        "finished": False,
        "winner": None,
        "next_dealer": None,
        "errors": output["errors"],
    }


def test_an_upcard_may_come_without_the_cards_played() -> None:
    """The upcard alone is a card to check, not a reason to refuse the round."""
    output = engine.check(game({"upcard": "2S", **OK}))
    assert output["valid"], output["errors"]


def test_the_trick_order_requirement_names_all_who_reach_the_target() -> None:
    """Seven rounds where everyone takes a trick and one player two (Ann twice, Bob twice,
    Cy three times) leave Ann 9, Bob 9, Cy 10, Dee 7; then Ann 2, Bob 2, Cy 1 take all
    three to 11: the message names them "all", not "both"."""
    one_each = {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1}
    extra = ["Ann", "Ann", "Bob", "Bob", "Cy", "Cy", "Cy"]
    climb = [{"tricks": {**one_each, name: 2}} for name in extra]
    assert engine.check(game(*climb, players=FOUR))["scores"] == {
        "Ann": 9,
        "Bob": 9,
        "Cy": 10,
        "Dee": 7,
    }
    last = {"tricks": {"Ann": 2, "Bob": 2, "Cy": 1}}
    output = engine.check(game(*climb, last, players=FOUR))
    assert [e["code"] for e in output["errors"]] == ["trick_winners_required"]
    assert output["errors"][0]["message"].startswith("Ann, Bob and Cy all reach 11")


def test_the_trick_order_requirement_is_refused_with_its_own_code() -> None:
    """Ruling 6, checked fully in test_scoring.py."""
    rnd = {"tricks": {"Ann": 3, "Bob": 2}}
    level = {"tricks": {"Ann": 1, "Bob": 4}}  # Ann 9 + 1, Bob 6 + 4
    last = {"tricks": {"Ann": 1, "Bob": 1, "Cy": 3}}
    output = engine.check(game(rnd, rnd, rnd, level, last, players=FOUR))
    assert [(e["code"], e["field"]) for e in output["errors"]] == [
        ("trick_winners_required", "trick_winners")
    ]


def test_refusal_codes_are_all_documented() -> None:
    """Each code this file, test_refusals_penalties_and_tricks.py and test_play_refusals.py
    expect has a row in docs/engine.md."""
    from pathlib import Path

    from tests.engine.test_play_refusals import PLAY_CASES
    from tests.engine.test_refusals_penalties_and_tricks import CASES as ROUND_CASES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    expected = {case[3] for case in CASES + ROUND_CASES} | {case[2] for case in PLAY_CASES}
    expected |= {"trick_winners_required", "game_over"}
    missing = sorted(code for code in expected if f"`{code}`" not in doc)
    assert not missing
