"""Ten-Point Buck (`ten-point-buck`): the deck, the play rules, scoring and the end of a game.

Every expected value below is worked out by hand from the Ten-Point Buck rules text and
the ruling in docs/rules-ten-point-buck.md, quoted in the test names and docstrings; none
is copied from the engine's output. Refusals are in test_ten_point_buck_refusals.py (those
of card-level play in test_ten_point_buck_play_refusals.py), the properties in
test_ten_point_buck_properties.py.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.games.ten_point_buck.cards import (
    DECK_POINTS,
    DECK_SIZE,
    FULL_DECK,
    NAME_OF_BIT,
    SLOT,
    VALUE_MASK,
    VALUE_OF_BIT,
    bits_of,
    parse_card,
    undealt_points_range,
)
from engine.games.ten_point_buck.play import legal_cards, trick_winner
from tests.engine.records import FIVE, FOUR, THREE, game
from tests.engine.test_cli import run

ROOT = Path(__file__).resolve().parents[2]
RULES = "ten-point-buck"


def tpb(*rounds: Any, players: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    return game(*rounds, players=players or FOUR, rules=RULES, **kwargs)


def hand(*cards: str) -> int:
    """A hand as the engine's bit mask: each card takes a free copy of its kind."""
    mask = 0
    for text in cards:
        kind = parse_card(text)
        assert kind is not None, text
        free = SLOT[kind] & ~mask
        assert free, f"more {text} than the deck holds"
        mask |= free & -free
    return mask


def legal(held: list[str], trick: list[str]) -> list[str]:
    in_trick = 0
    for text in trick:
        kind = parse_card(text)
        assert kind is not None
        in_trick |= VALUE_MASK[int(text.rstrip("wW"))]
    return [NAME_OF_BIT[b] for b in bits_of(legal_cards(hand(*held), in_trick))]


# ---------------------------------------------------------------------------------------
# The deck.


def test_the_deck_holds_56_cards_and_220_points() -> None:
    """Components: "56 cards, including ten 1s, nine 2s, eight 3s, and so on, down to one
    10-point card, the Buck, and also one 0, the Doe"; Ruling: "the deck holds 220
    points" (10x1 + 9x2 + 8x3 + 7x4 + 6x5 + 5x6 + 4x7 + 3x8 + 2x9 + 1x10 = 220)."""
    assert DECK_SIZE == 56
    assert DECK_POINTS == 220
    assert sum(VALUE_OF_BIT) == 220
    values = [VALUE_OF_BIT[b] for b in bits_of(FULL_DECK)]
    assert [values.count(v) for v in range(11)] == [1, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_one_card_of_each_value_is_white() -> None:
    """Components: "One copy of each card in a rank is colored white"; Ruling: "for
    each value 1..10 one white (trump) card, plus normal cards nine 1s, eight 2s, ... one 9,
    plus the Doe (value 0, white)"."""
    names = [NAME_OF_BIT[b] for b in bits_of(FULL_DECK)]
    assert sorted(n for n in names if n.endswith("w")) == sorted(f"{v}w" for v in range(11))
    assert [names.count(str(v)) for v in range(1, 10)] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert "10" not in names
    assert "0" not in names


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        *[("7", True), ("7w", True), ("7W", True), ("0w", True), ("10w", True), ("1", True)],
        *[("10", False), ("0", False), ("11w", False), ("7x", False), ("", False), ("w", False)],
    ],
)
def test_cards_are_written_as_the_value_with_w_for_white(text: str, ok: bool) -> None:
    """Spec, Cards: "the value 0-10, with w for a white (trump) card: 7, 7w, 0w (the Doe),
    10w (the Buck)". There is no normal 0 or 10."""
    assert (parse_card(text) is not None) is ok


