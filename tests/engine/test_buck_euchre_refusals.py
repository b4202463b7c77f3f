"""Every refusal of a Buck Euchre summary round, with its code, field and player.

Card-level refusals (the `play` field) are in test_buck_euchre_play.py. Players sit Ann,
Bob, Cy, Dee clockwise; Ann deals round 1.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.records import FIVE, FOUR, THREE, codes, game


def be(*rounds: Any, **kw: Any) -> dict[str, Any]:
    kw.setdefault("players", FOUR)
    return game(*rounds, rules="buck-euchre", **kw)


DECLARED = {"upcard": "9H", "trump": "H", "declarer": "Bob", "tricks": {"Bob": 3, "Cy": 2}}
NO_TRUMP = {"upcard": "9H", "trump": None, "tricks": {"Ann": 2, "Bob": 1, "Cy": 1, "Dee": 1}}


def r(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    rnd = {**base, **changes}
    return {k: v for k, v in rnd.items() if v is not _DROP}


_DROP = object()

# (id, record, round, code, field, player or None, words the message must contain)
CASES: list[tuple[str, Any, int | None, str, str | None, str | None, list[str]]] = [
    # The document: the core's checks, with Buck Euchre's numbers.
    ("3 players", be(players=THREE), None, "player_count", None, None, ["4", "not 3"]),
    ("5 players", be(players=FIVE), None, "player_count", None, None, ["not 5"]),
    ("an unknown option", be(options={"target": 0}), None, "unknown_option", None, None,
     ["target", "start"]),
    ("start not a number", be(options={"start": "25"}), None, "bad_option", None, None,
     ["start"]),
    ("start of 0", be(options={"start": 0}), None, "bad_option", None, None, ["at least 1"]),
    # A round.
    ("a round that is not an object", be("Bob 5"), 1, "bad_round", None, None, ["Bob 5"]),
    ("the wrong dealer", be(DECLARED, r(DECLARED, dealer="Dee")), 2, "wrong_dealer", "dealer",
     None, ["dealt by Bob, not Dee", "Ann dealt round 1"]),
    ("the wrong first dealer", be(r(DECLARED, dealer="Cy")), 1, "wrong_dealer", "dealer", None,
     ["Ann is the first dealer"]),
    ("misdeal not a boolean", be(r(DECLARED, misdeal="yes")), 1, "bad_field", "misdeal",
     None, ["true or false"]),
    ("a penalty", be(r(DECLARED, penalties=[{"player": "Cy", "kind": "renege"}])), 1,
     "penalty_not_in_rules", "penalties", None, ["no penalties"]),
    ("a misdeal with tricks", be({"misdeal": True, "tricks": {"Ann": 5}}), 1,
     "misdeal_with_tricks", "tricks", None, ["misdeal", "clear the tricks"]),
    ("a misdeal with play", be({"misdeal": True, "play": {"hands": {}}}), 1,
     "misdeal_with_tricks", "play", None, ["clear the cards played"]),
    ("an upcard that is not a card", be(r(DECLARED, upcard="9X")), 1, "bad_card", "upcard",
     None, ["9X"]),
    ("an upcard outside the pack", be(r(DECLARED, upcard="8H")), 1, "not_in_pack", "upcard",
     None, ["8H", "9, 10, J, Q, K and A"]),
    ("trump not a suit letter", be(r(DECLARED, trump="hearts")), 1, "bad_field", "trump",
     None, ['"hearts"', "S, H, D or C"]),
    ("trump left out", be(r(DECLARED, trump=_DROP)), 1, "trump_missing", "trump", None,
     ["null if every player passed"]),
    ("a declarer not at the table", be(r(DECLARED, declarer="Zed")), 1, "unknown_player",
     "declarer", None, ["Zed"]),
    ("a club upcard with another trump", be(r(DECLARED, upcard="QC", declarer=None)), 1,
     "dirty_clubs_trump", "trump", None, ["QC is a club", "must be C, not H"]),
    ("a club upcard with a declarer", be(r(DECLARED, upcard="QC", trump="C")), 1,
     "dirty_clubs_declarer", "declarer", "Bob", ["dirty clubs", "remove Bob"]),
    ("a declarer with no trump", be(r(NO_TRUMP, declarer="Cy")), 1, "declarer_without_trump",
     "declarer", "Cy", ["nobody is declarer"]),
    ("trump named with no declarer", be(r(DECLARED, declarer=None)), 1, "declarer_missing",
     "declarer", None, ["Hearts are trump", "Enter that player as declarer"]),
    ("clubs named over a red upcard with no declarer",
     be(r(DECLARED, trump="C", declarer=None)), 1, "declarer_missing", "declarer", None,
     ["9H is not a club", "second round"]),
    ("out not a list", be(r(DECLARED, out="Cy")), 1, "bad_field", "out", None, ["list"]),
    ("out names a stranger", be(r(DECLARED, out=["Zed"])), 1, "unknown_player", "out", None,
     ["Zed"]),
    ("out names a player twice", be(r(DECLARED, out=["Dee", "Dee"])), 1, "bad_field", "out",
     "Dee", ["twice"]),
    ("a drop in dirty clubs", be({"upcard": "9C", "out": ["Dee"], "tricks": {"Ann": 5}}), 1,
     "drop_not_allowed", "out", "Dee", ["dirty clubs", "every player plays"]),
    ("two drops in a no-trump hand", be(r(NO_TRUMP, out=["Cy", "Dee"])), 1,
     "drop_not_allowed", "out", None, ["Cy, Dee dropped", "without trump"]),
    ("the declarer dropped", be(r(DECLARED, out=["Bob"])), 1, "declarer_cannot_drop", "out",
     "Bob", ["Bob is the declarer and cannot drop"]),
    ("tricks not an object", be(r(DECLARED, tricks=[3, 2])), 1, "bad_field", "tricks", None,
     ["map each player"]),
    ("tricks for a stranger", be(r(DECLARED, tricks={"Zed": 5})), 1, "unknown_player",
     "tricks", None, ["Zed"]),
    ("a trick count as text", be(r(DECLARED, tricks={"Bob": "5"})), 1, "bad_field", "tricks",
     "Bob", ['not "5"']),
    ("six tricks", be(r(DECLARED, tricks={"Bob": 6})), 1, "bad_field", "tricks", "Bob",
     ["0 to 5"]),
    ("no tricks", be(r(DECLARED, tricks=_DROP)), 1, "tricks_missing", "tricks", None,
     ["No tricks"]),
    ("tricks for a dropped player", be(r(DECLARED, out=["Cy"])), 1,
     "tricks_for_dropped_player", "tricks", "Cy", ["Cy dropped but has 2 tricks"]),
    ("tricks adding up to 4", be(r(DECLARED, tricks={"Bob": 3, "Cy": 1})), 1,
     "tricks_not_five", "tricks", None, ["add up to 4", "Ann 0, Bob 3, Cy 1, Dee 0"]),
    ("tricks adding up to 6", be(r(NO_TRUMP, tricks={"Ann": 3, "Bob": 3})), 1,
     "tricks_not_five", "tricks", None, ["add up to 6"]),
    ("trick_winners not a list", be(r(DECLARED, trick_winners="Bob")), 1, "bad_field",
     "trick_winners", None, ["list"]),
    ("trick_winners names a stranger",
     be(r(DECLARED, trick_winners=["Bob", "Bob", "Bob", "Cy", "Zed"])), 1, "unknown_player",
     "trick_winners", None, ["Zed"]),
    ("four trick winners", be(r(DECLARED, trick_winners=["Bob", "Bob", "Bob", "Cy"])), 1,
     "trick_winners_count", "trick_winners", None, ["lists 4 tricks"]),
    ("trick_winners against tricks",
     be(r(DECLARED, trick_winners=["Bob", "Bob", "Cy", "Cy", "Cy"])), 1,
     "trick_winners_mismatch", "trick_winners", None, ["Bob 2, Cy 3", "Bob 3, Cy 2"]),
    ("a trick won by a dropped player",
     be(r(DECLARED, tricks=_DROP, out=["Dee"], trick_winners=["Bob", "Bob", "Bob", "Dee",
                                                              "Cy"])), 1,
     "tricks_for_dropped_player", "trick_winners", "Dee", ["Dee dropped but wins a trick"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("record", "number", "code", "field", "player", "words"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_every_refusal(
    record: Any,
    number: int | None,
    code: str,
    field: str | None,
    player: str | None,
    words: list[str],
) -> None:
    output = engine.check(record)
    assert not output["valid"]
    found = [e for e in output["errors"] if e["code"] == code]
    assert found, output["errors"]
    error = found[0]
    assert error["round"] == number
    assert error["field"] == field
    assert error.get("player") == player
    for word in words:
        assert word in error["message"], error["message"]
    if number is not None:
        assert len(output["rounds"]) == number - 1


def test_every_problem_of_a_round_is_reported() -> None:
    rnd = {
        "dealer": "Bob",
        "upcard": "QC",
        "trump": "H",
        "declarer": "Cy",
        "out": ["Dee"],
        "tricks": {"Ann": 2},
    }
    output = engine.check(be(rnd))
    assert codes(output) == [
        (1, "wrong_dealer", "dealer"),
        (1, "dirty_clubs_trump", "trump"),
        (1, "dirty_clubs_declarer", "declarer"),
        (1, "drop_not_allowed", "out"),
        (1, "tricks_not_five", "tricks"),
    ]


def test_rounds_after_an_invalid_round_are_not_scored() -> None:
    bad = r(DECLARED, tricks={"Bob": 3})
    output = engine.check(be(NO_TRUMP, bad, NO_TRUMP))
    assert [e["round"] for e in output["errors"]] == [2]
    assert len(output["rounds"]) == 1
    assert output["scores"] == {"Ann": 23, "Bob": 24, "Cy": 24, "Dee": 24}
    assert output["next_dealer"] == "Bob"  # the round to correct


def test_misdeal_fields_are_not_checked_beyond_the_tricks() -> None:
    """Decision: a misdeal round was thrown in before play; trump, declarer and out in it
    mean nothing and are ignored."""
    output = engine.check(be({"misdeal": True, "trump": "H", "declarer": None, "out": ["Cy"]}))
    assert output["valid"], output["errors"]
