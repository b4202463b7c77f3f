"""Card-level play: the legal cards, trick winners, and replaying a round's `play`.

Every legal set and every replay below is worked out by hand from THE PLAY and RENEGE
in the IHBA rules text and THE PLAY in the Hucklebuck rules text.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine.cards import CARD_NAMES, SUIT_OF, parse_card
from engine.games._common.play import ordinal as play_ordinal
from engine.games.huckley.play import beats, legal_follow, legal_kill
from tests.engine.records import THREE, game


def mask(*cards: str) -> int:
    result = 0
    for text in cards:
        card = parse_card(text)
        assert card is not None, text
        result |= 1 << card
    return result


def legal(kill: bool, hand: list[str], trick: list[str], trump: str) -> set[str]:
    """The legal cards for `hand` after `trick` (cards played so far, leader first)."""
    trump_suit = "SHDC".index(trump)
    led = -1
    best = -1
    for text in trick:
        card = parse_card(text)
        assert card is not None
        if led < 0:
            led, best = SUIT_OF[card], card
        elif beats(card, best, trump_suit):
            best = card
    rule = legal_kill if kill else legal_follow
    result = rule(mask(*hand), led, best, trump_suit)
    return {CARD_NAMES[c] for c in range(52) if result >> c & 1}


HAND_S = ["QS", "3S", "2H", "4D", "5C"]
# (id quoting the rule, hand, trick so far, trump, legal in huckley-buck, in hucklebuck)
LEGAL_CASES: list[tuple[str, list[str], list[str], str, set[str], set[str]]] = [
    ("'A player may lead any card'", HAND_S, [], "H", set(HAND_S), set(HAND_S)),
    (
        "'must follow suit ... if able' and 'must kill the trick, if able'",
        HAND_S,
        ["9S"],
        "H",
        {"QS"},
        {"QS", "3S"},
    ),
    (
        "following when the trick cannot be killed: any card of the suit",
        HAND_S,
        ["KS"],
        "H",
        {"QS", "3S"},
        {"QS", "3S"},
    ),
    (
        "'must kill' means beating the card winning so far, not the card led",
        ["QS", "JS", "2H", "4D", "5C"],
        ["9S", "KS"],
        "H",
        {"QS", "JS"},
        {"QS", "JS"},
    ),
    (
        "'He need not kill a nontrump lead with a card in the same nontrump suit if the trick "
        "has been trumped'",
        ["QS", "3S", "AH", "4D", "5C"],
        ["9S", "2H"],
        "H",
        {"QS", "3S"},
        {"QS", "3S"},
    ),
    (
        "'If unable to follow to a nontrump lead, he must trump, if able'",
        ["2H", "AH", "4D", "5C", "6C"],
        ["9S"],
        "H",
        {"2H", "AH"},
        {"2H", "AH", "4D", "5C", "6C"},
    ),
    (
        "trumping a trumped trick: 'must kill the trick, if able' - over-trump",
        ["2H", "AH", "4D", "5C", "6C"],
        ["9S", "5H"],
        "H",
        {"AH"},
        {"2H", "AH", "4D", "5C", "6C"},
    ),
    (
        "unable to over-trump, the player must still trump",
        ["2H", "3H", "4D", "5C", "6C"],
        ["9S", "AH"],
        "H",
        {"2H", "3H"},
        {"2H", "3H", "4D", "5C", "6C"},
    ),
    (
        "RENEGE: 'play over on a trump lead'",
        ["TH", "2H", "4D", "5C", "6C"],
        ["9H"],
        "H",
        {"TH"},
        {"TH", "2H"},
    ),
    (
        "on a trump lead that cannot be beaten, any trump",
        ["TH", "2H", "4D", "5C", "6C"],
        ["AH"],
        "H",
        {"TH", "2H"},
        {"TH", "2H"},
    ),
    (
        "void in trump on a trump lead: any card",
        ["4D", "5C", "6C"],
        ["9H"],
        "H",
        {"4D", "5C", "6C"},
        {"4D", "5C", "6C"},
    ),
    (
        "void in the led suit and in trump: any card",
        ["4D", "5C"],
        ["9S", "JH"],
        "H",
        {"4D", "5C"},
        {"4D", "5C"},
    ),
    ("the last card is always legal", ["5C"], ["9S"], "H", {"5C"}, {"5C"}),
]


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "huckley", "hucklebuck"),
    [case[1:] for case in LEGAL_CASES],
    ids=[case[0] for case in LEGAL_CASES],
)
def test_legal_cards(
    hand: list[str], trick: list[str], trump: str, huckley: set[str], hucklebuck: set[str]
) -> None:
    """Hucklebuck THE PLAY: 'all players must follow suit if they can, and they may play
    any card they choose if they can't follow suit.'"""
    assert legal(True, hand, trick, trump) == huckley
    assert legal(False, hand, trick, trump) == hucklebuck


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        (["9S", "QS", "2D", "AS"], "H", "AS"),
        (["9S", "QS", "2H", "AS"], "H", "2H"),
        (["9S", "QS", "2H", "3H"], "H", "3H"),
        (["9S", "AD", "KC"], "H", "9S"),
        (["2H", "AS", "AD"], "H", "2H"),
    ],
)
def test_the_highest_trump_or_else_the_highest_card_of_the_led_suit_wins(
    trick: list[str], trump: str, winner: str
) -> None:
    """Hucklebuck THE PLAY: 'The highest ranking card in the suit led or the highest
    ranking trump suited card captures the trick.'"""
    trump_suit = "SHDC".index(trump)
    best = parse_card(trick[0])
    assert best is not None
    for text in trick[1:]:
        card = parse_card(text)
        assert card is not None
        if beats(card, best, trump_suit):
            best = card
    assert CARD_NAMES[best] == winner


