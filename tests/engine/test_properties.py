"""Properties that hold for every game: hypothesis draws the games."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.cards import SUIT_OF
from engine.games.huckley.play import beats, legal_follow, legal_kill
from tests.engine.records import SEVEN, assert_is_a_verdict, change_a_trick_count, game

RULES = st.sampled_from(["huckley-buck", "hucklebuck"])
STRATEGIES = st.sampled_from(["random", "greedy"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=3, max_value=7)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=SEEDS, size=SIZES, rules=RULES, strategy=STRATEGIES, card_play=st.booleans())
def test_every_simulated_game_is_valid_and_finished(
    seed: int, size: int, rules: str, strategy: str, card_play: bool
) -> None:
    record = engine.simulate(rules, SEVEN[:size], seed=seed, strategy=strategy, card_play=card_play)
    output = engine.check(record)
    assert output["valid"], output["errors"]
    assert output["finished"]
    assert isinstance(output["winner"], str)
    assert output["scores"][output["winner"]] >= 11
    assert all(("play" in r) == card_play for r in record["rounds"] if not r.get("misdeal"))
    assert (
        engine.simulate(rules, SEVEN[:size], seed=seed, strategy=strategy, card_play=card_play)
        == record
    )


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, size=SIZES, rules=RULES, strategy=STRATEGIES)
def test_a_random_legal_play_replays_to_the_same_tricks(
    seed: int, size: int, rules: str, strategy: str
) -> None:
    """The simulator plays legal cards and counts its own tricks; the checker, given only
    the cards, must find the same tricks (and the same trick order)."""
    record = engine.simulate(rules, SEVEN[:size], seed=seed, strategy=strategy, card_play=True)
    with_summary = engine.check(record)
    bare = copy.deepcopy(record)
    for rnd in bare["rounds"]:
        rnd.pop("tricks", None)
        rnd.pop("trick_winners", None)
    assert engine.check(bare) == with_summary


@st.composite
def summary_rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A game of random but well-formed summary rounds (drops, penalties, misdeals)."""
    size = draw(SIZES)
    players = SEVEN[:size]
    rounds = []
    for _ in range(draw(st.integers(min_value=0, max_value=25))):
        if draw(st.integers(0, 19)) == 0:
            rounds.append({"misdeal": True})
            continue
        max_out = size - 4 if size >= 5 else 0
        out = draw(st.lists(st.sampled_from(players), max_size=max_out, unique=True))
        in_round = [p for p in players if p not in out]
        penalized = draw(
            st.lists(st.sampled_from(in_round), max_size=len(in_round) - 1, unique=True)
            if draw(st.integers(0, 9)) == 0
            else st.just([])
        )
        in_play = [p for p in in_round if p not in penalized]
        winners = draw(st.lists(st.sampled_from(in_play), min_size=5, max_size=5))
        rnd: dict[str, Any] = {"tricks": {p: winners.count(p) for p in in_play}}
        rnd["trick_winners"] = winners
        if out:
            rnd["out"] = out
        if penalized:
            rnd["penalties"] = [{"player": p, "kind": "renege"} for p in penalized]
        rounds.append(rnd)
    return game(*rounds, players=players, first_dealer=draw(st.sampled_from(players)))


@FAST
@given(record=summary_rounds(), rules=RULES)
def test_scores_never_go_below_zero_and_follow_the_points(
    record: dict[str, Any], rules: str
) -> None:
    output = engine.check({**record, "rules": rules})
    assert [e["code"] for e in output["errors"]] in ([], ["game_over"])
    totals = dict.fromkeys(record["players"], 0)
    for rnd in output["rounds"]:
        # The engine's own running scores, before they are compared with the model below
        # (whose max(0, ...) floors by construction, so a check on it could not fail).
        assert min(rnd["scores"].values()) >= 0, rnd
        for name in totals:
            totals[name] = max(0, totals[name] + rnd["points"][name])
        assert rnd["scores"] == totals
        for name, points in rnd["points"].items():
            hooks = rnd["hooks"].count(name)
            assert (points < 0) == (hooks > 0)
            if hooks:
                assert points == -3 * hooks
    assert output["scores"] == totals


@FAST
@given(
    seed=SEEDS,
    size=SIZES,
    rules=RULES,
    card_play=st.booleans(),
    pick=st.integers(min_value=0),
    new_count=st.integers(min_value=0, max_value=5),
)
def test_changing_any_single_trick_count_makes_the_round_invalid(
    seed: int, size: int, rules: str, card_play: bool, pick: int, new_count: int
) -> None:
    record = engine.simulate(rules, SEVEN[:size], seed=seed, card_play=card_play)
    i = change_a_trick_count(record, pick, new_count)
    output = engine.check(record)
    assert not output["valid"]
    assert output["errors"][0]["round"] == i + 1
    assert len(output["rounds"]) == i


CARDS = st.integers(min_value=0, max_value=51)


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(CARDS, min_size=1, max_size=12, unique=True),
    hand_size=st.integers(min_value=1, max_value=5),
    trump=st.integers(min_value=0, max_value=3),
)
def test_the_legal_cards_are_never_empty_and_always_from_the_hand(
    cards: list[int], hand_size: int, trump: int
) -> None:
    hand_cards, trick = cards[:hand_size], cards[hand_size:]
    hand = sum(1 << c for c in hand_cards)
    led = -1
    best = -1
    for card in trick:
        if led < 0:
            led, best = SUIT_OF[card], card
        elif beats(card, best, trump):
            best = card
    for rule in (legal_kill, legal_follow):
        allowed = rule(hand, led, best, trump)
        assert allowed
        assert allowed & ~hand == 0
    # The IHBA rules only ever narrow Hucklebuck's choice.
    assert legal_kill(hand, led, best, trump) & ~legal_follow(hand, led, best, trump) == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)

#: Every game the engine knows, so a game added later is held to the same.
GAMES = sorted(engine.RULES)


def table_for(rules: str) -> list[str]:
    """Four players, or as near as the game allows."""
    info = engine.rules_info(rules)
    return SEVEN[: max(info.min_players, min(4, info.max_players))]


@settings(max_examples=200, deadline=None)
@given(record=JSON)
def test_check_never_raises_on_any_json(record: Any) -> None:
    assert_is_a_verdict(engine.check(record))


@pytest.mark.parametrize("rules", GAMES)
@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, value=JSON, which=st.integers(min_value=0), top=JSON)
def test_check_never_raises_when_any_field_holds_anything(
    rules: str, seed: int, value: Any, which: int, top: Any
) -> None:
    """Any round field of any game, its cards' hands included, holding any JSON: the
    verdict says what is wrong, the engine never raises."""
    record = engine.simulate(rules, table_for(rules), seed=seed, card_play=True)
    rnd = record["rounds"][which % len(record["rounds"])]
    fields = engine.rules_info(rules).round_fields
    rnd[fields[which % len(fields)]] = value
    if isinstance(rnd.get("play"), dict):
        rnd["play"]["hands"] = {"Ann": value} if which % 3 == 0 else rnd["play"].get("hands")
    assert_is_a_verdict(engine.check(record))
    key = ["players", "options", "first_dealer", "rounds", "rules", "format"][which % 6]
    assert_is_a_verdict(engine.check({**record, key: top}))
