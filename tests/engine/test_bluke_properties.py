"""Properties of every `bluke` and `bluke-nj` game: hypothesis draws the games.

A Bluke game is long (25 hands of up to 13 tricks at 2-4 players), so the example counts
are kept small for the big tables and card-level games.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.games.bluke import schedule
from engine.games.bluke.cards import DECK_SIZE, HI_BLUKE, LO_BLUKE, SUIT_OF
from engine.games.bluke.play import legal_cards, trick_follow

RULES = st.sampled_from(["bluke", "bluke-nj"])
STRATEGIES = st.sampled_from(["random", "greedy"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=2, max_value=8)
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(
    seed=SEEDS,
    size=SIZES,
    rules=RULES,
    strategy=STRATEGIES,
    card_play=st.booleans(),
    zero=st.booleans(),
)
def test_every_simulated_game_is_valid_and_finished(
    seed: int, size: int, rules: str, strategy: str, card_play: bool, zero: bool
) -> None:
    players = NAMES[:size]
    options = {"allow_zero_bid": True} if zero else {}
    record = engine.simulate(
        rules, players, seed=seed, strategy=strategy, card_play=card_play, options=options
    )
    output = engine.check(record)
    assert output["valid"], output["errors"]
    assert output["finished"]
    assert output["next_dealer"] is None
    sizes = schedule(rules, size)
    assert [r["cards"] for r in record["rounds"]] == sizes
    assert all(("play" in r) == card_play for r in record["rounds"])
    top = max(output["scores"].values())
    winner = output["winner"]
    assert (winner if isinstance(winner, list) else [winner]) == [
        p for p in players if output["scores"][p] == top
    ]
    assert (
        engine.simulate(
            rules, players, seed=seed, strategy=strategy, card_play=card_play, options=options
        )
        == record
    )


@QUICK
@given(seed=SEEDS, size=st.integers(2, 15), rules=RULES, max_cards=st.integers(0, 27))
def test_games_at_any_table_with_any_largest_hand_are_valid(
    seed: int, size: int, rules: str, max_cards: int
) -> None:
    """Option max_cards from 1 to floor(54 / players), including hands that deal out all
    54 cards (no upcard, no trump)."""
    max_cards = min(max_cards, DECK_SIZE // size)
    players = [f"P{i}" for i in range(size)]
    record = engine.simulate(
        rules, players, seed=seed, options={"max_cards": max_cards}, card_play=True
    )
    output = engine.check(record)
    assert output["valid"], output["errors"]
    assert output["finished"]


@QUICK
@given(seed=SEEDS, size=SIZES, rules=RULES, strategy=STRATEGIES)
def test_a_random_legal_play_replays_to_the_same_tricks(
    seed: int, size: int, rules: str, strategy: str
) -> None:
    """The simulator plays legal cards and counts its own tricks; the checker, given only
    the cards, must find the same tricks."""
    record = engine.simulate(rules, NAMES[:size], seed=seed, strategy=strategy, card_play=True)
    with_summary = engine.check(record)
    bare = copy.deepcopy(record)
    for rnd in bare["rounds"]:
        del rnd["tricks"]
    assert engine.check(bare) == with_summary


@settings(max_examples=150, deadline=None)
@given(
    seed=SEEDS,
    size=st.integers(2, 6),
    rules=RULES,
    pick=st.integers(min_value=0),
    delta=st.integers(-13, -1) | st.integers(1, 13),
)
def test_changing_any_single_trick_count_makes_the_round_invalid(
    seed: int, size: int, rules: str, pick: int, delta: int
) -> None:
    record = engine.simulate(rules, NAMES[:size], seed=seed, options={"max_cards": 6})
    rounds: list[dict[str, Any]] = record["rounds"]
    number = pick % len(rounds)
    player = NAMES[(pick // len(rounds)) % size]
    rounds[number]["tricks"][player] += delta
    output = engine.check(record)
    assert not output["valid"]
    assert {e["round"] for e in output["errors"]} == {number + 1}
    assert {e["code"] for e in output["errors"]} <= {"tricks_not_cards", "bad_field"}
    assert len(output["rounds"]) == number


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, list[int], int, bool]:
    """A hand, the cards played to the trick so far (none of them in the hand), the trump
    (4 for none) and the rules."""
    deck = draw(st.permutations(range(DECK_SIZE)))
    size = draw(st.integers(1, 13))
    played = draw(st.integers(0, 14))
    hand = sum(1 << c for c in deck[:size])
    trick = list(deck[size : size + played])
    return hand, trick, draw(st.integers(0, 4)), draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(position=positions())
def test_legal_cards_are_never_empty_and_always_from_the_hand(
    position: tuple[int, list[int], int, bool],
) -> None:
    hand, trick, trump, nj = position
    legal = legal_cards(hand, trick, trump, nj)
    assert legal
    assert legal & ~hand == 0
    if trick:
        follow = trick_follow(trick, trump, nj)
        if hand & follow:
            # Able to follow: only following cards (and, in bluke, Blukes) are legal.
            blukes = 0 if nj else (1 << LO_BLUKE | 1 << HI_BLUKE)
            assert legal == hand & (follow | blukes)
        else:
            assert legal == hand
    if not nj:
        # bluke: 'Blukes may be played at any time'.
        assert legal & (1 << HI_BLUKE) == hand & (1 << HI_BLUKE)
    elif (
        trick
        and trick[0] < LO_BLUKE
        and SUIT_OF[trick[0]] not in (trump, 4)
        and hand & trick_follow(trick, trump, nj)
    ):
        # bluke-nj: no Bluke while able to follow a plain suit that was led.
        assert legal & (1 << LO_BLUKE | 1 << HI_BLUKE) == 0