@pytest.mark.parametrize(
    ("text", "name"), [("AS", "AS"), ("10D", "TD"), ("td", "TD"), ("2c", "2C")]
)
def test_cards_read_rank_then_suit_and_ten_as_10(text: str, name: str) -> None:
    card = parse_card(text)
    assert card is not None
    assert CARD_NAMES[card] == name


@pytest.mark.parametrize("text", ["1S", "AX", "", "A", "11H", "JOKER", 7, None])
def test_anything_else_is_not_a_card(text: Any) -> None:
    assert parse_card(text) is None


# A worked round: three players, Ann deals, spades are trump (upcard 2S), so Bob leads.
#   Trick 1: Bob KH; Cy must follow (2H); Ann must follow and kill: AH.      Ann wins.
#   Trick 2: Ann KD; Bob follows 5D; Cy must kill with AD.                   Cy wins.
#   Trick 3: Cy TC; Ann 9C (4C or 9C, neither kills); Bob 6C.               Cy wins.
#   Trick 4: Cy 8C; Ann follows 4C; Bob has no club and must trump: 7S.      Bob wins.
#   Trick 5: Bob QH; Cy has no heart, must trump: 4S; Ann, no heart, cannot
#            over-trump and must still trump: 3S.                            Cy wins.
# Tricks: Ann 1, Bob 1, Cy 3; winners Ann, Cy, Cy, Bob, Cy.
HANDS = {
    "Ann": ["AH", "KD", "3S", "4C", "9C"],
    "Bob": ["KH", "QH", "5D", "6C", "7S"],
    "Cy": ["2H", "AD", "4S", "8C", "TC"],
}
TRICKS = [
    ["KH", "2H", "AH"],
    ["KD", "5D", "AD"],
    ["TC", "9C", "6C"],
    ["8C", "4C", "7S"],
    ["QH", "4S", "3S"],
]
WORKED: dict[str, Any] = {"upcard": "2S", "play": {"hands": HANDS, "tricks": TRICKS}}


def worked(**changes: Any) -> dict[str, Any]:
    rnd = copy.deepcopy(WORKED)
    for key, value in changes.items():
        if key in ("hands", "tricks"):
            rnd["play"][key] = value
        else:
            rnd[key] = value
    return rnd


@pytest.mark.parametrize("rules", ["huckley-buck", "hucklebuck"])
def test_a_played_round_gives_its_tricks_from_the_cards(rules: str) -> None:
    output = engine.check(game(worked(), players=THREE, rules=rules))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": 1, "Bob": 1, "Cy": 3}


