"""Scoring, the schedule and the winner of `bluke` and `bluke-nj`, one case per rule line.

Every expected figure is worked out by hand from the Bluke rules text (quoted in each case)
and the Bluke ruling of docs/rules-bluke.md; docs/rules-bluke.md lists the same rules with their
sources.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.games.bluke import schedule
from engine.games.bluke.rounds import hand_sizes, standard_max_cards
from tests.engine.records import FIVE, FOUR, THREE, codes, game

CARD = ["John", "Margaret", "Steve", "Betsy"]


def scored(record: dict[str, Any]) -> dict[str, Any]:
    output = engine.check(record)
    assert output["valid"], output["errors"]
    return output


def bluke(*rounds: Any, players: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    return game(*rounds, players=players or CARD, rules=kwargs.pop("rules", "bluke"), **kwargs)


def hand(bids: dict[str, int], tricks: dict[str, int], **fields: Any) -> dict[str, Any]:
    return {"bids": bids, "tricks": tricks, **fields}


# --- The sample scorecards ----------------------------------------------------------------
#
# "Sample Scorecard" (deal, then bid and running score per player; the text prints the
# columns run together):
#   "133 313 -302 225 50"        13 cards: John 3 31, Margaret 3 -30, Steve 2 22, Betsy 5 50
#   "122 114 -705 -283 82"       12 cards: John 2 11, Margaret 4 -70, Steve 5 -28, Betsy 3 82
#   "111 224 -291 -18 3 112"     11 cards: John 1 22, Margaret 4 -29, Steve 1 -18, Betsy 3 112
# "Creative Scorecard" (bids/cards, then taken/bid and running score per player):
#   "13/134/3 310/3 -304/2 225/5 50"    John 4/3, Margaret 0/3, Steve 4/2, Betsy 5/5
#   "14/121/2 112/4 -703/5 -285/3 82"   John 1/2, Margaret 2/4, Steve 3/5, Betsy 5/3
#   "10/112/1 225/4 -291/1 -183/3 112"  John 2/1, Margaret 5/4, Steve 1/1, Betsy 3/3

HAND_1 = hand(
    {"John": 3, "Margaret": 3, "Steve": 2, "Betsy": 5},
    {"John": 4, "Margaret": 0, "Steve": 4, "Betsy": 5},
    cards=13,
)
HAND_2_AS_PRINTED = hand(
    {"John": 2, "Margaret": 4, "Steve": 5, "Betsy": 3},
    {"John": 1, "Margaret": 2, "Steve": 3, "Betsy": 5},
    cards=12,
)
# The printed trick counts add up to 11 of 12. Margaret went set either way, so one more
# trick for her (3 of her 4) gives every printed score and a hand that adds up.
HAND_2_ADDING_UP = hand(
    {"John": 2, "Margaret": 4, "Steve": 5, "Betsy": 3},
    {"John": 1, "Margaret": 3, "Steve": 3, "Betsy": 5},
    cards=12,
)
HAND_3 = hand(
    {"John": 1, "Margaret": 4, "Steve": 1, "Betsy": 3},
    {"John": 2, "Margaret": 5, "Steve": 1, "Betsy": 3},
    cards=11,
)
PRINTED_SCORES = [
    {"John": 31, "Margaret": -30, "Steve": 22, "Betsy": 50},
    {"John": 11, "Margaret": -70, "Steve": -28, "Betsy": 82},
    {"John": 22, "Margaret": -29, "Steve": -18, "Betsy": 112},
]


def test_the_sample_scorecard_scores_exactly_as_printed() -> None:
    output = scored(bluke(HAND_1, HAND_2_ADDING_UP, HAND_3, first_dealer="Betsy"))
    assert [r["scores"] for r in output["rounds"]] == PRINTED_SCORES
    assert [r["cards"] for r in output["rounds"]] == [13, 12, 11]
    assert output["scores"] == PRINTED_SCORES[-1]
    assert output["finished"] is False
    # "10 / etc": the scorecard's next line deals 10.
    assert schedule("bluke", 4)[3] == 10


def test_who_went_set_on_the_sample_scorecard_is_hooked() -> None:
    """'On the first hand, only Margaret went set.' 'On the second hand, John, Margaret
    and Steve all went set.' 'On the third hand, no players went set.'"""
    output = scored(bluke(HAND_1, HAND_2_ADDING_UP, HAND_3, first_dealer="Betsy"))
    assert [r["hooks"] for r in output["rounds"]] == [
        ["Margaret"],
        ["John", "Margaret", "Steve"],
        [],
    ]