def test_the_undealt_cards_at_each_table_size() -> None:
    """Ruling: "Dealing 10 each leaves cards undealt at 3 and 4 players, and 6
    undealt at 5". By hand: 26 undealt at 3 players hold at least the Doe, ten 1s, nine
    2s and six 3s (0 + 10 + 18 + 18 = 46) and at most the 10, two 9s, three 8s, four 7s,
    five 6s, six 5s and five 4s (10 + 18 + 24 + 28 + 30 + 30 + 20 = 160); 16 at 4 players
    hold 0 + 10 + 10 = 20 to 10 + 18 + 24 + 28 + 30 + 5 = 115; 6 at 5 players 0 + 5 = 5 to
    10 + 9 + 9 + 8 + 8 + 8 = 52."""
    assert undealt_points_range(3, False) == (46, 160)
    assert undealt_points_range(4, False) == (20, 115)
    assert undealt_points_range(5, False) == (5, 52)
    # With the Doe and the Buck dealt, at 5 players: six 1s (6) to 9+9+8+8+8+7 (49).
    assert undealt_points_range(5, True) == (6, 49)


# ---------------------------------------------------------------------------------------
# Legal plays and trick winners.

LEGAL_CASES: list[tuple[str, list[str], list[str], list[str]]] = [
    ("the leader may lead any card", ["8", "8w", "3"], [], ["3", "8", "8w"]),
    (
        "'another player cannot play another 8 to the trick, including the 8 of trump'",
        ["8", "8w", "3"],
        ["8"],
        ["3"],
    ),
    (
        "'unless that player has no other option': only 8s left",
        ["8", "8w"],
        ["8"],
        ["8", "8w"],
    ),
    ("a normal 8 after the white 8 is barred too", ["8", "2w"], ["8w"], ["2w"]),
    (
        "every rank already in the trick is barred, not only the led one",
        ["5", "7", "7w", "9"],
        ["5", "9"],
        ["7", "7w"],
    ),
    ("a rank not yet in the trick is free, whatever was led", ["4", "6w"], ["5"], ["4", "6w"]),
    (
        "'unless it is their only available option': every card's rank is in the trick",
        ["5", "9"],
        ["5", "9"],
        ["5", "9"],
    ),
    ("the Doe is of rank 0, never in a trick before it", ["0w", "10w"], ["10w"], ["0w"]),
]


@pytest.mark.parametrize(
    ("held", "trick", "expected"),
    [case[1:] for case in LEGAL_CASES],
    ids=[case[0] for case in LEGAL_CASES],
)
def test_legal_plays(held: list[str], trick: list[str], expected: list[str]) -> None:
    """Legal Plays: "A player may not choose to play a card to the trick if there is
    already a card of that rank in the trick, unless it is their only available option."""
    assert legal(held, trick) == expected


WINNER_CASES: list[tuple[str, list[str], int]] = [
    (
        "'if a trick contains no trump cards, whoever played the highest normal card'",
        ["5", "9", "7"],
        1,
    ),
    ("'Whoever plays the highest card of the trump suit wins the trick'", ["9", "2w", "8"], 1),
    ("the higher of two white cards", ["3w", "9", "7w"], 2),
    ("'a tie between normal cards': the first of the highest rank", ["3", "6", "6"], 1),
    ("a tie of the led rank goes to the leader", ["6", "6", "2"], 0),
    ("a white card beats a tie of normal cards", ["6", "6", "1w"], 2),
    ("'the Doe ... will take a trick if all the other cards ... are normal'", ["9", "0w", "8"], 1),
    ("the Doe loses to any other white card", ["0w", "1w", "9"], 1),
    (
        "'if the Doe and the Ten-Point Buck are played to the same trick ... the Doe card wins'",
        ["10w", "0w", "9"],
        1,
    ),
    ("the Doe beats the Buck when played first too", ["0w", "10w", "5"], 0),
    ("the Doe beats the Buck among other white cards", ["9w", "10w", "8w", "0w", "1"], 3),
    ("without the Doe the Buck is the highest card", ["9w", "10w", "8w"], 1),
]


