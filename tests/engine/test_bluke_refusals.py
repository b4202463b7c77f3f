"""Every refusal a scorer can hit in a `bluke` or `bluke-nj` record: code, field, player
and the message, as listed in docs/rules-bluke.md. What a refusal does to the game's
other rounds (all of the first bad round's problems, the rounds before it scored, the
rounds after the game ended) is in test_bluke_refusals_rounds.py."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.bluke_rounds import ALL_TO_ANN, BIDS, SMALL, rnd
from tests.engine.records import THREE, game


def small(**fields: Any) -> dict[str, Any]:
    """Round 1 of a `bluke` game at three players with max_cards 2: two cards each."""
    hand: dict[str, Any] = {
        "upcard": "2S",
        "bids": BIDS,
        "play": {
            "hands": {"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]},
            "tricks": [["KH", "BL", "AH"], ["5H", "3S", "4D"]],
        },
    }
    hand.update(fields)
    return hand


def play(**changes: Any) -> dict[str, Any]:
    base = small()["play"]
    return {**base, **changes}


# (code, record, field, player, message)
CASES: list[tuple[str, dict[str, Any], str | None, str | None, str]] = [
    (
        "bad_option",
        game(players=THREE, rules="bluke", options={"max_cards": 19}),
        None,
        None,
        "The largest hand must be from 1 to 18 cards at a table of 3 (54 cards), or 0 for the "
        "standard 13; not 19.",
    ),
    (
        "player_count",
        game(players=["Ann"], rules="bluke-nj"),
        None,
        None,
        "Bluke (New Jersey) is played by 2 to 15 players, not 1 (Ann).",
    ),
    (
        "unknown_option",
        game(players=THREE, rules="bluke", options={"target": 11}),
        None,
        None,
        "target is not an option of Bluke; its options are max_cards, allow_zero_bid.",
    ),
    (
        "bad_round",
        game(5, players=THREE, rules="bluke"),
        None,
        None,
        "Round 1 must be a set of fields (dealer, cards, bids, tricks, ...), not 5.",
    ),
    (
        "wrong_dealer",
        game(rnd(), rnd(dealer="Cy", tricks={"Ann": 12}), players=THREE, rules="bluke"),
        "dealer",
        None,
        "Round 2 is dealt by Bob, not Cy: Ann dealt round 1 and the deal passes left.",
    ),
    (
        "wrong_cards",
        game(rnd(cards=12), players=THREE, rules="bluke"),
        "cards",
        None,
        "Round 1 deals 13 cards to each player, not 12: the hands run from 13 cards down to "
        "1 and back up to 13, one card a hand.",
    ),
    (
        "wrong_cards",
        game(rnd(cards=13, tricks={"Ann": 1}), players=THREE, rules="bluke-nj"),
        "cards",
        None,
        "Round 1 deals 1 card to each player, not 13: the hands run from 1 card up to 13 and "
        "back down to 1, one card a hand.",
    ),
    (
        "bad_field",
        game(rnd(cards="13"), players=THREE, rules="bluke"),
        "cards",
        None,
        'cards must be the number of cards dealt to each player, not "13".',
    ),
    (
        "no_upcard",
        game(
            rnd(upcard="BH", tricks={"Ann": 18}),
            players=THREE,
            rules="bluke",
            options={"max_cards": 18},
        ),
        "upcard",
        None,
        "All 54 cards are dealt in this hand (18 to each of 3 players), so no card is turned "
        "up and the hand has no trump; remove the upcard.",
    ),
    (
        "bad_card",
        game(rnd(upcard="1S"), players=THREE, rules="bluke"),
        "upcard",
        None,
        "The upcard 1S is not a card; write rank then suit, like 7H or TD, or BH / BL for a Bluke.",
    ),
    (
        "bids_missing",
        game({"tricks": ALL_TO_ANN}, players=THREE, rules="bluke"),
        "bids",
        None,
        "No bids are entered for this hand; enter each player's bid (1 to 13).",
    ),
    (
        "bad_field",
        game(rnd(bids=[1, 1, 1]), players=THREE, rules="bluke"),
        "bids",
        None,
        'The bids must map each player to the bid made, like {"Ann": 2, "Bob": 1}.',
    ),
    (
        "bad_field",
        game(rnd(bids={**BIDS, "Bob": 1.5}), players=THREE, rules="bluke"),
        "bids",
        "Bob",
        "Bob's bid must be a whole number, not 1.5.",
    ),
    (
        "unknown_player",
        game(rnd(bids={**BIDS, "Zed": 1}), players=THREE, rules="bluke"),
        "bids",
        None,
        "Zed is not at this table (Ann, Bob, Cy); check the bids.",
    ),
    (
        "bid_missing",
        game(rnd(bids={"Ann": 1, "Bob": 2}), players=THREE, rules="bluke"),
        "bids",
        "Cy",
        "Cy has no bid; every player bids on every hand, 1 to 13.",
    ),
    (
        "bid_out_of_range",
        game(rnd(bids={**BIDS, "Cy": 0}), players=THREE, rules="bluke"),
        "bids",
        "Cy",
        "Cy bid 0, but bids start at 1 in this game (a bid of 0 is not allowed).",
    ),
    (
        "bid_out_of_range",
        game(
            rnd(), rnd(bids={**BIDS, "Ann": 13}, tricks={"Ann": 12}), players=THREE, rules="bluke"
        ),
        "bids",
        "Ann",
        "Ann bid 13, but with 12 cards dealt a bid runs from 1 to 12.",
    ),
    (
        "bid_out_of_range",
        game(
            rnd(bids={**BIDS, "Bob": -1}),
            players=THREE,
            rules="bluke",
            options={"allow_zero_bid": True},
        ),
        "bids",
        "Bob",
        "Bob bid -1, but with 13 cards dealt a bid runs from 0 to 13.",
    ),
    (
        "tricks_missing",
        game({"bids": BIDS}, players=THREE, rules="bluke"),
        "tricks",
        None,
        "No tricks are entered for this hand; enter how many tricks each player took.",
    ),
    (
        "bad_field",
        game(rnd(tricks=[13, 0, 0]), players=THREE, rules="bluke"),
        "tricks",
        None,
        'The tricks must map each player to the tricks taken, like {"Ann": 2, "Bob": 1}.',
    ),
    (
        "bad_field",
        game(rnd(tricks={"Ann": 14}), players=THREE, rules="bluke"),
        "tricks",
        "Ann",
        "Ann's tricks must be a whole number from 0 to 13, not 14.",
    ),
    (
        "bad_field",
        game(rnd(tricks={"Ann": "13"}), players=THREE, rules="bluke"),
        "tricks",
        "Ann",
        'Ann\'s tricks must be a whole number, not "13".',
    ),
    (
        "unknown_player",
        game(rnd(tricks={"Ann": 12, "Zed": 1}), players=THREE, rules="bluke"),
        "tricks",
        None,
        "Zed is not at this table (Ann, Bob, Cy); check the tricks.",
    ),
    (
        "tricks_not_cards",
        game(rnd(tricks={"Ann": 6, "Bob": 6}), players=THREE, rules="bluke"),
        "tricks",
        None,
        "The tricks add up to 12 (Ann 6, Bob 6, Cy 0); with 13 cards dealt to each player a "
        "hand has exactly 13 tricks.",
    ),
    (
        "tricks_not_cards",
        game(rnd(tricks={"Ann": 1, "Bob": 1}), players=THREE, rules="bluke-nj"),
        "tricks",
        None,
        "The tricks add up to 2 (Ann 1, Bob 1, Cy 0); with 1 card dealt to each player a "
        "hand has exactly 1 trick.",
    ),
    (
        "game_over",
        game(
            *[rnd(tricks={"Ann": c}) for c in (2, 1, 2, 1)],
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        None,
        None,
        "The game ended after round 3, the last hand of the schedule (Ann won); round 4 and "
        "any after it belong to a new game.",
    ),
    # Card-level play.
    (
        "missing_upcard",
        game(small(upcard=None), players=THREE, rules="bluke", options=SMALL),
        "upcard",
        None,
        "The cards played are given but not the upcard; enter the upcard so the trump suit "
        "is known.",
    ),
    (
        "bad_field",
        game(small(play={"tricks": []}), players=THREE, rules="bluke", options=SMALL),
        "play",
        None,
        'play must have "hands" (each player\'s 2 cards) and "tricks" (2 lists of cards in '
        "the order played).",
    ),
    (
        "bad_field",
        game(small(play=play(tricks="KH")), players=THREE, rules="bluke", options=SMALL),
        "play",
        None,
        'play must have "tricks": 2 lists of cards in the order played.',
    ),
    (
        "bad_field",
        game(
            small(play=play(tricks=[["KH", "BL", "AH"], "5H 3S 4D"])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        None,
        "Trick 2 must be a list of cards.",
    ),
    (
        "bad_field",
        game(
            small(play=play(hands={"Ann": "AH 3S", "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]})),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Ann",
        "Ann's hand must be a list of cards.",
    ),
    (
        "unknown_player",
        game(
            small(
                play=play(
                    hands={
                        "Ann": ["AH", "3S"],
                        "Bob": ["KH", "4D"],
                        "Cy": ["BL", "5H"],
                        "Zed": ["2C", "3C"],
                    }
                )
            ),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        None,
        "play has a hand for Zed, who is not at this table.",
    ),
    (
        "wrong_hands",
        game(
            small(play=play(hands={"Ann": ["AH", "3S"], "Bob": ["KH", "4D"]})),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Cy",
        "play has no hand for Cy; every player holds a hand in every round.",
    ),
    (
        "hand_size",
        game(
            small(
                play=play(
                    hands={"Ann": ["AH", "3S", "2C"], "Bob": ["KH", "4D"], "Cy": ["BL", "5H"]}
                )
            ),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Ann",
        "Ann's hand has 3 cards; this hand deals 2 to each player.",
    ),
    (
        "duplicate_card",
        game(
            small(play=play(hands={"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BL", "AH"]})),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Cy",
        "AH is in Cy's hand and in Ann's; a pack has one of each card.",
    ),
    (
        "upcard_in_hand",
        game(small(upcard="BL"), players=THREE, rules="bluke", options=SMALL),
        "play",
        "Cy",
        "Cy's hand holds BL, the upcard; the upcard is turned up from the cards left over "
        "after the deal, so nobody holds it.",
    ),
    (
        "bad_card",
        game(
            small(play=play(hands={"Ann": ["AH", "3S"], "Bob": ["KH", "4D"], "Cy": ["BJ", "5H"]})),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Cy",
        "BJ in Cy's hand is not a card; write rank then suit, like 7H or TD, or BH / BL for "
        "a Bluke.",
    ),
    (
        "bad_card",
        game(
            small(play=play(tricks=[["KH", "BL", "AH"], ["5H", "3S", "4X"]])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        None,
        "4X in trick 2 is not a card; write rank then suit, like 7H or TD, or BH / BL for a Bluke.",
    ),
    (
        "wrong_trick_count",
        game(
            small(play=play(tricks=[["KH", "BL", "AH"]])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        None,
        "play lists 1 tricks; a hand of 2 cards each plays 2.",
    ),
    (
        "wrong_trick_size",
        game(
            small(play=play(tricks=[["KH", "BL", "AH"], ["5H", "3S"]])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        None,
        "Trick 2 has 2 cards; with 3 players each trick has 3.",
    ),
    (
        "card_not_in_hand",
        game(
            small(play=play(tricks=[["BL", "KH", "AH"], ["5H", "3S", "4D"]])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Bob",
        "Trick 1: the 1st card, BL, falls to Bob, but Bob does not hold BL at that point "
        "(holds KH, 4D). Cards of a trick are listed from its leader, Bob, clockwise.",
    ),
    (
        "renege",
        game(
            small(play=play(tricks=[["KH", "BL", "3S"], ["5H", "AH", "4D"]])),
            players=THREE,
            rules="bluke",
            options=SMALL,
        ),
        "play",
        "Ann",
        "Trick 1: Ann played 3S, a renege: Ann had to follow suit to the heart lead with a "
        "heart (hearts held: AH). Check the cards entered; if the hand was really played so, "
        "enter the round without play, with the bids and tricks the table agreed.",
    ),
    (
        "play_mismatch",
        game(small(tricks={"Cy": 2}), players=THREE, rules="bluke", options=SMALL),
        "tricks",
        None,
        "The tricks entered give Ann 0, Cy 2 but the cards played give Ann 1, Cy 1; correct the "
        "tricks or the cards.",
    ),
]


@pytest.mark.parametrize(
    ("code", "record", "field", "player", "message"),
    CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_a_refusal_says_what_is_wrong(
    code: str, record: dict[str, Any], field: str | None, player: str | None, message: str
) -> None:
    output = engine.check(record)
    assert not output["valid"]
    assert len(output["errors"]) == 1, output["errors"]
    error = output["errors"][0]
    assert error["code"] == code
    assert error["field"] == field
    assert error.get("player") == player
    assert error["message"] == message
