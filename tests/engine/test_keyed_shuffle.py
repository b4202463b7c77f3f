"""The shuffle of a duplicate deal (`engine.keyed_shuffle`): the same order for the same
key and board, a permutation always, and no card favoured by a position."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.cards import CARD_NAMES

PACK = list(CARD_NAMES)
keys = st.binary(min_size=1, max_size=64)
boards = st.text(min_size=0, max_size=20)


@given(keys, boards)
def test_a_keyed_shuffle_is_a_permutation_of_the_pack(key: bytes, board: str) -> None:
    order = engine.keyed_shuffle(PACK, key=key, board=board)
    assert sorted(order) == sorted(PACK)
    assert len(order) == len(PACK)


@given(keys, boards)
def test_the_same_key_and_board_give_the_same_order(key: bytes, board: str) -> None:
    assert engine.keyed_shuffle(PACK, key=key, board=board) == engine.keyed_shuffle(
        list(PACK), key=key, board=board
    )


@given(keys, boards, boards)
def test_another_board_gives_another_order(key: bytes, one: str, other: str) -> None:
    """Two different boards share an order with odds of 1 in 52!: never, in practice."""
    if one != other:
        assert engine.keyed_shuffle(PACK, key=key, board=one) != engine.keyed_shuffle(
            PACK, key=key, board=other
        )


def test_another_key_gives_another_order() -> None:
    assert engine.keyed_shuffle(PACK, key=b"one", board="4/1/1") != engine.keyed_shuffle(
        PACK, key=b"two", board="4/1/1"
    )


def test_the_input_is_left_as_it_was() -> None:
    cards = list(PACK)
    engine.keyed_shuffle(cards, key=b"k", board="b")
    assert cards == PACK


def test_every_card_is_as_likely_on_top() -> None:
    """Over 5,200 boards each of the 52 cards comes first about 100 times: a chi-square of
    the counts stays far below the 0.1 % critical value for 51 degrees of freedom (87.97).
    A shuffle that favoured a card, or never moved the top one, fails it."""
    tops = Counter(
        engine.keyed_shuffle(PACK, key=b"duplicate", board=f"4/1/{n}")[0] for n in range(5200)
    )
    expected = 5200 / 52
    chi2 = sum((tops[c] - expected) ** 2 / expected for c in PACK)
    assert len(tops) == 52
    assert chi2 < 87.97


def test_a_shuffle_without_a_key_is_refused() -> None:
    with pytest.raises(engine.EngineUsageError):
        engine.keyed_shuffle(PACK, key=b"", board="4/1/1")