def test_the_summary_fields_may_come_with_the_play_and_must_agree() -> None:
    rnd = {**worked(), "tricks": {"Ann": 1, "Bob": 1, "Cy": 3}}
    rnd["trick_winners"] = ["Ann", "Cy", "Cy", "Bob", "Cy"]
    assert engine.check(game(rnd, players=THREE))["valid"]


def test_the_dealer_may_keep_the_upcard() -> None:
    """IHBA THE DRAW: 'When the dealer draws, he has the option of keeping the top card
    that indicated the trump suit.' Ann (dealer) holds 2S in place of 3S; same tricks."""
    hands = {**HANDS, "Ann": ["AH", "KD", "2S", "4C", "9C"]}
    tricks = [*TRICKS[:4], ["QH", "4S", "2S"]]
    output = engine.check(game(worked(hands=hands, tricks=tricks), players=THREE))
    assert output["valid"], output["errors"]


def test_hucklebuck_lets_whoever_drew_it_hold_the_upcard() -> None:
    """Hucklebuck: the upcard is turned on the draw pile ('turn the top card over'), so
    the first player to draw takes it; docs/rules.md."""
    hands = {**HANDS, "Cy": ["2H", "AD", "2S", "8C", "TC"]}
    tricks = [*TRICKS[:4], ["QH", "2S", "3S"]]
    rnd = worked(hands=hands, tricks=tricks)
    assert engine.check(game(rnd, players=THREE, rules="hucklebuck"))["valid"]
    output = engine.check(game(rnd, players=THREE))
    assert [(e["code"], e.get("player")) for e in output["errors"]] == [("upcard_in_hand", "Cy")]


def test_hucklebuck_does_not_ask_a_player_to_kill() -> None:
    """Ann holds JC instead of 9C. In trick 3 the IHBA rules make her beat TC with JC;
    Hucklebuck lets her follow with 4C, and Cy keeps the trick."""
    hands = {**HANDS, "Ann": ["AH", "KD", "3S", "4C", "JC"]}
    tricks = [*TRICKS[:2], ["TC", "4C", "6C"], ["8C", "JC", "7S"], TRICKS[4]]
    rnd = worked(hands=hands, tricks=tricks)
    assert engine.check(game(rnd, players=THREE, rules="hucklebuck"))["valid"]
    output = engine.check(game(rnd, players=THREE))
    assert output["errors"][0]["code"] == "renege"
    assert "Trick 3: Ann played 4C" in output["errors"][0]["message"]
    assert "had to beat TC with JC" in output["errors"][0]["message"]


def test_drops_and_penalties_take_hands_out_of_play_and_the_lead_passes_them_by() -> None:
    """Five players, Ann deals; Bob drops and Cy's hand is out by a penalty, so Dee
    (the first in play to Ann's left) leads trick 1, and each trick has 3 cards
    (Dee, Eve, Ann). Trump clubs (upcard 2C).
      T1 Dee AS, Eve KS, Ann 3S: Dee.  T2 Dee AH, Eve KH, Ann 3H: Dee.
      T3 Dee AD, Eve KD, Ann 3D: Dee.  T4 Dee 2S, Eve QS, Ann 4S: Eve.
      T5 Eve QH, Ann 4H, Dee 2H: Eve.  Dee 3, Eve 2, Ann hooked."""
    rnd = {
        "out": ["Bob"],
        "penalties": [{"player": "Cy", "kind": "renege"}],
        "upcard": "2C",
        "play": {
            "hands": {
                "Dee": ["AS", "AH", "AD", "2S", "2H"],
                "Eve": ["KS", "KH", "KD", "QS", "QH"],
                "Ann": ["3S", "3H", "3D", "4S", "4H"],
            },
            "tricks": [
                ["AS", "KS", "3S"],
                ["AH", "KH", "3H"],
                ["AD", "KD", "3D"],
                ["2S", "QS", "4S"],
                ["QH", "4H", "2H"],
            ],
        },
    }
    output = engine.check(game(rnd))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": -3, "Bob": 0, "Cy": -3, "Dee": 3, "Eve": 2}
    assert output["rounds"][0]["hooks"] == ["Ann", "Cy"]


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
