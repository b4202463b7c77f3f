"""What a game family tells the scorer before a round is entered (no database)."""

from __future__ import annotations

from scoring.games import BeforeEntry, family_for


def test_bluke_new_jersey_starts_with_one_card_and_says_card() -> None:
    hint = family_for("bluke-nj").before_entry("bluke-nj", {}, 4, 1)
    assert hint.lines[0] == "Hand 1 of 25: deal 1 card to each player."
    assert hint.initial == {"cards": 1}


def test_bluke_says_when_a_bid_of_zero_is_allowed() -> None:
    hint = family_for("bluke").before_entry("bluke", {"allow_zero_bid": True}, 4, 2)
    assert hint.lines[1] == "Each player bids 0 to 12 before play; tricks taken run from 0 to 12."


def test_bluke_says_nothing_after_the_last_hand_or_at_an_impossible_table() -> None:
    family = family_for("bluke")
    assert family.before_entry("bluke", {}, 4, 26) == BeforeEntry()
    assert family.before_entry("bluke", {}, 60, 1) == BeforeEntry()


def test_other_games_say_nothing_before_entry() -> None:
    assert family_for("huckley-buck").before_entry("huckley-buck", {}, 4, 1) == BeforeEntry()