def test_the_overtricks_on_the_sample_scorecard() -> None:
    """'Betsy met her bid exactly. John got 1 overtrick, and Steve got 2.' / 'Betsy got 2
    overtricks.' / 'Steve and Betsy met their bids exactly, and Margaret and John got 1
    overtrick each.'"""
    output = scored(bluke(HAND_1, HAND_2_ADDING_UP, HAND_3, first_dealer="Betsy"))
    points = [r["points"] for r in output["rounds"]]
    assert points[0] == {"John": 31, "Margaret": -30, "Steve": 22, "Betsy": 50}
    assert points[1] == {"John": -20, "Margaret": -40, "Steve": -50, "Betsy": 32}
    assert points[2] == {"John": 11, "Margaret": 41, "Steve": 10, "Betsy": 30}


def test_the_creative_scorecard_hand_whose_tricks_do_not_add_up_is_refused() -> None:
    """'On the second hand, the players collectively overbid (14 of 12).' Its printed
    tricks (1 + 2 + 3 + 5) add up to 11, not the 12 dealt."""
    output = engine.check(bluke(HAND_1, HAND_2_AS_PRINTED, HAND_3, first_dealer="Betsy"))
    assert not output["valid"]
    assert codes(output) == [(2, "tricks_not_cards", "tricks")]
    assert output["errors"][0]["message"] == (
        "The tricks add up to 11 (John 1, Margaret 2, Steve 3, Betsy 5); with 12 cards "
        "dealt to each player a hand has exactly 12 tricks."
    )
    # The hand before it still scores as printed; nothing after it is scored.
    assert [r["scores"] for r in output["rounds"]] == PRINTED_SCORES[:1]
    assert output["next_dealer"] == "John"


def test_the_creative_scorecard_bids_are_not_checked_against_the_cards() -> None:
    """'the players collectively bid the full number of tricks (13 of 13)', 'overbid (14
    of 12)', 'underbid (10 of 11)': any total is allowed. (The third hand's bids as
    printed, 1 + 4 + 1 + 3, add up to 9: the text's "10" is a slip.)"""
    assert sum(HAND_1["bids"].values()) == 13
    assert sum(HAND_2_ADDING_UP["bids"].values()) == 14
    assert sum(HAND_3["bids"].values()) == 9
    scored(bluke(HAND_1, HAND_2_ADDING_UP, HAND_3, first_dealer="Betsy"))


# --- Scoring a hand -----------------------------------------------------------------------

# (id quoting the rule, bid, tricks taken, points)
POINT_CASES = [
    ("'John bid 4, but took no tricks, so he gets -40 points'", 4, 0, -40),
    ("'Even if John bid 4 and took three tricks, the result is the same: -40'", 4, 3, -40),
    ("'Betsy bid 3, and took 5 tricks. So she gets ... a total of 32'", 3, 5, 32),
    ("'10 points times the number of tricks bid' (made exactly)", 5, 5, 50),
    ("made a bid of 1 with all 13 tricks: 10 + 12 overtricks", 1, 13, 22),
]


@pytest.mark.parametrize(("bid", "took", "points"), [c[1:] for c in POINT_CASES])
def test_a_hand_scores_by_the_bid(bid: int, took: int, points: int) -> None:
    rnd = hand({"Ann": bid, "Bob": 1, "Cy": 1}, {"Ann": took, "Bob": 13 - took})
    output = scored(bluke(rnd, players=THREE))
    assert output["rounds"][0]["points"]["Ann"] == points
    # A player who goes set is listed in the round's hooks.
    assert ("Ann" in output["rounds"][0]["hooks"]) == (took < bid)


def test_scores_go_below_zero() -> None:
    """'it is not only possible but very easy to find yourself starting the game with a
    negative score after the first hand'"""
    output = scored(bluke(hand({"Ann": 13, "Bob": 13, "Cy": 13}, {"Ann": 13}), players=THREE))
    assert output["scores"] == {"Ann": 130, "Bob": -130, "Cy": -130}
    assert output["rounds"][0]["hooks"] == ["Bob", "Cy"]


