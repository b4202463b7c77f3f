"""Card-level play refused: every `play` a round cannot have, with its code, field,
player and message, worked out by hand from THE PLAY, RENEGE and THE DEAL of the IHBA
rules text; and the careful re-read of an odd `play` (engine/games/_common/play.py),
which names everything wrong in it, not only the first. The plays accepted are in
test_play.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.games._common.play import ordinal as play_ordinal
from tests.engine.records import THREE, game
from tests.engine.worked_round import HANDS, TRICKS, WORKED, worked

TRUMP_HANDS = {
    # Trump diamonds (upcard 2D); Ann deals, Bob leads.
    "Ann": ["QD", "4D", "5H", "6H", "7H"],
    "Bob": ["9D", "2C", "3C", "4C", "5C"],
    "Cy": ["JD", "3D", "2H", "3H", "4H"],
}

# (id, round, code, field, player, words in the message)
PLAY_CASES: list[tuple[str, dict[str, Any], str, str, str | None, list[str]]] = [
    (
        "RENEGE: 'fails, when able, to follow suit to a lead'",
        worked(tricks=[["KH", "2H", "4C"], *TRICKS[1:]]),
        "renege",
        "play",
        "Ann",
        ["Trick 1", "Ann played 4C", "follow suit to the heart lead", "AH"],
    ),
    (
        "RENEGE: 'trump a plain lead'",
        worked(tricks=[*TRICKS[:3], ["8C", "4C", "QH"], TRICKS[4]]),
        "renege",
        "play",
        "Bob",
        ["Trick 4", "Bob played QH", "had no clubs", "trump", "(trumps held: 7S)"],
    ),
    (
        "RENEGE: 'play over on a trump lead'",
        {
            "upcard": "2D",
            "play": {
                "hands": TRUMP_HANDS,
                "tricks": [["9D", "3D", "QD"]] + [["2C", "JD", "4D"]] * 4,
            },
        },
        "renege",
        "play",
        "Cy",
        ["Trick 1", "Cy played 3D", "play over 9D on a trump lead with JD"],
    ),
    (
        "THE PLAY: trumping, 'the player must kill the trick, if able' (over-trump)",
        {
            "upcard": "2D",
            "play": {
                "hands": TRUMP_HANDS,
                "tricks": [["2C", "JD", "4D"]] + [["3C", "3D", "QD"]] * 4,
            },
        },
        "renege",
        "play",
        "Ann",
        ["Trick 1", "Ann played 4D", "over-trump JD with QD"],
    ),
    (
        "a card the player does not hold",
        worked(tricks=[["KH", "2H", "AS"], *TRICKS[1:]]),
        "card_not_in_hand",
        "play",
        "Ann",
        ["Trick 1", "3rd card, AS", "Ann", "Bob"],
    ),
    (
        "a card played twice",
        worked(tricks=[TRICKS[0], ["KD", "KH", "AD"], *TRICKS[2:]]),
        "card_not_in_hand",
        "play",
        "Bob",
        ["Trick 2", "KH"],
    ),
    (
        "tricks listed from the wrong leader",
        worked(tricks=[["AH", "KH", "2H"], *TRICKS[1:]]),
        "card_not_in_hand",
        "play",
        "Bob",
        ["leader, Bob"],
    ),
    ("no upcard", {"play": WORKED["play"]}, "missing_upcard", "upcard", None, ["upcard"]),
    ("an upcard that is no card", worked(upcard="1S"), "bad_card", "upcard", None, ["1S"]),
    (
        "an upcard that is no card, without play",
        {"upcard": "ZZ", "tricks": {"Ann": 5}},
        "bad_card",
        "upcard",
        None,
        ["ZZ"],
    ),
    (
        "a card in a hand that is no card",
        worked(hands={**HANDS, "Bob": ["KH", "QH", "5D", "6C", "S7"]}),
        "bad_card",
        "play",
        "Bob",
        ["S7", "Bob"],
    ),
    (
        "a card in a trick that is no card",
        worked(tricks=[["KH", "2H", "AH"], ["KD", "5D", "1D"], *TRICKS[2:]]),
        "bad_card",
        "play",
        None,
        ["1D", "trick 2"],
    ),
    (
        "a hand missing",
        worked(hands={"Ann": HANDS["Ann"], "Bob": HANDS["Bob"]}),
        "wrong_hands",
        "play",
        "Cy",
        ["no hand for Cy"],
    ),
    (
        "a hand for a stranger",
        worked(hands={**HANDS, "Zed": ["2C", "3C", "4C", "5C", "7C"]}),
        "unknown_player",
        "play",
        None,
        ["Zed"],
    ),
    (
        "THE DEAL: 'Each player receives five cards'",
        worked(hands={**HANDS, "Cy": ["2H", "AD", "4S", "8C"]}),
        "hand_size",
        "play",
        "Cy",
        ["4 cards", "5"],
    ),
    (
        "a card in two hands",
        worked(hands={**HANDS, "Cy": ["2H", "AD", "4S", "8C", "AH"]}),
        "duplicate_card",
        "play",
        "Cy",
        ["AH", "Ann"],
    ),
    (
        "the upcard in a player's hand, not the dealer's",
        worked(hands={**HANDS, "Bob": ["KH", "QH", "5D", "6C", "2S"]}),
        "upcard_in_hand",
        "play",
        "Bob",
        ["2S", "Ann"],
    ),
    ("four tricks", worked(tricks=TRICKS[:4]), "wrong_trick_count", "play", None, ["4 tricks"]),
    (
        "a trick with a card missing",
        worked(tricks=[["KH", "2H"], *TRICKS[1:]]),
        "wrong_trick_size",
        "play",
        None,
        ["Trick 1", "2 cards", "3 players"],
    ),
    (
        "tricks that disagree with the cards",
        {**worked(), "tricks": {"Ann": 2, "Bob": 1, "Cy": 2}},
        "play_mismatch",
        "tricks",
        None,
        ["Ann 2, Cy 2", "Ann 1, Cy 3"],
    ),
    (
        "trick_winners that disagree with the cards",
        {**worked(), "trick_winners": ["Ann", "Cy", "Cy", "Cy", "Bob"]},
        "play_mismatch",
        "trick_winners",
        None,
        ["Cy won trick 4", "Bob won it"],
    ),
]


@pytest.mark.parametrize(
    ("rnd", "code", "field", "player", "words"),
    [case[1:] for case in PLAY_CASES],
    ids=[case[0] for case in PLAY_CASES],
)
def test_it_refuses_a_play(
    rnd: dict[str, Any], code: str, field: str, player: str | None, words: list[str]
) -> None:
    output = engine.check(game(rnd, players=THREE))
    assert output["valid"] is False
    matching = [e for e in output["errors"] if e["code"] == code]
    assert matching, output["errors"]
    error = matching[0]
    assert (error["round"], error["field"], error.get("player")) == (1, field, player)
    for word in words:
        assert word in error["message"], error["message"]


def test_a_hand_for_a_dropped_player_is_refused() -> None:
    rnd = {
        "out": ["Bob"],
        "upcard": "2C",
        "play": {"hands": {"Bob": ["AS", "AH", "AD", "2S", "2H"]}, "tricks": []},
    }
    output = engine.check(game(rnd))
    assert ("wrong_hands", "Bob") in [(e["code"], e.get("player")) for e in output["errors"]]


# The careful re-read (engine/games/_common/play.py): when anything in the shape of `play`
# is odd, the hands and tricks are read again to say everything that is wrong.


def refusals(rnd: dict[str, Any], rules: str = "huckley-buck") -> list[tuple[str, str | None]]:
    output = engine.check(game(rnd, players=THREE, rules=rules))
    return [(e["code"], e.get("player")) for e in output["errors"]]


# Bob holds the upcard 2S, and Cy's hand is a card short, which sends the play to the
# careful re-read.
BOB_HOLDS_THE_UPCARD = {
    **HANDS,
    "Bob": ["KH", "QH", "5D", "6C", "2S"],
    "Cy": ["2H", "AD", "4S", "8C"],
}


def test_the_re_read_lets_anyone_hold_the_upcard_in_hucklebuck() -> None:
    """Hucklebuck: the upcard tops the draw pile, so whoever draws first may take it;
    only the short hand is wrong."""
    rnd = worked(hands=BOB_HOLDS_THE_UPCARD)
    assert refusals(rnd, "hucklebuck") == [("hand_size", "Cy")]
    assert refusals(rnd, "huckley-buck") == [("upcard_in_hand", "Bob"), ("hand_size", "Cy")]


def test_the_re_read_lets_the_dealer_hold_the_upcard_once() -> None:
    """Ann deals and keeps the upcard 2S (IHBA, THE DRAW); Bob holding it as well, or Ann
    holding it twice, is a card in two places."""
    ann_keeps_it = ["AH", "KD", "2S", "4C", "9C"]
    both = worked(hands={**HANDS, "Ann": ann_keeps_it, "Bob": ["KH", "QH", "5D", "6C", "2S"]})
    output = engine.check(game(both, players=THREE))
    assert [(e["code"], e.get("player")) for e in output["errors"]] == [("duplicate_card", "Bob")]
    assert output["errors"][0]["message"] == (
        "2S is in Bob's hand and in Ann's; a pack has one of each card."
    )
    twice = worked(hands={**HANDS, "Ann": ["AH", "KD", "2S", "2S", "9C"]})
    output = engine.check(game(twice, players=THREE))
    assert [e["message"] for e in output["errors"]] == [
        "2S is in Ann's hand twice; a pack has one of each card."
    ]
    # The short hand elsewhere sends Ann's kept upcard through the re-read too: no refusal
    # for it there either.
    short = worked(hands={**BOB_HOLDS_THE_UPCARD, "Ann": ann_keeps_it, "Bob": HANDS["Bob"]})
    assert refusals(short) == [("hand_size", "Cy")]


def test_a_non_card_in_a_trick_of_the_right_size_is_named_with_its_trick() -> None:
    rnd = worked(tricks=[*TRICKS[:2], ["TC", "9C", "ZZ"], *TRICKS[3:]])
    output = engine.check(game(rnd, players=THREE))
    assert [(e["code"], e["field"]) for e in output["errors"]] == [("bad_card", "play")]
    assert output["errors"][0]["message"].startswith("ZZ in trick 3 is not a card")


def test_the_re_read_says_everything_that_is_wrong_not_only_the_first() -> None:
    """One problem of each kind, in the order the hands and then the tricks are read."""
    rnd = worked(
        hands={
            "Zed": ["2C"],
            "Ann": "AH",
            "Bob": ["KH", "QH", "5D", "6C", "XX"],
            "Cy": ["2H", "AD", "4S", "8C", "KH"],
        },
        tricks=["KH", ["KD", "5D"], ["TC", "9C", "ZZ"], *TRICKS[3:]],
    )
    output = engine.check(game(rnd, players=THREE))
    assert [(e["code"], e.get("player")) for e in output["errors"]] == [
        ("unknown_player", None),
        ("bad_field", "Ann"),
        ("bad_card", "Bob"),
        ("duplicate_card", "Cy"),
        ("bad_field", None),
        ("wrong_trick_size", None),
        ("bad_card", None),
    ]
    messages = [e["message"] for e in output["errors"]]
    assert messages[4] == "Trick 1 must be a list of cards."
    assert messages[5] == "Trick 2 has 2 cards; with 3 players in play each trick has 3."
    assert messages[6].startswith("ZZ in trick 3 is not a card")


def test_the_dealer_holding_another_players_card_is_a_duplicate_even_when_all_else_is_sound() -> (
    None
):
    """Bob deals, so his hand is read after Ann's: AH in both is a card in two hands, not
    the upcard the dealer may keep."""
    bob_has_ace = {**HANDS, "Bob": ["AH", "QH", "5D", "6C", "7S"]}
    output = engine.check(game(worked(hands=bob_has_ace), players=THREE, first_dealer="Bob"))
    assert [(e["code"], e.get("player")) for e in output["errors"]] == [("duplicate_card", "Bob")]


def test_a_non_card_in_the_last_trick_is_named_too() -> None:
    rnd = worked(tricks=[*TRICKS[:4], ["QH", "4S", "ZZ"]])
    output = engine.check(game(rnd, players=THREE))
    assert [(e["code"], e["field"]) for e in output["errors"]] == [("bad_card", "play")]


def test_hands_all_a_card_short_and_tricks_all_a_card_short_are_each_refused() -> None:
    short_hands = worked(hands={name: cards[:4] for name, cards in HANDS.items()})
    assert refusals(short_hands) == [
        ("hand_size", "Ann"),
        ("hand_size", "Bob"),
        ("hand_size", "Cy"),
    ]
    short_tricks = worked(tricks=[trick[:2] for trick in TRICKS])
    assert refusals(short_tricks) == [("wrong_trick_size", None)] * 5


def test_the_re_read_goes_on_past_a_dropped_players_hand_and_past_a_non_card() -> None:
    """Bob dropped (at five, one may): his hand is refused, and the hands read after it
    are still read. In Cy's hand a non-card comes before a card Ann also holds: both are
    refused."""
    hands = {
        "Ann": ["AH", "KD", "3S", "4C", "9C"],
        "Bob": ["KH", "QH", "5D", "6C", "7S"],
        "Cy": ["XX", "AH", "4S", "8C", "TC"],
        "Dee": ["2C", "3C", "5C", "7C"],
        "Eve": ["2D", "3D", "4D", "6D", "7D"],
    }
    rnd = {"out": ["Bob"], "upcard": "2S", "play": {"hands": hands, "tricks": TRICKS}}
    output = engine.check(game(rnd))
    assert [(e["code"], e.get("player")) for e in output["errors"]][:4] == [
        ("wrong_hands", "Bob"),
        ("bad_card", "Cy"),
        ("duplicate_card", "Cy"),
        ("hand_size", "Dee"),
    ]


@pytest.mark.parametrize(
    ("k", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (14, "14th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (111, "111th"),
    ],
)
def test_the_nth_card_of_a_trick_is_counted_in_words(k: int, text: str) -> None:
    """Bluke seats up to 15, so a trick can have an 11th to 15th card."""
    assert play_ordinal(k) == text
