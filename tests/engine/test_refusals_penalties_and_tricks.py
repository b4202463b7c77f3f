"""Every refusal of a Huckley Buck round's penalties, misdeals and tricks, with its code,
field and player. The refusals of the document, a round's shape, names and drops are in
test_refusals.py.
"""

from __future__ import annotations

from typing import Any

from tests.engine.records import FIVE, THREE, game
from tests.engine.refusal_checks import OK, error_shapes, refusal_test

# (id, record, round, code, field, player or None, words the message must contain)
CASES: list[tuple[str, Any, int | None, str, str | None, str | None, list[str]]] = [
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

test_it_refuses = refusal_test(CASES, also=error_shapes)