@pytest.mark.parametrize(
    ("cards", "winner"),
    [case[1:] for case in WINNER_CASES],
    ids=[case[0] for case in WINNER_CASES],
)
def test_trick_winners(cards: list[str], winner: int) -> None:
    """Tricks and The Doe, as quoted in each case."""
    assert trick_winner(cards) == winner


# ---------------------------------------------------------------------------------------
# A whole round played card by card, worked out by hand.
#
# Ann deals at a table of three, so Bob, on her left, leads the first trick ("play begins
# with the lead going to the player on the dealer's left"); each trick's winner leads the
# next ("whoever won the trick takes the lead for the next trick").
#
#  trick  leader  cards (from the leader)   winner  why                         points
#   1     Bob     Bob 5, Cy 7, Ann 6         Cy     highest normal card         18
#   2     Cy      Cy 3, Ann 2w, Bob 8        Ann    the only white card         13
#   3     Ann     Ann 10w, Bob 0w, Cy 9w     Bob    the Doe takes the Buck      19 (+2 HP)
#   4     Bob     Bob 1, Cy 8w, Ann 9        Cy     the only white card         18
#   5     Cy      Cy 1w, Ann 7w, Bob 6w      Ann    the highest white card      14
#   6     Ann     Ann 5w, Bob 4w, Cy 2       Ann    the highest white card      11
#   7     Ann     Ann 4, Bob 6, Cy 5         Bob    highest normal card         15
#   8     Bob     Bob 7, Cy 3, Ann 1         Bob    highest normal card         11
#   9     Bob     Bob 2, Cy 6, Ann 8         Ann    highest normal card         16
#  10     Ann     Ann 3, Bob 4, Cy 4         Bob    tie of 4s: the first played 11
#
# In trick 10 Cy's 4 is legal although a 4 is in the trick: it is Cy's last card.
# Card points: Ann 13 + 14 + 11 + 16 = 54; Bob 19 + 15 + 11 + 11 = 56; Cy 18 + 18 = 36
# (146 in all: the 30 cards dealt). Bids Ann 54, Bob 60, Cy 20: Ann exact, 10 Hunting
# Points; Bob 4 away, 5, plus the Doe's 2 = 7; Cy 16 away, 0.

PLAYED_TRICKS = [
    ["5", "7", "6"],
    ["3", "2w", "8"],
    ["10w", "0w", "9w"],
    ["1", "8w", "9"],
    ["1w", "7w", "6w"],
    ["5w", "4w", "2"],
    ["4", "6", "5"],
    ["7", "3", "1"],
    ["2", "6", "8"],
    ["3", "4", "4"],
]
PLAYED_HANDS = {
    "Ann": ["6", "2w", "10w", "9", "7w", "5w", "4", "1", "8", "3"],
    "Bob": ["5", "8", "0w", "1", "6w", "4w", "6", "7", "2", "4"],
    "Cy": ["7", "3", "9w", "8w", "1w", "2", "5", "3", "6", "4"],
}
PLAYED_ROUND: dict[str, Any] = {
    "dealer": "Ann",
    "bids": {"Ann": 54, "Bob": 60, "Cy": 20},
    "play": {"hands": PLAYED_HANDS, "tricks": PLAYED_TRICKS},
}


def played_game(**fields: Any) -> dict[str, Any]:
    return tpb(copy.deepcopy(PLAYED_ROUND) | fields, players=THREE)


def test_a_round_played_card_by_card() -> None:
    output = engine.check(played_game())
    assert output["valid"], output["errors"]
    (rnd,) = output["rounds"]
    assert rnd["card_points"] == {"Ann": 54, "Bob": 56, "Cy": 36}
    assert rnd["doe_bonus"] == "Bob"
    assert rnd["points"] == {"Ann": 10, "Bob": 7, "Cy": 0}
    assert rnd["scores"] == {"Ann": 10, "Bob": 7, "Cy": 0}
    assert rnd["hooks"] == []
    assert output["next_dealer"] == "Bob"
    assert not output["finished"]


def test_the_cards_agree_with_summary_fields_entered_alongside() -> None:
    output = engine.check(played_game(points={"Ann": 54, "Bob": 56, "Cy": 36}, doe_bonus="Bob"))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": 10, "Bob": 7, "Cy": 0}


