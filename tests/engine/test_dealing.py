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


# What each rule text says of its game, for the tournament layer: (players at a game,
# lower score better, the tables the text recommends as split range, play range, ideal).
# A game added to the engine adds its line here; a game missing from the engine fails.
RULE_TEXT_FACTS: dict[str, tuple[tuple[int, int], bool, tuple[int, int], tuple[int, int], int]] = {
    # "Three to seven players"; the IHBA tournament format: groups of four, the one to
    # three left over added as evenly as possible. Whenever a player gets eleven, he wins.
    "huckley-buck": ((3, 7), False, (4, 7), (3, 7), 4),
    # "NUMBER OF PLAYERS: 3 - 7 players", in the same tournament format.
    "hucklebuck": ((3, 7), False, (4, 7), (3, 7), 4),
    # "a trick-taking game for four players"; "until a player's score reaches zero".
    "buck-euchre": ((4, 4), True, (4, 4), (4, 4), 4),
    # "A Trick-Taking Game for Three to Five Players"; "Score more Hunting Points".
    "ten-point-buck": ((3, 5), False, (3, 5), (3, 5), 4),
    # "best played with three or four players", "up to about 15" can play; scores for
    # made bids.
    "bluke": ((2, 15), False, (3, 4), (3, 4), 4),
    "bluke-nj": ((2, 15), False, (3, 4), (3, 4), 4),
}


@pytest.mark.parametrize("rules_id", sorted(RULE_TEXT_FACTS))
def test_each_rule_set_says_what_its_rule_text_says_of_the_game(rules_id: str) -> None:
    players, lower, split, play, ideal = RULE_TEXT_FACTS[rules_id]
    info = engine.rules_info(rules_id)
    assert info.id == rules_id
    assert (info.min_players, info.max_players) == players
    assert info.lower_is_better is lower
    sizes = info.table_sizes
    assert (sizes.split_min, sizes.split_max) == split
    assert (sizes.play_min, sizes.play_max) == play
    assert sizes.ideal == ideal


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_every_rule_set_recommends_only_tables_it_can_play(rules_id: str) -> None:
    info = engine.rules_info(rules_id)
    sizes = info.table_sizes
    assert info.min_players <= sizes.play_min <= sizes.split_min
    assert sizes.split_min <= sizes.ideal <= sizes.split_max <= sizes.play_max
    assert sizes.play_max <= info.max_players


def test_a_game_that_recommends_tables_it_cannot_play_is_refused() -> None:
    with pytest.raises(engine.EngineUsageError, match="recommends tables of 3-8"):
        engine.RulesInfo(
            id="toy",
            name="Toy",
            min_players=3,
            max_players=7,
            lower_is_better=False,
            options={},
            tables=engine.TableSizes(4, 7, 3, 8),
        )
    with pytest.raises(engine.EngineUsageError, match="play_min <= split_min"):
        engine.TableSizes(3, 7, 4, 7)
    with pytest.raises(engine.EngineUsageError, match="ideal"):
        engine.TableSizes(4, 7, 3, 7, ideal=8)


def test_a_game_that_states_no_table_sizes_plays_at_every_size_it_allows() -> None:
    info = engine.RulesInfo(
        id="toy", name="Toy", min_players=2, max_players=6, lower_is_better=False, options={}
    )
    assert info.table_sizes == engine.TableSizes(2, 6, 2, 6, ideal=4)
    two = engine.RulesInfo(
        id="duel", name="Duel", min_players=2, max_players=2, lower_is_better=False, options={}
    )
    assert two.table_sizes.ideal == 2


def test_the_options_of_huckley_buck_and_hucklebuck_follow_the_rulings() -> None:
    for rules_id in ("huckley-buck", "hucklebuck"):
        info = engine.rules_info(rules_id)
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