def test_a_zero_bid_is_allowed_by_option_and_cannot_go_set() -> None:
    """Ruling: 'an option allows 0'; by the text's scoring a bid of 0 is made with any
    number of tricks and scores 1 a trick."""
    rnd = hand({"Ann": 0, "Bob": 0, "Cy": 1}, {"Ann": 0, "Bob": 4, "Cy": 9})
    output = scored(bluke(rnd, players=THREE, options={"allow_zero_bid": True}))
    assert output["rounds"][0]["points"] == {"Ann": 0, "Bob": 4, "Cy": 18}
    assert output["rounds"][0]["hooks"] == []


def test_players_not_listed_in_tricks_took_none() -> None:
    """spec: 'tricks (player -> tricks taken; players not listed took 0)'"""
    output = scored(bluke(hand({"Ann": 1, "Bob": 2, "Cy": 1}, {"Bob": 13}), players=THREE))
    assert output["rounds"][0]["points"] == {"Ann": -10, "Bob": 31, "Cy": -10}


def test_the_upcard_is_optional_and_may_be_a_bluke() -> None:
    """'If the card that comes up is a Bluke (one of the 2 jokers), then there is no trump
    for that hand.' Without the cards played the upcard changes nothing in the score."""
    rnd = hand({"Ann": 1, "Bob": 1, "Cy": 1}, {"Ann": 13})
    with_upcards = [
        scored(bluke({**rnd, "upcard": up}, players=THREE))
        for up in ("BH", "BL", "bl", "10S", "7h")
    ]
    assert all(o["rounds"] == with_upcards[0]["rounds"] for o in with_upcards)
    assert with_upcards[0]["rounds"] == scored(bluke(rnd, players=THREE))["rounds"]


# --- The schedule -------------------------------------------------------------------------

#: Ruling: 'k = 13 for 2-4 players and floor(52 / players) above that'
LARGEST = {2: 13, 3: 13, 4: 13, 5: 10, 6: 8, 7: 7, 8: 6, 9: 5, 10: 5, 11: 4, 12: 4, 13: 4}
LARGEST |= {14: 3, 15: 3}


@pytest.mark.parametrize("players", range(2, 16))
def test_the_schedule_for_every_table_size(players: int) -> None:
    """bluke: 'the dealer deals 13 cards to each player on the first hand ... 12 cards on
    the second hand ... until only 1 card is dealt, after which 2 are dealt, then 3, and
    so on all the way back to 13'. bluke-nj: 'players being dealt 1 card on the first
    hand, continuing up to 13 cards on the 13th hand and then continuing back down to 1'."""
    k = LARGEST[players]
    assert standard_max_cards(players) == k
    down_up = [*range(k, 0, -1), *range(2, k + 1)]
    up_down = [*range(1, k + 1), *range(k - 1, 0, -1)]
    assert schedule("bluke", players) == down_up
    assert schedule("bluke-nj", players) == up_down
    assert len(down_up) == len(up_down) == 2 * k - 1
    # 'the remaining cards (2 or more)': the largest hand leaves two of the 54 for the cut.
    assert 54 - players * k >= 2


def test_a_standard_game_is_25_hands() -> None:
    """'Thus for a standard game of Bluke, a total of 25 hands are dealt.'"""
    for players in (2, 3, 4):
        assert len(schedule("bluke", players)) == 25
        assert len(schedule("bluke-nj", players)) == 25


def test_option_max_cards_sets_the_largest_hand() -> None:
    """'it is possible to continue the game up to 17 cards in 3-player Bluke, or 18 if
    players agree that the last hand is automatically a "no trump" hand'."""
    assert hand_sizes(3, rising=False, max_cards=17)[0] == 17
    assert schedule("bluke", 3, 18) == [*range(18, 0, -1), *range(2, 19)]
    assert schedule("bluke-nj", 5, 3) == [1, 2, 3, 2, 1]
    assert schedule("bluke", 5, 0) == schedule("bluke", 5, 10)


def full_game(players: list[str], sizes: list[int], **fields: Any) -> list[dict[str, Any]]:
    """A hand for every size: everyone bids 1 and the first player takes every trick."""
    return [
        {
            "cards": size,
            "bids": dict.fromkeys(players, 1),
            "tricks": {players[0]: size},
            **fields,
        }
        for size in sizes
    ]