def test_the_same_round_entered_as_a_summary_scores_the_same() -> None:
    summary = {
        "dealer": "Ann",
        "bids": {"Ann": 54, "Bob": 60, "Cy": 20},
        "points": {"Ann": 54, "Bob": 56, "Cy": 36},
        "doe_bonus": "Bob",
    }
    output = engine.check(tpb(summary, players=THREE))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": 10, "Bob": 7, "Cy": 0}


def test_a_card_of_a_rank_already_in_the_trick_is_a_renege() -> None:
    """Legal Plays. Cy plays the 5 of trick 7 in trick 1 instead of the 7, after Bob's 5,
    while holding cards of other ranks: a renege. Cy then held 7, 3, 9w, 8w, 1w, 2, 5, 3,
    6, 4, so every card but the 5 was allowed."""
    record = played_game()
    tricks = record["rounds"][0]["play"]["tricks"]
    tricks[0][1], tricks[6][2] = "5", "7"
    output = engine.check(record)
    (error,) = output["errors"]
    assert (error["code"], error["field"], error["player"]) == ("renege", "play", "Cy")
    assert "Trick 1" in error["message"]
    assert "5 from Bob" in error["message"]
    assert "1w, 2, 3, 3, 4, 6, 7, 8w, 9w" in error["message"]


def test_the_doe_bonus_goes_to_the_doe_even_when_led() -> None:
    """The Doe: "if the Doe and the Ten-Point Buck are played to the same trick, then the
    Doe card wins the trick. The player who won this trick also immediately scores 2
    Hunting Points." Ann's Buck and Bob's Doe change hands: in trick 3 Ann leads the Doe,
    Bob plays the Buck, Cy 9w, and the Doe wins. Ann takes 13 + 19 + 14 + 11 + 16 = 73
    points and the bonus; Bob 15 + 11 + 11 = 37."""
    record = played_game()
    hands = record["rounds"][0]["play"]["hands"]
    hands["Ann"][2], hands["Bob"][2] = "0w", "10w"
    record["rounds"][0]["play"]["tricks"][2] = ["0w", "10w", "9w"]
    # Ann now leads trick 4 in Bob's place, so the order of that trick turns: Ann 9,
    # Bob 1, Cy 8w; Cy still wins it with the only white card.
    record["rounds"][0]["play"]["tricks"][3] = ["9", "1", "8w"]
    output = engine.check(record)
    assert output["valid"], output["errors"]
    rnd = output["rounds"][0]
    assert rnd["card_points"] == {"Ann": 73, "Bob": 37, "Cy": 36}
    assert rnd["doe_bonus"] == "Ann"
    # Ann bid 54: 19 away, 0, plus 2; Bob bid 60: 23 away, 0; Cy 16 away, 0.
    assert rnd["points"] == {"Ann": 2, "Bob": 0, "Cy": 0}


# ---------------------------------------------------------------------------------------
# Scoring.

# (distance, Hunting Points) at each edge of the table in Scoring.
HUNTING = [(0, 10), (1, 5), (5, 5), (6, 3), (10, 3), (11, 2), (15, 2), (16, 0), (40, 0)]


@pytest.mark.parametrize(("distance", "hunting"), HUNTING)
@pytest.mark.parametrize("over", [True, False], ids=["took more", "took fewer"])
def test_hunting_points_by_distance_from_the_bid(distance: int, hunting: int, over: bool) -> None:
    """Scoring: "Exact Bid: 10 Hunting Points; 1-5 Points Away: 5; 6-10 Points Away: 3;
    11-15 Points Away: 2; 16+ Points Away: 0", either side of the bid."""
    took = 50
    bid = took - distance if over else took + distance
    rnd = {
        "bids": {"Ann": bid, "Bob": 50, "Cy": 50, "Dee": 50},
        "points": {"Ann": took, "Bob": 40, "Cy": 40, "Dee": 30},
    }
    output = engine.check(tpb(rnd))
    assert output["valid"], output["errors"]
    points = output["rounds"][0]["points"]
    # Bob and Cy are 10 away (3), Dee 20 away (0).
    assert points == {"Ann": hunting, "Bob": 3, "Cy": 3, "Dee": 0}


