"""Card-level play: the legal cards, trick winners, and replaying a round's `play`.

Every legal set and every replay below is worked out by hand from THE PLAY and RENEGE
in the IHBA rules text and THE PLAY in the Hucklebuck rules text. The plays refused, and
the careful re-read that names everything wrong in one, are in test_play_refusals.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.cards import CARD_NAMES, SUIT_OF, parse_card
from engine.games.huckley.play import beats, legal_follow, legal_kill
from tests.engine.records import THREE, game
from tests.engine.worked_round import HANDS, TRICKS, worked


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