@pytest.mark.parametrize("rules", ["bluke", "bluke-nj"])
@pytest.mark.parametrize("players", [2, 4, 5, 9, 15])
def test_the_game_ends_after_the_last_hand_of_the_schedule(rules: str, players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    sizes = schedule(rules, players)
    rounds = full_game(names, sizes)
    output = scored(game(*rounds[:-1], players=names, rules=rules, first_dealer="P0"))
    assert output["finished"] is False
    assert output["winner"] is None
    assert output["next_dealer"] == names[(len(sizes) - 1) % players]
    output = scored(game(*rounds, players=names, rules=rules, first_dealer="P0"))
    assert output["finished"] is True
    assert output["winner"] == "P0"
    assert output["next_dealer"] is None
    assert [r["cards"] for r in output["rounds"]] == sizes
    # Running scores: P0 makes every bid with overtricks, everyone else goes set.
    assert output["scores"]["P0"] == sum(10 + size - 1 for size in sizes)
    assert output["scores"]["P1"] == -10 * len(sizes)


def test_the_dealer_passes_left() -> None:
    """'After the first hand, dealing is passed to the player on the dealer's left'"""
    rounds = full_game(THREE, [13, 12, 11, 10])
    output = scored(game(*rounds, players=THREE, rules="bluke", first_dealer="Bob"))
    assert [r["dealer"] for r in output["rounds"]] == ["Bob", "Cy", "Ann", "Bob"]
    assert output["next_dealer"] == "Cy"


# --- The winner ---------------------------------------------------------------------------


def test_the_highest_score_after_the_last_hand_wins() -> None:
    """'The player with the highest score at the end of the game is declared the winner.'"""
    rounds = full_game(FOUR, schedule("bluke", 4, 2), upcard="2S")
    rounds[-1]["tricks"] = {"Dee": 2}
    output = scored(game(*rounds, players=FOUR, rules="bluke", options={"max_cards": 2}))
    # Ann: 11 + 10 - 10; Dee: -10 - 10 + 11.
    assert output["scores"] == {"Ann": 11, "Bob": -30, "Cy": -30, "Dee": -9}
    assert output["winner"] == "Ann"


def test_an_exact_tie_at_the_top_is_a_shared_win() -> None:
    """Decision (the text is silent on ties): tied players share the win, in seat order."""
    rounds = full_game(FOUR, schedule("bluke-nj", 4, 2))
    rounds[1]["tricks"] = {"Ann": 1, "Cy": 1}
    rounds[2]["tricks"] = {"Cy": 1}
    output = scored(game(*rounds, players=FOUR, rules="bluke-nj", options={"max_cards": 2}))
    assert output["scores"] == {"Ann": 10, "Bob": -30, "Cy": 10, "Dee": -30}
    assert output["winner"] == ["Ann", "Cy"]
    assert engine.next_game_first_dealer(output) is None


def test_a_game_with_no_rounds_is_valid_and_open() -> None:
    output = scored(game(players=FIVE, rules="bluke"))
    assert output["scores"] == dict.fromkeys(FIVE, 0)
    assert output["next_dealer"] == "Ann"
    assert output["finished"] is False


# --- What the tournament layer is told -----------------------------------------------------


def test_the_rule_sets_say_what_the_tournament_layer_needs() -> None:
    for rules_id, name in (("bluke", "Bluke"), ("bluke-nj", "Bluke (New Jersey)")):
        info = engine.rules_info(rules_id)
        assert (info.id, info.name) == (rules_id, name)
        assert (info.min_players, info.max_players) == (2, 15)
        assert info.lower_is_better is False
        assert info.defaults == {"max_cards": 0, "allow_zero_bid": False}
        assert info.round_fields == ("dealer", "cards", "upcard", "bids", "tricks", "play")
        assert info.strategies == ("random", "greedy")
        assert info.as_dict()["options"]["max_cards"]["minimum"] == 0


def test_schedule_refuses_what_no_game_could_have() -> None:
    for rules_id, players, max_cards in (
        ("huckley-buck", 4, 0),
        ("bluke", 1, 0),
        ("bluke", 16, 0),
        ("bluke", 4, 14),
    ):
        with pytest.raises(engine.EngineUsageError):
            schedule(rules_id, players, max_cards)