def test_a_bid_of_zero_made_exactly() -> None:
    """Bidding: "A bid can be any whole positive number or zero"."""
    rnd = {
        "bids": {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0},
        "points": {"Ann": 0, "Bob": 50, "Cy": 60, "Dee": 50},
    }
    output = engine.check(tpb(rnd))
    assert output["rounds"][0]["points"] == {"Ann": 10, "Bob": 0, "Cy": 0, "Dee": 0}


def test_the_doe_bonus_adds_2_hunting_points_in_a_summary() -> None:
    """The Doe: "The player who won this trick also immediately scores 2 Hunting Points."
    Ann exact (10), Bob 2 away and Cy 4 away (5 each); Dee 16 away (0) took the bonus: 2."""
    rnd = {
        "bids": {"Ann": 40, "Bob": 40, "Cy": 40, "Dee": 40},
        "points": {"Ann": 40, "Bob": 42, "Cy": 36, "Dee": 24},
        "doe_bonus": "Dee",
    }
    output = engine.check(tpb(rnd))
    assert output["valid"], output["errors"]
    assert output["rounds"][0]["points"] == {"Ann": 10, "Bob": 5, "Cy": 5, "Dee": 2}
    assert output["rounds"][0]["doe_bonus"] == "Dee"


def test_hooks_are_always_empty() -> None:
    """Ten-Point Buck has no hooks: a round with zero Hunting Points for everyone lists
    none (the output field is kept for every game)."""
    rnd = {"bids": dict.fromkeys(FOUR, 100), "points": dict.fromkeys(FOUR, 40)}
    output = engine.check(tpb(rnd))
    assert output["rounds"][0]["points"] == dict.fromkeys(FOUR, 0)
    assert output["rounds"][0]["hooks"] == []


# ---------------------------------------------------------------------------------------
# The game: the deal rotates, five rounds, extra rounds on a tie at the top.


def summary(hunting: dict[str, int]) -> dict[str, Any]:
    """A 4-player round that gives each player `hunting` Hunting Points (10, 5 or 0):
    everyone takes 40 card points (160 in all) and bids 40, 45 or 60."""
    bid = {10: 40, 5: 45, 0: 60}
    return {
        "bids": {p: bid[hunting[p]] for p in FOUR},
        "points": dict.fromkeys(FOUR, 40),
    }


def test_the_deal_passes_clockwise() -> None:
    """Setup: "The dealer changes each round, proceeding clockwise around the table"."""
    rounds = [summary(dict.fromkeys(FOUR, 0)) | {"dealer": d} for d in ["Cy", "Dee", "Ann"]]
    output = engine.check(tpb(*rounds, first_dealer="Cy"))
    assert output["valid"], output["errors"]
    assert [r["dealer"] for r in output["rounds"]] == ["Cy", "Dee", "Ann"]
    assert output["next_dealer"] == "Bob"


def test_the_game_ends_after_five_rounds_with_the_most_hunting_points() -> None:
    """End of Game: "After 5 rounds of play, whoever has the most Hunting Points wins."
    Ann 10 a round: 50; Bob 5 a round: 25."""
    rounds = [summary({"Ann": 10, "Bob": 5, "Cy": 0, "Dee": 0}) for _ in range(5)]
    four = engine.check(tpb(*rounds[:4]))
    assert not four["finished"]
    assert four["winner"] is None
    assert four["next_dealer"] == "Ann"
    output = engine.check(tpb(*rounds))
    assert output["valid"], output["errors"]
    assert output["finished"]
    assert output["winner"] == "Ann"
    assert output["scores"] == {"Ann": 50, "Bob": 25, "Cy": 0, "Dee": 0}
    assert output["next_dealer"] is None
    assert engine.next_game_first_dealer(output) == "Ann"


