"""Every refusal of Ten-Point Buck's card-level play (the `play` field): its shape, then
the cards against the hands and the rules, each with its code, field, player and
message. The hand-worked round of test_ten_point_buck.py is changed in one place a case.
The refusals of the summary fields are in test_ten_point_buck_refusals.py.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.engine.records import THREE
from tests.engine.refusal_checks import refusal_test
from tests.engine.ten_point_buck_refusal_checks import next_dealer, tpb
from tests.engine.test_ten_point_buck import PLAYED_ROUND


def played(change: Any) -> dict[str, Any]:
    """The hand-worked round of test_ten_point_buck.py, changed by `change(round)`."""
    rnd = copy.deepcopy(PLAYED_ROUND)
    change(rnd)
    return tpb(rnd, players=THREE)


def hands(rnd: dict[str, Any]) -> dict[str, list[Any]]:
    result: dict[str, list[Any]] = rnd["play"]["hands"]
    return result


def tricks(rnd: dict[str, Any]) -> list[list[Any]]:
    result: list[list[Any]] = rnd["play"]["tricks"]
    return result


def cy_follows_six(rnd: dict[str, Any]) -> None:
    """Cy holds a second 6 instead of the 5 and plays it to trick 7 after Bob's 6, while
    still holding a 3 (a rank not in the trick): Ann 4, Bob 6, Cy 6."""
    hands(rnd)["Cy"].remove("5")
    hands(rnd)["Cy"].append("6")
    tricks(rnd)[6] = ["4", "6", "6"]


# (id, record, round, code, field, player or None, words the message must contain)
CASES: list[tuple[str, Any, int | None, str, str | None, str | None, list[str]]] = [
    # Card-level play: the shape.
    (
        "play without hands",
        played(lambda r: r.update(play={"tricks": []})),
        1,
        "bad_field",
        "play",
        None,
        ["hands"],
    ),
    (
        "a hand that is not a list",
        played(lambda r: hands(r).update(Ann="6 2w 10w")),
        1,
        "bad_field",
        "play",
        "Ann",
        ["list"],
    ),
    (
        "tricks that are not a list",
        played(lambda r: r["play"].update(tricks="all of them")),
        1,
        "bad_field",
        "play",
        None,
        ["tricks"],
    ),
    (
        "a trick that is not a list",
        played(lambda r: tricks(r).__setitem__(4, "1w 7w 6w")),
        1,
        "bad_field",
        "play",
        None,
        ["Trick 5"],
    ),
    (
        "a card that is not one",
        played(lambda r: hands(r)["Bob"].__setitem__(0, "5H")),
        1,
        "bad_card",
        "play",
        "Bob",
        ["5H", "7w"],
    ),
    (
        "a normal 10",
        played(lambda r: hands(r)["Ann"].__setitem__(2, "10")),
        1,
        "bad_card",
        "play",
        "Ann",
        ["the Buck, written 10w"],
    ),
    (
        "a normal 0",
        played(lambda r: tricks(r)[2].__setitem__(1, "0")),
        1,
        "bad_card",
        "play",
        None,
        ["trick 3", "the Doe, written 0w"],
    ),
    (
        "a card as a number",
        played(lambda r: hands(r)["Cy"].__setitem__(0, 7)),
        1,
        "bad_card",
        "play",
        "Cy",
        ["7"],
    ),
    (
        "a card as a list",
        played(lambda r: hands(r)["Cy"].__setitem__(0, ["7"])),
        1,
        "bad_card",
        "play",
        "Cy",
        [],
    ),
    (
        "a white card twice",
        played(lambda r: hands(r)["Cy"].__setitem__(2, "10w")),
        1,
        "duplicate_card",
        "play",
        "Cy",
        ["a 10w too many", "only one"],
    ),
    (
        "more normal 8s than the deck holds",
        played(lambda r: hands(r)["Cy"].__setitem__(0, "8")),
        1,
        "duplicate_card",
        "play",
        "Cy",
        ["an 8 too many", "2 normal 8s in all"],
    ),
    (
        "a hand of 9 cards",
        played(lambda r: hands(r)["Bob"].pop()),
        1,
        "hand_size",
        "play",
        "Bob",
        ["9 cards", "10"],
    ),
    (
        "a hand missing",
        played(lambda r: hands(r).pop("Cy")),
        1,
        "wrong_hands",
        "play",
        "Cy",
        ["no hand for Cy"],
    ),
    (
        "a hand for a stranger",
        played(lambda r: hands(r).update(Zed=["1"] * 10)),
        1,
        "unknown_player",
        "play",
        None,
        ["Zed"],
    ),
    (
        "nine tricks",
        played(lambda r: tricks(r).pop()),
        1,
        "wrong_trick_count",
        "play",
        None,
        ["9 tricks", "10"],
    ),
    (
        "a trick of two cards",
        played(lambda r: tricks(r)[0].pop()),
        1,
        "wrong_trick_size",
        "play",
        None,
        ["Trick 1", "2 cards", "3 players"],
    ),
    # Card-level play: the cards against the hands and the rules.
    (
        "a card the player does not hold",
        played(lambda r: tricks(r)[0].__setitem__(0, "9")),
        1,
        "card_not_in_hand",
        "play",
        "Bob",
        ["Trick 1", "9", "Bob", "from its leader, Bob"],
    ),
    (
        "cards listed from the wrong player",
        played(lambda r: tricks(r).__setitem__(0, ["6", "5", "7"])),
        1,
        "card_not_in_hand",
        "play",
        "Ann",
        ["3rd card, 7", "Ann does not hold 7", "from its leader, Bob"],
    ),
    (
        "a card of a rank already in the trick",
        played(cy_follows_six),
        1,
        "renege",
        "play",
        "Cy",
        ["Trick 7", "a 6 is already in the trick (6 from Bob)", "(held: 3)"],
    ),
    (
        "points that disagree with the cards",
        played(lambda r: r.update(points={"Ann": 54, "Bob": 55, "Cy": 37})),
        1,
        "play_mismatch",
        "points",
        None,
        ["Bob 55, Cy 37", "Bob 56, Cy 36"],
    ),
    (
        "one player's points disagree with the cards",
        played(lambda r: r.update(points={"Ann": 53, "Bob": 56, "Cy": 36})),
        1,
        "play_mismatch",
        "points",
        "Ann",
        ["Ann 53", "Ann 54"],
    ),
    (
        "a Doe bonus that disagrees with the cards",
        played(lambda r: r.update(doe_bonus="Cy")),
        1,
        "play_mismatch",
        "doe_bonus",
        None,
        ["says Cy", "Bob took the Buck with the Doe"],
    ),
    (
        "no Doe bonus where the cards give one",
        played(lambda r: r.update(doe_bonus=None)),
        1,
        "play_mismatch",
        "doe_bonus",
        None,
        ["says nobody"],
    ),
    (
        "bids are needed with the cards too",
        played(lambda r: r.pop("bids")),
        1,
        "bids_missing",
        "bids",
        None,
        [],
    ),
]

test_refusal = refusal_test(CASES, also=next_dealer)
