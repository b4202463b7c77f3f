"""Buck Euchre card-level play: the pack, the bowers, following suit, trick winners, and
every refusal of the `play` field.

The deals are made up and played out by hand from the Buck Euchre rules text (Card
ranking, Play of the hand); the expected tricks are counted by hand, not taken from the
engine. Players sit Ann, Bob, Cy, Dee clockwise and Ann deals, so Bob leads first.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine.cards import PARSE
from engine.games.buck_euchre.cards import PACK_CARDS
from engine.games.buck_euchre.play import legal, trick_winner
from tests.engine.records import FOUR, codes, game

HEARTS, DIAMONDS, SPADES, CLUBS, NO_TRUMP = 1, 2, 0, 3, 4


def be(*rounds: Any, **kw: Any) -> dict[str, Any]:
    return game(*rounds, players=FOUR, rules="buck-euchre", **kw)


def mask(*cards: str) -> int:
    return sum(1 << PARSE[c] for c in cards)


def cards(m: int) -> set[str]:
    return {engine.cards.CARD_NAMES[c] for c in range(52) if m >> c & 1}


# Deal A. Ann deals and turns up 9H; Cy orders it up, so hearts are trump, Cy is the
# declarer and Ann takes the 9H (discarding 9C). Nobody drops.
#   Ann: 9H AS KS QC TC      Bob: JD AD KD 9S TS (JD is the left bower)
#   Cy:  JH AH KH QH AC      Dee: TH QD TD 9D JS (JS is a plain spade)
# Bob leads (left of the dealer). Each trick below is listed from its leader.
#   1. Bob AD, Cy JH (no diamonds: trumps), Dee 9D, Ann TC      -> Cy (right bower)
#   2. Cy AH, Dee TH, Ann 9H, Bob JD (the left bower follows trump) -> Bob (JD over AH)
#   3. Bob KD, Cy AC (no diamonds), Dee QD, Ann QC              -> Bob (KD)
#   4. Bob 9S, Cy KH (trumps), Dee JS, Ann AS                   -> Cy
#   5. Cy QH, Dee TD, Ann KS, Bob TS                            -> Cy
# Cy 3 (made: -3), Bob 2 (-2), Dee and Ann none (+5 each).
DEAL_A: dict[str, Any] = {
    "upcard": "9H",
    "trump": "H",
    "declarer": "Cy",
    "play": {
        "hands": {
            "Ann": ["9H", "AS", "KS", "QC", "TC"],
            "Bob": ["JD", "AD", "KD", "9S", "TS"],
            "Cy": ["JH", "AH", "KH", "QH", "AC"],
            "Dee": ["TH", "QD", "TD", "9D", "JS"],
        },
        "tricks": [
            ["AD", "JH", "9D", "TC"],
            ["AH", "TH", "9H", "JD"],
            ["KD", "AC", "QD", "QC"],
            ["9S", "KH", "JS", "AS"],
            ["QH", "TD", "KS", "TS"],
        ],
    },
}


def deal_a(**changes: Any) -> dict[str, Any]:
    rnd = copy.deepcopy(DEAL_A)
    rnd.update(changes)
    return rnd


def test_a_played_hand_gives_its_tricks_and_scores() -> None:
    output = engine.check(be(deal_a()))
    assert output["valid"], output["errors"]
    (rnd,) = output["rounds"]
    assert rnd["points"] == {"Ann": 5, "Bob": -2, "Cy": -3, "Dee": 5}
    assert rnd["hooks"] == ["Ann", "Dee"]


def test_matching_summary_fields_are_accepted() -> None:
    rnd = deal_a(
        tricks={"Bob": 2, "Cy": 3},
        trick_winners=["Cy", "Bob", "Bob", "Cy", "Cy"],
    )
    assert engine.check(be(rnd))["valid"]


@pytest.mark.parametrize(
    ("trump", "trick", "winner"),
    [
        # 'The highest trump is the right bower, the jack of trump.'
        (HEARTS, ["AH", "JH", "KH", "QH"], 1),
        # 'The next highest trump is the left bower, the jack of the same color as trump.'
        (HEARTS, ["AH", "JD", "KH", "QH"], 1),
        (DIAMONDS, ["AD", "KD", "JH", "QD"], 2),
        (SPADES, ["AS", "JC", "KS", "9S"], 1),
        (CLUBS, ["AC", "KC", "JS", "9C"], 2),
        (CLUBS, ["JS", "JC", "AC", "9C"], 1),
        # 'This is followed by the ace, king, queen, 10, and 9 of trump.'
        (HEARTS, ["9H", "TH", "QH", "KH"], 3),
        # 'the highest card of the suit led if no trumps were played'
        (HEARTS, ["KS", "AS", "QS", "AD"], 1),
        # Any trump beats the suit led, even the 9 of trump against an ace.
        (HEARTS, ["AS", "9H", "KS", "QS"], 1),
        # The left bower played to its printed suit is a trump, and wins.
        (HEARTS, ["AD", "KD", "JD", "QD"], 2),
        # In a plain suit the jack ranks between the queen and the 10: 'A, K, Q, J, 10, 9'.
        (HEARTS, ["TS", "JS", "9S", "AC"], 1),
        (HEARTS, ["JS", "QS", "TS", "9S"], 1),
        # No trump: the jacks are plain cards; an off-suit card never wins.
        (NO_TRUMP, ["QH", "JH", "AD", "AS"], 0),
        (NO_TRUMP, ["JC", "TC", "AS", "JS"], 0),
    ],
)
def test_the_euchre_card_ranking(trump: int, trick: list[str], winner: int) -> None:
    assert trick_winner([PARSE[c] for c in trick], trump) == winner


@pytest.mark.parametrize(
    ("trump", "hand", "led", "allowed"),
    [
        # 'Players must follow suit, if able; otherwise, they may play any card.'
        (HEARTS, ["AS", "9S", "KD", "QH", "TC"], "KS", {"AS", "9S"}),
        (HEARTS, ["KD", "QH", "TC", "9C", "AC"], "KS", {"KD", "QH", "TC", "9C", "AC"}),
        # No duty to trump or to beat the trick: a void player may throw anything.
        (SPADES, ["9H", "TH", "QS", "JC", "AD"], "AC", {"9H", "TH", "QS", "JC", "AD"}),
        # 'the left bower is considered part of the trump suit': it follows a trump lead...
        (HEARTS, ["JD", "AS", "9S", "KC", "TC"], "9H", {"JD"}),
        # ...and the left bower led is a trump lead.
        (HEARTS, ["KH", "AD", "9S", "KC", "TC"], "JD", {"KH"}),
        # 'Playing it to a trick led by a card of its natural suit is not considered
        # following suit.'
        (HEARTS, ["JD", "9D", "AS", "KC", "TC"], "AD", {"9D"}),
        # Holding only the left bower of the led printed suit, the player is void in it.
        (HEARTS, ["JD", "AS", "9S", "KC", "TC"], "AD", {"JD", "AS", "9S", "KC", "TC"}),
        # With no trump the jacks follow their own suit.
        (NO_TRUMP, ["JD", "AS", "9S", "KC", "TC"], "AD", {"JD"}),
        # The lead: anything.
        (HEARTS, ["JD", "AS", "9S", "KC", "TC"], None, {"JD", "AS", "9S", "KC", "TC"}),
    ],
)
def test_following_suit_with_the_left_bower(
    trump: int, hand: list[str], led: str | None, allowed: set[str]
) -> None:
    led_card = -1 if led is None else PARSE[led]
    assert cards(legal(mask(*hand), led_card, trump)) == allowed


# Deal B. Ann deals, turns up 9H and everyone passes it; Dee names spades in round two,
# so JC is the left bower. Bob leads AC; Cy holds JC, KC and 9C and plays JC: a renege,
# since the left bower (a spade) does not follow clubs.
DEAL_B: dict[str, Any] = {
    "upcard": "9H",
    "trump": "S",
    "declarer": "Dee",
    "play": {
        "hands": {
            "Bob": ["AC", "KD", "9S", "TS", "QS"],
            "Cy": ["JC", "KC", "9C", "QD", "AD"],
            "Dee": ["JS", "AS", "KS", "AH", "KH"],
            "Ann": ["TD", "9D", "TH", "QH", "JH"],
        },
        "tricks": [
            ["AC", "JC", "AS", "TD"],
            ["JS", "TH", "9S", "KC"],
            ["AS", "9D", "TS", "9C"],
            ["KS", "QH", "QS", "QD"],
            ["AH", "JH", "KD", "AD"],
        ],
    },
}


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    output = engine.check(be(copy.deepcopy(DEAL_B)))
    assert codes(output) == [(1, "renege", "play")]
    error = output["errors"][0]
    assert error["player"] == "Cy"
    message = error["message"]
    assert "Trick 1: Cy played JC (left bower, a spade), a renege" in message
    assert "clubs held: KC, 9C" in message
    assert "does not follow clubs" in message
    assert "no renege penalty" in message


def test_a_renege_names_the_left_bower_the_player_had_to_play() -> None:
    """Trick 2 of deal A: Bob throws TS to the heart lead while holding JD, a trump."""
    rnd = deal_a()
    rnd["play"]["tricks"][1] = ["AH", "TH", "9H", "TS"]
    rnd["play"]["tricks"][4] = ["QH", "TD", "KS", "JD"]
    output = engine.check(be(rnd))
    assert codes(output) == [(1, "renege", "play")]
    assert output["errors"][0]["player"] == "Bob"
    assert (
        "follow suit to the trump lead (trumps held: JD (left bower, a heart))"
        in (output["errors"][0]["message"])
    )


def test_a_hand_without_trump_is_played_with_plain_jacks() -> None:
    """Everyone passed both rounds: no trump, JD follows diamonds and the led suit wins.

    Ann deals; Bob leads. Hands and play, each trick from its leader:
      Ann: AS KS QS JS TS   Bob: AD KD QD JD TD   Cy: AH KH QH JH TH   Dee: AC KC QC JC TC
      1. Bob AD, Cy TH, Dee TC, Ann TS -> Bob   2. Bob KD, Cy JH, Dee JC, Ann JS -> Bob
      3. Bob QD, Cy QH, Dee QC, Ann QS -> Bob   4. Bob JD, Cy KH, Dee KC, Ann KS -> Bob
      5. Bob TD, Cy AH, Dee AC, Ann AS -> Bob
    Bob takes all five (and wins the game); nobody else takes a trick.
    """
    rnd = {
        "upcard": "9D",
        "trump": None,
        "play": {
            "hands": {
                "Ann": ["AS", "KS", "QS", "JS", "TS"],
                "Bob": ["AD", "KD", "QD", "JD", "TD"],
                "Cy": ["AH", "KH", "QH", "JH", "TH"],
                "Dee": ["AC", "KC", "QC", "JC", "TC"],
            },
            "tricks": [
                ["AD", "TH", "TC", "TS"],
                ["KD", "JH", "JC", "JS"],
                ["QD", "QH", "QC", "QS"],
                ["JD", "KH", "KC", "KS"],
                ["TD", "AH", "AC", "AS"],
            ],
        },
    }
    output = engine.check(be(rnd))
    assert output["valid"], output["errors"]
    assert output["winner"] == "Bob"
    assert output["rounds"][0]["points"] == {"Ann": 5, "Bob": -5, "Cy": 5, "Dee": 5}


# Deal C: dropping. Ann deals and turns up AS; Dee orders it up, Ann takes AS (discarding
# 9C) and then drops; Bob drops too. Cy is left of Ann and leads.
#   Cy: JS 9S KD QD 9H     Dee: JC KS QS TS AD
#   1. Cy KD, Dee AD -> Dee       2. Dee JC, Cy 9S -> Dee (left bower)
#   3. Dee KS, Cy JS -> Cy (right bower)   4. Cy QD, Dee QS -> Dee (trump)
#   5. Dee TS, Cy 9H -> Dee
# Dee 4 (-4), Cy 1 (-1), Ann and Bob nothing.
DEAL_C: dict[str, Any] = {
    "upcard": "AS",
    "trump": "S",
    "declarer": "Dee",
    "out": ["Ann", "Bob"],
    "play": {
        "hands": {
            "Cy": ["JS", "9S", "KD", "QD", "9H"],
            "Dee": ["JC", "KS", "QS", "TS", "AD"],
        },
        "tricks": [["KD", "AD"], ["JC", "9S"], ["KS", "JS"], ["QD", "QS"], ["TS", "9H"]],
    },
}


def test_the_next_player_in_the_hand_leads_when_the_dealers_left_dropped() -> None:
    """Ruling: 'If the player to the dealer's left dropped, the next active player to the
    left leads.' Bob (left of Ann) dropped, so Cy leads; the dealer took the upcard and
    then dropped, so no hand in play holds AS."""
    output = engine.check(be(copy.deepcopy(DEAL_C)))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": 0, "Bob": 0, "Cy": -1, "Dee": -4}


def test_dirty_clubs_upcard_stays_on_the_stub_by_default() -> None:
    """Decision: in dirty clubs nobody orders up, so nobody takes the upcard (the text has
    the dealer take it only when ordered up), unless option club_upcard_to_dealer."""
    rnd = {
        "upcard": "9C",
        "play": {
            "hands": {
                "Ann": ["9C", "AS", "KS", "QC", "TC"],
                "Bob": ["JD", "AD", "KD", "9S", "TS"],
                "Cy": ["JH", "AH", "KH", "QH", "AC"],
                "Dee": ["TH", "QD", "TD", "9D", "JS"],
            },
            "tricks": DEAL_A["play"]["tricks"],
        },
    }
    output = engine.check(be(rnd))
    assert codes(output) == [(1, "upcard_in_hand", "play")]
    assert "this game does not give it to the dealer" in output["errors"][0]["message"]


def test_dirty_clubs_with_the_dealer_taking_the_upcard() -> None:
    """Option club_upcard_to_dealer: Ann (dealer) holds 9C. Clubs are trump, JS the left
    bower; no declarer, nobody drops. Bob leads.
      Ann: 9C AS KS QC TC   Bob: JD AD KD 9S TS   Cy: JH AH KH QH AC   Dee: TH QD TD 9D JS
      1. Bob AD, Cy JH, Dee 9D, Ann 9C -> Ann (trump)
      2. Ann AS, Bob 9S, Cy AC (void: any), Dee JS (left bower, a trump) -> Dee
      3. Dee TH, Ann KS, Bob JD, Cy AH -> Cy
      4. Cy KH, Dee TD, Ann QC (trump), Bob KD -> Ann
      5. Ann TC, Bob TS, Cy QH, Dee QD -> Ann (TC the only trump)
    Ann 3, Dee 1, Cy 1, Bob 0 (+5: everyone must take a trick)."""
    rnd = {
        "upcard": "9C",
        "trump": "C",
        "declarer": None,
        "play": {
            "hands": {
                "Ann": ["9C", "AS", "KS", "QC", "TC"],
                "Bob": ["JD", "AD", "KD", "9S", "TS"],
                "Cy": ["JH", "AH", "KH", "QH", "AC"],
                "Dee": ["TH", "QD", "TD", "9D", "JS"],
            },
            "tricks": [
                ["AD", "JH", "9D", "9C"],
                ["AS", "9S", "AC", "JS"],
                ["TH", "KS", "JD", "AH"],
                ["KH", "TD", "QC", "KD"],
                ["TC", "TS", "QH", "QD"],
            ],
        },
    }
    output = engine.check(be(rnd, options={"club_upcard_to_dealer": True}))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": -3, "Bob": 5, "Cy": -1, "Dee": -1}
    assert output["rounds"][0]["hooks"] == ["Bob"]


def _with(rnd: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    rnd = copy.deepcopy(rnd)
    target = rnd
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return rnd


_DELETE = object()
HANDS = ("play", "hands")
TRICKS = ("play", "tricks")

# (id, round, code, field, player, words the message must contain)
PLAY_REFUSALS: list[tuple[str, dict[str, Any], str, str, str | None, list[str]]] = [
    ("play not an object", _with(DEAL_A, ("play",), ["AD"]), "bad_field", "play", None,
     ['"hands"']),
    ("no upcard with play", _with(DEAL_A, ("upcard",), _DELETE), "missing_upcard", "upcard",
     None, ["upcard"]),
    ("a hand for someone not at the table", _with(DEAL_A, (*HANDS, "Zed"), ["9C"]),
     "unknown_player", "play", None, ["Zed"]),
    ("a hand for a dropped player", _with(DEAL_C, (*HANDS, "Bob"), ["9C", "JD", "TH", "KH",
     "AH"]), "wrong_hands", "play", "Bob", ["Bob", "dropped"]),
    ("no hand for a player in", _with(DEAL_A, (*HANDS, "Dee"), _DELETE), "wrong_hands",
     "play", "Dee", ["no hand for Dee"]),
    ("a hand not a list", _with(DEAL_A, (*HANDS, "Dee"), "TH QD"), "bad_field", "play", "Dee",
     ["list of cards"]),
    ("a hand of 4", _with(DEAL_A, (*HANDS, "Dee"), ["TH", "QD", "TD", "9D"]), "hand_size",
     "play", "Dee", ["4 cards"]),
    ("not a card", _with(DEAL_A, (*HANDS, "Dee"), ["TH", "QD", "TD", "9D", "XX"]), "bad_card",
     "play", "Dee", ["XX"]),
    ("an 8 in a hand", _with(DEAL_A, (*HANDS, "Dee"), ["TH", "QD", "TD", "9D", "8S"]),
     "not_in_pack", "play", "Dee", ["8S", "24 cards"]),
    ("a card twice", _with(DEAL_A, (*HANDS, "Dee"), ["TH", "QD", "TD", "9D", "AS"]),
     "duplicate_card", "play", "Dee", ["AS", "Ann"]),
    ("the upcard in a hand after round two", _with(DEAL_B, (*HANDS, "Ann"),
     ["TD", "9D", "TH", "QH", "9H"]), "upcard_in_hand", "play", "Ann",
     ["9H", "turned down"]),
    ("the dealer without the ordered upcard", _with(DEAL_A, (*HANDS, "Ann"),
     ["9C", "AS", "KS", "QC", "TC"]), "upcard_not_taken", "play", "Ann",
     ["9H", "when Cy ordered it up"]),
    ("tricks not a list", _with(DEAL_A, TRICKS, "AD"), "bad_field", "play", None, ['"tricks"']),
    ("four tricks", _with(DEAL_A, TRICKS, DEAL_A["play"]["tricks"][:4]), "wrong_trick_count",
     "play", None, ["4 tricks"]),
    ("a trick not a list", _with(DEAL_A, (*TRICKS, 2), "KD"), "bad_field", "play", None,
     ["Trick 3"]),
    ("a trick of 3", _with(DEAL_A, (*TRICKS, 2), ["KD", "AC", "QD"]), "wrong_trick_size",
     "play", None, ["Trick 3 has 3 cards"]),
    ("an 8 in a trick", _with(DEAL_A, (*TRICKS, 2, 1), "8C"), "not_in_pack", "play", None,
     ["8C", "trick 3"]),
    ("a card out of turn", _with(DEAL_A, (*TRICKS, 0), ["JH", "AD", "9D", "TC"]),
     "card_not_in_hand", "play", "Bob", ["Trick 1", "JH", "from its leader, Bob"]),
    ("not following suit", _with(DEAL_A, (*TRICKS, 3), ["9S", "KH", "TD", "AS"]), "renege",
     "play", "Dee", ["Trick 4", "Dee played TD", "spades held: JS"]),
    ("tricks disagree", _with(DEAL_A, ("tricks",), {"Cy": 4, "Bob": 1}), "play_mismatch",
     "tricks", None, ["Bob 1, Cy 4", "Bob 2, Cy 3"]),
    ("trick_winners disagree", _with(DEAL_A, ("trick_winners",),
     ["Cy", "Cy", "Bob", "Bob", "Cy"]), "play_mismatch", "trick_winners", None,
     ["Cy won trick 2", "Bob won it"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rnd", "code", "field", "player", "words"),
    [c[1:] for c in PLAY_REFUSALS],
    ids=[c[0] for c in PLAY_REFUSALS],
)
def test_every_play_refusal(
    rnd: dict[str, Any], code: str, field: str, player: str | None, words: list[str]
) -> None:
    output = engine.check(be(rnd))
    assert not output["valid"]
    found = [e for e in output["errors"] if e["code"] == code]
    assert found, output["errors"]
    error = found[0]
    assert error["round"] == 1
    assert error["field"] == field
    assert error.get("player") == player
    for word in words:
        assert word in error["message"]
    assert output["rounds"] == []
    assert output["next_dealer"] == "Ann"


def test_the_pack_is_24_cards_nine_to_ace() -> None:
    """Ruling: 'the deck is 24 cards, 9 to ace in four suits'."""
    names = sorted(engine.cards.CARD_NAMES[c] for c in PACK_CARDS)
    assert len(names) == 24
    assert {n[0] for n in names} == set("9TJQKA")
    assert {n[1] for n in names} == set("SHDC")