def test_a_tie_at_the_top_plays_extra_rounds() -> None:
    """End of Game: "If there is a tie, additional rounds are played until the tie is
    broken." Ann and Bob both 50 after five rounds: round 6 ties them again at 55; in
    round 7 Bob takes 10 and Ann 5, so Bob wins, 65 to 60."""
    level = {"Ann": 10, "Bob": 10, "Cy": 0, "Dee": 5}
    rounds = [summary(level) for _ in range(5)]
    rounds.append(summary({"Ann": 5, "Bob": 5, "Cy": 10, "Dee": 0}))
    rounds.append(summary({"Ann": 5, "Bob": 10, "Cy": 0, "Dee": 0}))
    for count in (5, 6):
        output = engine.check(tpb(*rounds[:count]))
        assert output["valid"], output["errors"]
        assert not output["finished"]
        assert output["winner"] is None
    output = engine.check(tpb(*rounds))
    assert output["finished"]
    assert output["winner"] == "Bob"
    assert output["scores"] == {"Ann": 60, "Bob": 65, "Cy": 10, "Dee": 25}


def test_everyone_plays_the_extra_rounds_and_anyone_can_win_them() -> None:
    """Decision: every player plays the extra rounds, and the game ends as soon as one
    player alone has the most. Ann and Bob tie at 50 with Cy at 45; in round 6 Cy takes
    10 and they take 0, so Cy wins with 55."""
    rounds = [summary({"Ann": 10, "Bob": 10, "Cy": 10 if k else 5, "Dee": 0}) for k in range(5)]
    rounds.append(summary({"Ann": 0, "Bob": 0, "Cy": 10, "Dee": 0}))
    output = engine.check(tpb(*rounds))
    assert output["finished"]
    assert output["winner"] == "Cy"
    assert output["scores"]["Cy"] == 55


def test_option_tie_break_shared_ends_on_a_tie() -> None:
    rounds = [summary({"Ann": 10, "Bob": 10, "Cy": 0, "Dee": 0}) for _ in range(5)]
    output = engine.check(tpb(*rounds, options={"tie_break": "shared"}))
    assert output["finished"]
    assert output["winner"] == ["Ann", "Bob"]
    assert engine.next_game_first_dealer(output) is None


def test_option_rounds_sets_the_length() -> None:
    rounds = [summary({"Ann": 0, "Bob": 5, "Cy": 0, "Dee": 0}) for _ in range(3)]
    output = engine.check(tpb(*rounds, options={"rounds": 3}))
    assert output["finished"]
    assert output["winner"] == "Bob"


def test_rules_info() -> None:
    info = engine.rules_info(RULES)
    assert (info.min_players, info.max_players) == (3, 5)
    assert info.lower_is_better is False
    assert info.defaults == {"rounds": 5, "tie_break": "play_on"}
    assert set(info.round_fields) == {"dealer", "bids", "points", "doe_bonus", "play"}
    assert json.loads(json.dumps(info.as_dict()))["id"] == RULES


# ---------------------------------------------------------------------------------------
# Simulation and the command line.


@pytest.mark.parametrize("players", [THREE, FOUR, FIVE])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_simulated_games_check_as_valid_and_finished(players: list[str], strategy: str) -> None:
    for card_play in (False, True):
        record = engine.simulate(RULES, players, seed=11, strategy=strategy, card_play=card_play)
        output = engine.check(record)
        assert output["valid"], output["errors"]
        assert output["finished"]
        assert len(output["rounds"]) >= 5
        assert all(("play" in r) == card_play for r in record["rounds"])


def test_the_command_line_simulates_and_checks() -> None:
    sim = run("simulate", "--rules", RULES, "--players", "4", "--seed", "7", "--card-play")
    assert sim.returncode == 0, sim.stderr
    record = json.loads(sim.stdout)
    assert record["rules"] == RULES
    checked = run("check", "-", stdin=sim.stdout)
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["finished"] is True
