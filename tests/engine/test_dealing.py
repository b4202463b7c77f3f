"""Who deals first (ruling 7), and what the engine says about its rule sets."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.cards import PARSE, RANK_OF
from tests.engine.records import FIVE, FOUR, game


def test_the_high_card_draw_is_replayable_from_its_seed() -> None:
    assert engine.draw_first_dealer(FIVE, seed=42) == engine.draw_first_dealer(FIVE, seed=42)


@pytest.mark.parametrize("seed", range(60))
def test_the_highest_card_deals_and_ties_draw_again(seed: int) -> None:
    """IHBA PRELIMINARIES: 'each player draws a card ... The highest deals first.'
    Players tied for the highest draw again; the last card of each list counted."""
    dealer, drawn = engine.draw_first_dealer(FIVE, seed=seed)
    assert set(drawn) == set(FIVE)
    cards = {name: text.split() for name, text in drawn.items()}
    every = [card for hand in cards.values() for card in hand]
    assert all(card in PARSE for card in every)
    # Round by round, only those tied at the top of the previous round drew again.
    rounds = max(len(hand) for hand in cards.values())
    contenders = list(FIVE)
    for k in range(rounds):
        ranks = {name: RANK_OF[PARSE[cards[name][k]]] for name in contenders}
        # One pack per round of drawing: no card twice within it.
        drawn_now = [cards[name][k] for name in contenders]
        assert len(set(drawn_now)) == len(drawn_now)
        high = max(ranks.values())
        contenders = [name for name in contenders if ranks[name] == high]
        assert all(len(cards[name]) > k + 1 for name in contenders) or len(contenders) == 1
    assert contenders == [dealer]


def test_a_tie_is_redrawn_for_some_seed() -> None:
    tied = [
        s
        for s in range(200)
        if max(len(v.split()) for v in engine.draw_first_dealer(FIVE, seed=s)[1].values()) > 1
    ]
    assert tied


def test_the_draw_refuses_a_bad_player_list() -> None:
    with pytest.raises(engine.EngineUsageError):
        engine.draw_first_dealer(["Ann", "Ann"], seed=1)
    with pytest.raises(engine.EngineUsageError):
        engine.draw_first_dealer([], seed=1)


def test_the_winner_of_the_last_game_deals_first_in_the_next() -> None:
    """IHBA PRELIMINARIES: 'For a new game of an existing session, the winner of the last
    game deals first.'"""
    won = engine.check(game({"tricks": {"Cy": 5}}, players=FOUR, options={"target": 5}))
    assert engine.next_game_first_dealer(won) == "Cy"


@pytest.mark.parametrize(
    "output",
    [
        engine.check(game({"tricks": {"Cy": 5}}, players=FOUR)),  # not finished
        engine.check(game({"tricks": {"Cy": 4}}, players=FOUR)),  # invalid
        {"valid": True, "finished": True, "winner": ["Ann", "Bob"]},  # shared win
        {},
    ],
)
def test_no_next_dealer_without_a_single_winner_of_a_valid_finished_game(
    output: dict[str, Any],
) -> None:
    assert engine.next_game_first_dealer(output) is None


def test_the_rule_sets_say_what_the_tournament_layer_needs() -> None:
    assert set(engine.RULES) == {
        "huckley-buck",
        "hucklebuck",
        "buck-euchre",
        "ten-point-buck",
        "bluke",
        "bluke-nj",
    }
    # Players per table and the sense of a better score, from the rule texts and docs/format.md.
    expected = {
        "buck-euchre": (4, 4, True),
        "ten-point-buck": (3, 5, False),
        "bluke": (2, 15, False),
        "bluke-nj": (2, 15, False),
    }
    for rules_id, (low, high, lower) in expected.items():
        info = engine.rules_info(rules_id)
        assert (info.min_players, info.max_players, info.lower_is_better) == (low, high, lower)
    for rules_id in ("huckley-buck", "hucklebuck"):
        info = engine.rules_info(rules_id)
        assert info.id == rules_id
        assert (info.min_players, info.max_players) == (3, 7)
        assert info.lower_is_better is False
        assert info.defaults["target"] == 11
        assert info.defaults["dealer_may_drop"] is True
        assert info.as_dict()["options"]["target"]["default"] == 11
    assert engine.rules_info("huckley-buck").defaults["tie_break"] == "trick_order"
    assert engine.rules_info("hucklebuck").defaults["tie_break"] == "highest_score"


def test_an_unknown_rules_id_is_a_programming_error_for_rules_info() -> None:
    with pytest.raises(engine.EngineUsageError, match="poker"):
        engine.rules_info("poker")


def test_simulate_refuses_arguments_no_game_could_have() -> None:
    with pytest.raises(engine.EngineUsageError):
        engine.simulate("poker", FIVE, seed=1)
    with pytest.raises(engine.EngineUsageError):
        engine.simulate("huckley-buck", ["Ann", "Bob"], seed=1)
    with pytest.raises(engine.EngineUsageError):
        engine.simulate("huckley-buck", FIVE, seed=1, strategy="clever")
    with pytest.raises(engine.EngineUsageError):
        engine.simulate("huckley-buck", FIVE, seed=1, first_dealer="Zed")
    with pytest.raises(engine.EngineUsageError):
        engine.simulate("huckley-buck", FIVE, seed=1, options={"jokers": True})


def test_simulate_uses_the_given_first_dealer_and_options() -> None:
    record = engine.simulate("hucklebuck", FOUR, seed=3, first_dealer="Dee", options={"target": 21})
    assert record["first_dealer"] == "Dee"
    assert record["rounds"][0]["dealer"] == "Dee"
    output = engine.check(record)
    assert output["valid"]
    assert output["finished"]
    assert max(output["scores"].values()) >= 21


def test_simulate_draws_the_first_dealer_from_the_seed_when_none_is_given() -> None:
    record = engine.simulate("huckley-buck", FIVE, seed=11)
    assert record["first_dealer"] == engine.draw_first_dealer(FIVE, seed=11)[0]
