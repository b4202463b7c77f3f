"""Card-level play of `bluke` and `bluke-nj`: legal cards, trick winners, replay, reneges.

Cases quote "Hi Bluke, Lo Bluke and Trump", "Play", "Example" and the "New Jersey"
variant of the Bluke rules text, and the Bluke ruling of docs/rules-bluke.md.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.games.bluke.cards import BLUKE_SUIT, SUIT_OF, describe, parse_card
from engine.games.bluke.play import legal_cards, renege_reason, trick_winner
from tests.engine.records import THREE, codes, game

SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "-": BLUKE_SUIT}


def cards(text: str) -> list[int]:
    parsed = [parse_card(c) for c in text.split()]
    assert None not in parsed, text
    return [c for c in parsed if c is not None]


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


def legal(nj: bool, hand: str, trick: str, trump: str) -> set[str]:
    return set(describe(legal_cards(mask(hand), cards(trick), SUIT[trump], nj)).split(", "))


# (id quoting the rule, hand, trick so far, trump ("-" for none), legal in bluke, in bluke-nj)
LEGAL_CASES: list[tuple[str, str, str, str, str, set[str], set[str]]] = [
    (
        "any card may be led",
        "AH 3S BL",
        "",
        "S",
        "AH 3S BL",
        {"AH", "3S", "BL"},
        {"AH", "3S", "BL"},
    ),
    (
        "'Players must follow suit if they have it, unless they have a Bluke.'",
        "AH 3H 5S BL",
        "KH",
        "S",
        "",
        {"AH", "3H", "BL"},
        {"AH", "3H"},
    ),
    (
        "void in the suit led: any card",
        "5S 2C BL",
        "KH",
        "S",
        "",
        {"5S", "2C", "BL"},
        {"5S", "2C", "BL"},
    ),
    (
        "NJ: 'spades are trump and player 1 plays the Ace of hearts; Player 2 holds a Bluke, "
        "but also holds one heart, which they must play.'",
        "BH 7H 3S",
        "AH",
        "S",
        "",
        {"BH", "7H"},
        {"7H"},
    ),
    (
        "NJ: 'if Player 1 plays spades and player 2 has no spades other than a Bluke, that "
        "player must play the Bluke.'",
        "BL AH 2C",
        "4S",
        "S",
        "",
        {"BL", "AH", "2C"},
        {"BL"},
    ),
    (
        "Ruling (NJ): Blukes 'must follow a trump lead' along with the trumps",
        "BL 3S AH",
        "5S",
        "S",
        "",
        {"BL", "3S"},
        {"BL", "3S"},
    ),
    (
        "Ruling: 'when a Bluke is led, the first non-Bluke card played sets the suit to "
        "follow' (NJ: a Bluke lead is a trump lead)",
        "3S AH BH",
        "BL",
        "S",
        "",
        {"3S", "AH", "BH"},
        {"3S", "BH"},
    ),
    (
        "Ruling: after a Bluke lead, the first plain card sets the suit to follow",
        "AD 3S BL",
        "BH 5D",
        "S",
        "",
        {"AD", "BL"},
        {"3S", "BL"},
    ),
    (
        "after two Blukes no suit is set yet: any card",
        "AD 3S",
        "BH BL",
        "H",
        "",
        {"AD", "3S"},
        {"AD", "3S"},
    ),
    (
        "Decision (NJ, no trump): the Blukes are a trump suit of their own, so a Bluke "
        "lead asks for the other Bluke",
        "BH AH",
        "BL",
        "-",
        "",
        {"AH", "BH"},
        {"BH"},
    ),
    (
        "Decision (NJ, no trump): a plain lead is followed before a Bluke may be played",
        "BH AH",
        "KH",
        "-",
        "",
        {"AH", "BH"},
        {"AH"},
    ),
    (
        "Decision (NJ, no trump): void in the suit led, a Bluke may be played",
        "BH 2C",
        "KH",
        "-",
        "",
        {"2C", "BH"},
        {"2C", "BH"},
    ),
]


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "bluke", "nj"),
    [(c[1], c[2], c[3], c[5], c[6]) for c in LEGAL_CASES],
    ids=[c[0][:60] for c in LEGAL_CASES],
)
def test_legal_cards(hand: str, trick: str, trump: str, bluke: set[str], nj: set[str]) -> None:
    assert legal(False, hand, trick, trump) == bluke
    assert legal(True, hand, trick, trump) == nj


# (id quoting the rule, trick, trump, winner)
WINNER_CASES = [
    ("'The highest card takes the trick.'", "5H KH 9H", "S", "KH"),
    ("'any card of the trump suit outranks any card of a non-trump suit'", "AH 2S KH", "S", "2S"),
    ("a higher trump beats a lower one", "AH 2S 3S", "S", "3S"),
    ("a card of another plain suit never wins", "5H AD AC", "S", "5H"),
    (
        "Example: 'if Player 4 has the Hi Bluke, she may play it and overpower the Lo Bluke'",
        "KH AS BL BH",
        "S",
        "BH",
    ),
    (
        "Example: 'played trump (let us say the 2 of Spades), this would not win the trick "
        "... because Blukes are higher than trump'",
        "KH AS BL 2S",
        "S",
        "BL",
    ),
    ("'No card outranks Hi Bluke.' (led)", "BH AS BL", "S", "BH"),
    ("a Bluke led wins over the suit it set", "BL 2H AH", "H", "BL"),
    ("'If the card that comes up is a Bluke ... there is no trump'", "KH AS AH", "-", "AH"),
    ("no trump: the Lo Bluke still beats every plain card", "KH BL AH", "-", "BL"),
]


@pytest.mark.parametrize(
    ("trick", "trump", "winner"), [c[1:] for c in WINNER_CASES], ids=[c[0] for c in WINNER_CASES]
)
def test_trick_winner(trick: str, trump: str, winner: str) -> None:
    played = cards(trick)
    assert describe(1 << played[trick_winner(played, SUIT[trump])]) == winner


def test_the_blukes_have_their_own_pseudo_suit() -> None:
    assert SUIT_OF[parse_card("BH")] == SUIT_OF[parse_card("bl")] == BLUKE_SUIT  # type: ignore[index]
    assert parse_card("BX") is None
    assert parse_card(53) is None


# --- Replaying a hand ----------------------------------------------------------------------
#
# Three players with option max_cards 2: `bluke` deals 2, 1, 2 and `bluke-nj` 1, 2, 1.
# Ann deals the first hand, so Bob leads its first trick.

SMALL = {"max_cards": 2}


def small_game(rules: str, *rounds: dict[str, Any]) -> dict[str, Any]:
    return game(*rounds, players=THREE, rules=rules, options=SMALL)


def two_card_hand(**fields: Any) -> dict[str, Any]:
    rnd: dict[str, Any] = {
        "cards": 2,
        "upcard": "2S",
        "bids": {"Ann": 1, "Bob": 1, "Cy": 1},
        "play": {
            "hands": {"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]},
            # Bob leads KH; Cy may throw the Lo Bluke while holding a heart (bluke only);
            # Cy leads again and the others follow as they can.
            "tricks": [["KH", "BL", "AH"], ["5H", "3S", "4D"]],
        },
    }
    rnd.update(fields)
    return rnd


def test_a_played_hand_derives_its_tricks() -> None:
    output = engine.check(small_game("bluke", two_card_hand()))
    assert output["valid"], output["errors"]
    # Trick 1 to Cy's Lo Bluke, trick 2 to Ann's 3S, a trump.
    assert output["rounds"][0]["points"] == {"Ann": 10, "Bob": -10, "Cy": 10}


def test_the_summary_must_agree_with_the_cards() -> None:
    rnd = two_card_hand(tricks={"Ann": 1, "Cy": 1})
    assert engine.check(small_game("bluke", rnd))["valid"]
    rnd = two_card_hand(tricks={"Bob": 1, "Cy": 1})
    output = engine.check(small_game("bluke", rnd))
    assert codes(output) == [(1, "play_mismatch", "tricks")]
    assert output["errors"][0]["message"] == (
        "The tricks entered give Ann 0, Bob 1 but the cards played give Ann 1, Bob 0; correct the "
        "tricks or the cards."
    )


def test_in_new_jersey_a_bluke_may_not_be_thrown_while_able_to_follow() -> None:
    """NJ: 'Blukes are considered part of the trump suit and must be played as such.'
    bluke-nj deals 1 card on the first hand (Ann deals, Bob takes the trick) and 2 on the
    second, which Bob deals and Cy leads."""
    first = {"bids": {"Ann": 1, "Bob": 1, "Cy": 1}, "tricks": {"Bob": 1}}
    second: dict[str, Any] = {
        "cards": 2,
        "upcard": "2S",
        "bids": {"Ann": 1, "Bob": 1, "Cy": 1},
        "play": {
            "hands": {"Cy": ["KH", "4D"], "Ann": ["BL", "5H"], "Bob": ["AH", "3S"]},
            # Ann follows hearts; Bob leads a trump, Cy has none, Ann's Lo Bluke is one.
            "tricks": [["KH", "5H", "AH"], ["3S", "4D", "BL"]],
        },
    }
    output = engine.check(small_game("bluke-nj", first, second))
    assert output["valid"], output["errors"]
    assert output["rounds"][1]["points"] == {"Ann": 10, "Bob": 10, "Cy": -10}
    second["play"]["tricks"] = [["KH", "BL", "AH"], ["5H", "3S", "4D"]]
    output = engine.check(small_game("bluke-nj", first, second))
    assert codes(output) == [(2, "renege", "play")]
    assert output["errors"][0]["player"] == "Ann"
    assert output["errors"][0]["message"] == (
        "Trick 1: Ann played BL, a renege: Ann had to follow suit to the heart lead (hearts "
        "held: 5H); a Bluke belongs to the trump suit and may not be played while the player "
        "can follow a plain suit. Check the cards entered; if the hand was really played so, "
        "enter the round without play, with the bids and tricks the table agreed."
    )


def test_with_no_trump_a_new_jersey_bluke_lead_asks_for_the_other_bluke() -> None:
    reason = renege_reason(mask("BH AH"), cards("AH")[0], cards("BL"), BLUKE_SUIT, nj=True)
    assert reason == (
        "had to follow the Bluke lead with the other Bluke (BH): with no trump the Blukes "
        "are a trump suit of their own"
    )


def test_a_renege_names_what_the_player_had_to_play() -> None:
    rnd = two_card_hand()
    rnd["play"]["tricks"] = [["KH", "BL", "3S"], ["5H", "AH", "4D"]]
    output = engine.check(small_game("bluke", rnd))
    assert codes(output) == [(1, "renege", "play")]
    assert output["errors"][0]["player"] == "Ann"
    assert output["errors"][0]["message"].startswith(
        "Trick 1: Ann played 3S, a renege: Ann had to follow suit to the heart lead with a "
        "heart (hearts held: AH)."
    )


# (rules, hands, upcard, first trick, who reneged, the reason in the message)
RENEGE_CASES = [
    (
        "bluke",
        {"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]},
        "2S",
        ["KH", "BL", "3S"],
        "Ann",
        "had to follow suit to the heart lead with a heart (hearts held: AH)",
    ),
    (
        "bluke",
        {"Ann": ["AH", "3S"], "Bob": ["BH", "4D"], "Cy": ["KH", "BL"]},
        "2S",
        ["BH", "KH", "3S"],
        "Ann",
        "had to play a heart: after the BH lead the first plain card, KH, set hearts as the "
        "suit to follow (hearts held: AH)",
    ),
    (
        "bluke",
        {"Ann": ["AH", "BL"], "Bob": ["KH", "4D"], "Cy": ["5H", "2C"]},
        "2S",
        ["KH", "2C", "BL"],
        "Cy",
        "had to follow suit to the heart lead with a heart (hearts held: 5H)",
    ),
    (
        "bluke-nj",
        {"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]},
        "2S",
        ["KH", "BL", "AH"],
        "Cy",
        "had to follow suit to the heart lead (hearts held: 5H); a Bluke belongs to the trump "
        "suit and may not be played while the player can follow a plain suit",
    ),
    (
        "bluke-nj",
        {"Ann": ["AH", "3S"], "Bob": ["KS", "4D"], "Cy": ["BL", "5H"]},
        "2S",
        ["KS", "5H", "3S"],
        "Cy",
        "had to follow the trump lead with a trump (Blukes count as trumps in this game; "
        "trumps held: BL)",
    ),
    (
        "bluke-nj",
        {"Ann": ["AH", "3S"], "Bob": ["BH", "4D"], "Cy": ["BL", "5H"]},
        "2S",
        ["BH", "5H", "3S"],
        "Cy",
        "had to follow the Bluke lead, a trump lead, with a trump (Blukes count as trumps in "
        "this game; trumps held: BL)",
    ),
    (
        "bluke-nj",
        {"Ann": ["AH", "3S"], "Bob": ["BH", "4D"], "Cy": ["BL", "5H"]},
        "BL",
        ["BH", "5H", "3S"],
        "Cy",
        "",  # the upcard is the Lo Bluke, so Cy cannot hold it
    ),
    (
        "bluke-nj",
        {"Ann": ["AH", "3S"], "Bob": ["BH", "4D"], "Cy": ["BL", "5H"]},
        "JD",
        ["BH", "5H", "3S"],
        "Cy",
        "had to follow the Bluke lead, a trump lead, with a trump (Blukes count as trumps in "
        "this game; trumps held: BL)",
    ),
]


@pytest.mark.parametrize(("rules", "hands", "upcard", "trick", "who", "reason"), RENEGE_CASES)
def test_renege_reasons(
    rules: str, hands: dict[str, list[str]], upcard: str, trick: list[str], who: str, reason: str
) -> None:
    # Play the two-card hand as round 1 of bluke; in bluke-nj round 2 deals two cards, so
    # a one-card round 1 (Ann deals, Bob takes it) comes first and Bob deals round 2.
    rest = [c for name in ("Bob", "Cy", "Ann") for c in hands[name] if c not in trick]
    rnd: dict[str, Any] = {
        "upcard": upcard,
        "bids": {"Ann": 1, "Bob": 1, "Cy": 1},
        "play": {"hands": hands, "tricks": [trick, rest]},
    }
    if rules == "bluke":
        record = small_game("bluke", rnd)
        number = 1
    else:
        hands_nj = {"Cy": hands["Bob"], "Ann": hands["Cy"], "Bob": hands["Ann"]}
        rnd["play"]["hands"] = hands_nj
        first = {"bids": {"Ann": 1, "Bob": 1, "Cy": 1}, "tricks": {"Bob": 1}}
        record = small_game("bluke-nj", first, rnd)
        number = 2
        who = {"Bob": "Cy", "Cy": "Ann", "Ann": "Bob"}[who]
    output = engine.check(record)
    if not reason:
        assert codes(output) == [(number, "upcard_in_hand", "play")]
        return
    assert codes(output) == [(number, "renege", "play")]
    error = output["errors"][0]
    assert error["player"] == who
    assert f"a renege: {who} {reason}." in error["message"]


def test_a_hand_with_every_card_dealt_has_no_upcard_and_no_trump() -> None:
    """'or 18 if players agree that the last hand is automatically a "no trump" hand'"""
    for rules in ("bluke", "bluke-nj"):
        record = engine.simulate(
            rules, THREE, seed=5, options={"max_cards": 18}, card_play=True, strategy="greedy"
        )
        output = engine.check(record)
        assert output["valid"], output["errors"]
        full = [r for r in record["rounds"] if r["cards"] == 18]
        assert len(full) == (2 if rules == "bluke" else 1)
        assert all("upcard" not in r for r in full)
        assert all(len(r["play"]["tricks"]) == 18 for r in full)
