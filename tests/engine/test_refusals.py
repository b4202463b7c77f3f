"""Every refusal a scorer (or a client of the API) can hit, with its code, field and player.

Card-level refusals (the `play` field) are in test_play.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.records import FIVE, FOUR, THREE, game

OK = {"tricks": {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 1, "Eve": 1}}

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
    # Penalties and misdeals.
    (
        "unknown penalty kind",
        game({**OK, "penalties": [{"player": "Cy", "kind": "cheating"}]}),
        1,
        "unknown_penalty",
        "penalties",
        "Cy",
        ["cheating", "renege"],
    ),
    (
        "a misdeal round carries tricks",
        game({"misdeal": True, "tricks": {"Ann": 5}}),
        1,
        "misdeal_with_tricks",
        "tricks",
        None,
        ["misdeal", "clear the tricks", "untick misdeal if the round was played"],
    ),
    (
        "a misdeal round carries trick_winners",
        game({"misdeal": True, "trick_winners": ["Ann"] * 5}),
        1,
        "misdeal_with_tricks",
        "trick_winners",
        None,
        [],
    ),
    (
        "a misdeal penalty in a played round",
        game({**OK, "penalties": [{"player": "Ann", "kind": "misdeal"}]}),
        1,
        "penalty_kind_conflict",
        "penalties",
        "Ann",
        ["misdeal"],
    ),
    (
        "a renege in a thrown-in round",
        game({"misdeal": True, "penalties": [{"player": "Bob", "kind": "renege"}]}),
        1,
        "penalty_kind_conflict",
        "penalties",
        "Bob",
        ["A renege penalty on Bob needs a round that was played", "marked as a misdeal"],
    ),
    (
        "a penalty on a player who dropped",
        game(
            {
                "out": ["Bob"],
                "tricks": {"Ann": 5},
                "penalties": [{"player": "Bob", "kind": "renege"}],
            }
        ),
        1,
        "penalty_on_dropped_player",
        "penalties",
        "Bob",
        ["Bob", "dropped"],
    ),
    (
        "IHBA: 'DEALER NOT ANNOUNCING' is the dealer's penalty only",
        game({"tricks": {"Ann": 5}, "penalties": [{"player": "Cy", "kind": "undeclared_draw"}]}),
        1,
        "undeclared_draw_not_dealer",
        "penalties",
        "Cy",
        ["Ann", "Cy"],
    ),
    (
        "every hand out of play",
        game(
            {"tricks": {}, "penalties": [{"player": p, "kind": "renege"} for p in THREE]},
            players=THREE,
        ),
        1,
        "no_player_in_play",
        "penalties",
        None,
        ["Every player dropped or lost the hand", "nobody is left to take the 5 tricks"],
    ),
    (
        "every player dropped",
        game({"out": FIVE, "tricks": {}}),
        1,
        "no_player_in_play",
        "out",
        None,
        ["nobody is left", "if the cards were thrown in, mark the round as a misdeal"],
    ),
    # Tricks.
    (
        "no tricks entered",
        game({"dealer": "Ann"}),
        1,
        "tricks_missing",
        "tricks",
        None,
        ["No tricks are entered", "each player who stayed in took", "mark the round as a misdeal"],
    ),
    (
        "a dropped player takes no tricks",
        game({"out": ["Bob"], "tricks": {"Ann": 3, "Bob": 2}}),
        1,
        "tricks_for_dropped_player",
        "tricks",
        "Bob",
        ["Bob", "2 tricks"],
    ),
    (
        "a dropped player wins no trick in trick_winners",
        game({"out": ["Bob"], "trick_winners": ["Ann", "Ann", "Bob", "Cy", "Cy"]}),
        1,
        "tricks_for_dropped_player",
        "trick_winners",
        "Bob",
        ["Bob"],
    ),
    (
        "ruling 4: a hand out of play takes no tricks",
        game({"tricks": {"Ann": 4, "Eve": 1}, "penalties": [{"player": "Eve", "kind": "renege"}]}),
        1,
        "tricks_for_penalized_player",
        "tricks",
        "Eve",
        ["Eve", "1 trick", "replayed"],
    ),
    (
        "IHBA: 'Play continues until all five rounds of tricks have been completed'",
        game({"tricks": {"Ann": 2, "Bob": 2}}),
        1,
        "tricks_not_five",
        "tricks",
        None,
        ["add up to 4", "Ann 2, Bob 2", "a round has exactly 5 tricks"],
    ),
    (
        "six tricks",
        game({"tricks": {"Ann": 5, "Bob": 1}}),
        1,
        "tricks_not_five",
        "tricks",
        None,
        ["add up to 6"],
    ),
    (
        "trick_winners must name 5 winners",
        game({"tricks": {"Ann": 5}, "trick_winners": ["Ann"] * 4}),
        1,
        "trick_winners_count",
        "trick_winners",
        None,
        ["4 tricks"],
    ),
    (
        "trick_winners must agree with tricks",
        game(
            {"tricks": {"Ann": 3, "Bob": 2}, "trick_winners": ["Ann", "Bob", "Bob", "Bob", "Ann"]}
        ),
        1,
        "trick_winners_mismatch",
        "trick_winners",
        None,
        ["Ann 2, Bob 3", "Ann 3, Bob 2"],
    ),
]


@pytest.mark.parametrize(
    ("record", "round_number", "code", "field", "player", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_it_refuses(
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
    # The shape of every error: the spec's keys plus the field/player extension.
    for e in output["errors"]:
        assert set(e) <= {"round", "code", "message", "field", "player"}
        assert e["code"].islower()
        assert " " not in e["code"]
        assert e["message"]
        assert "\n" not in e["message"]


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
    """Each code this file and test_play.py expect has a row in docs/engine.md."""
    from pathlib import Path

    from tests.engine.test_play import PLAY_CASES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    expected = {case[3] for case in CASES} | {case[2] for case in PLAY_CASES}
    expected |= {"trick_winners_required", "game_over"}
    missing = sorted(code for code in expected if f"`{code}`" not in doc)
    assert not missing
