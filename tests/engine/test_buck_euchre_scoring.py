"""Buck Euchre (`buck-euchre`) scoring and the end of the game, one case per rule line.

Every expected figure is worked out by hand from the Buck Euchre rules text and the
Buck Euchre ruling of docs/rules-buck-euchre.md, quoted in each case's id or docstring.
Players sit Ann, Bob, Cy, Dee clockwise; Ann deals round 1.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.records import FOUR, codes, game


def be(*rounds: Any, **kw: Any) -> dict[str, Any]:
    return game(*rounds, players=FOUR, rules="buck-euchre", **kw)


def scored(record: dict[str, Any]) -> dict[str, Any]:
    output = engine.check(record)
    assert output["valid"], output["errors"]
    return output


def test_the_rules_info_says_what_the_tournament_layer_needs() -> None:
    info = engine.rules_info("buck-euchre")
    assert (info.min_players, info.max_players) == (4, 4)
    assert info.lower_is_better is True
    assert info.defaults == {
        "start": 25,
        "sweep_wins": True,
        "club_upcard_to_dealer": False,
        "misdeal_set": False,
    }
    assert {"upcard", "trump", "declarer", "out", "tricks"} <= set(info.round_fields)
    assert info.as_dict()["id"] == "buck-euchre"


def test_each_player_starts_the_game_with_25_points() -> None:
    """'Each player starts the game with 25 points.'"""
    output = scored(be())
    assert output["scores"] == dict.fromkeys(FOUR, 25)
    assert output["next_dealer"] == "Ann"
    assert not output["finished"]
    no_dealer = scored(be(first_dealer=None))
    assert no_dealer["scores"] == dict.fromkeys(FOUR, 25)


# (id quoting the rule, round, expected points, expected hooks, i.e. players set)
ROUND_CASES: list[tuple[str, dict[str, Any], dict[str, int], list[str]]] = [
    (
        "'The declarer is obligated to take at least three of the five tricks': made, "
        "'loses one point for each trick they took'",
        {"upcard": "9H", "trump": "H", "declarer": "Bob", "out": ["Ann"],
         "tricks": {"Bob": 3, "Cy": 1, "Dee": 1}},
        {"Ann": 0, "Bob": -3, "Cy": -1, "Dee": -1},
        [],
    ),
    (
        "'The declarer scores a penalty of five points if they failed to collect three or "
        "more tricks' (+5, and no point off for the 2 tricks taken)",
        {"upcard": "9H", "trump": "H", "declarer": "Bob", "tricks": {"Bob": 2, "Cy": 2, "Dee": 1}},
        {"Ann": 5, "Bob": 5, "Cy": -2, "Dee": -1},
        ["Ann", "Bob"],
    ),
    (
        "'Any non-declarer that stayed in the hand scores a penalty of five points if they "
        "failed to collect at least one trick'",
        {"upcard": "AS", "trump": "S", "declarer": "Dee", "out": ["Bob"],
         "tricks": {"Dee": 4, "Ann": 1}},
        {"Ann": -1, "Bob": 0, "Cy": 5, "Dee": -4},
        ["Cy"],
    ),
    (
        "'Any player who dropped out of the hand scores nothing, positive or negative'",
        {"upcard": "KD", "trump": "H", "declarer": "Ann", "out": ["Bob", "Dee"],
         "tricks": {"Ann": 3, "Cy": 2}},
        {"Ann": -3, "Bob": 0, "Cy": -2, "Dee": 0},
        [],
    ),
    (
        "the dealer accepts the upcard: 'the dealer may accept the upcard's suit as trump' "
        "and is the declarer",
        {"upcard": "TD", "trump": "D", "declarer": "Ann", "tricks": {"Ann": 4, "Cy": 1}},
        {"Ann": -4, "Bob": 5, "Cy": -1, "Dee": 5},
        ["Bob", "Dee"],
    ),
    (
        "round two: 'name another suit as trump' (clubs named over a heart upcard)",
        {"upcard": "QH", "trump": "C", "declarer": "Cy", "tricks": {"Cy": 3, "Dee": 2},
         "out": ["Ann", "Bob"]},
        {"Ann": 0, "Bob": 0, "Cy": -3, "Dee": -2},
        [],
    ),
    (
        "dirty clubs: 'If the upcard is a club, clubs automatically become trump' and Ruling: "
        "'every player must take a trick or pay 5'",
        {"upcard": "9C", "trump": "C", "declarer": None,
         "tricks": {"Ann": 2, "Bob": 2, "Cy": 1, "Dee": 0}},
        {"Ann": -2, "Bob": -2, "Cy": -1, "Dee": 5},
        ["Dee"],
    ),
    (
        "dirty clubs with only the upcard given: trump follows from it",
        {"upcard": "JC", "tricks": {"Ann": 1, "Bob": 1, "Cy": 1, "Dee": 2}},
        {"Ann": -1, "Bob": -1, "Cy": -1, "Dee": -2},
        [],
    ),
    (
        "dirty clubs without the upcard: clubs trump and no declarer can only be dirty clubs",
        {"trump": "C", "tricks": {"Ann": 4, "Bob": 1}},
        {"Ann": -4, "Bob": -1, "Cy": 5, "Dee": 5},
        ["Cy", "Dee"],
    ),
    (
        "'If all four players decline to name a trump suit, then the hand is played with no "
        "trump' and Ruling: every player must take a trick or pay 5",
        {"upcard": "9S", "trump": None, "declarer": None,
         "tricks": {"Ann": 3, "Bob": 1, "Cy": 1}},
        {"Ann": -3, "Bob": -1, "Cy": -1, "Dee": 5},
        ["Dee"],
    ),
    (
        "spec: 'tricks (player -> tricks taken; players not listed took 0)'",
        {"trump": "S", "declarer": "Cy", "tricks": {"Cy": 3, "Ann": 2}},
        {"Ann": -2, "Bob": 5, "Cy": -3, "Dee": 5},
        ["Bob", "Dee"],
    ),
    (
        "trump letters may be lower case; trick_winners alone stands for tricks",
        {"trump": "h", "declarer": "Dee", "out": ["Ann"],
         "trick_winners": ["Dee", "Bob", "Dee", "Cy", "Dee"]},
        {"Ann": 0, "Bob": -1, "Cy": -1, "Dee": -3},
        [],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("rnd", "points", "hooks"), [c[1:] for c in ROUND_CASES],
                         ids=[c[0] for c in ROUND_CASES])  # fmt: skip
def test_one_round_scores_as_the_rules_say(
    rnd: dict[str, Any], points: dict[str, int], hooks: list[str]
) -> None:
    output = scored(be(rnd))
    (result,) = output["rounds"]
    assert result["points"] == points
    assert result["hooks"] == hooks
    assert result["scores"] == {p: 25 + points[p] for p in FOUR}
    assert output["scores"] == result["scores"]
    assert result["dealer"] == "Ann"
    assert output["next_dealer"] == "Bob"


def test_the_deal_passes_to_the_left() -> None:
    """'The deal passes to the left, and another hand is played.'"""
    rnd = {"trump": None, "tricks": {"Ann": 2, "Bob": 1, "Cy": 1, "Dee": 1}}
    output = scored(be(rnd, rnd, rnd, rnd, rnd, first_dealer="Cy"))
    assert [r["dealer"] for r in output["rounds"]] == ["Cy", "Dee", "Ann", "Bob", "Cy"]
    assert output["next_dealer"] == "Dee"
    # Five rounds of -2, -1, -1, -1.
    assert output["scores"] == {"Ann": 15, "Bob": 20, "Cy": 20, "Dee": 20}


def test_taking_all_five_tricks_wins_the_game_at_once() -> None:
    """'If any player collects all five tricks, the game ends, with that player winning.'

    Bob is at 20 when the game ends: the sweep wins, not the score. The hand is still
    scored (Bob -5; Ann, Cy and Dee stayed in with no trick: +5 each).
    """
    output = scored(be({"upcard": "9H", "trump": "H", "declarer": "Bob", "tricks": {"Bob": 5}}))
    assert output["finished"]
    assert output["winner"] == "Bob"
    assert output["scores"] == {"Ann": 30, "Bob": 20, "Cy": 30, "Dee": 30}
    assert output["next_dealer"] is None
    assert engine.next_game_first_dealer(output) == "Bob"


def test_a_declarer_left_alone_takes_all_five_and_wins() -> None:
    """Decision: all three others may drop; the declarer then takes all five tricks."""
    rnd = {"trump": "S", "declarer": "Cy", "out": ["Ann", "Bob", "Dee"], "tricks": {"Cy": 5}}
    output = scored(be(rnd))
    assert output["winner"] == "Cy"
    assert output["rounds"][0]["points"] == {"Ann": 0, "Bob": 0, "Cy": -5, "Dee": 0}


def test_a_non_declarer_can_sweep_too() -> None:
    """'If any player collects all five tricks': any player, not only the declarer."""
    rnd = {"trump": "S", "declarer": "Cy", "tricks": {"Dee": 5}}
    output = scored(be(rnd))
    assert output["winner"] == "Dee"
    assert output["rounds"][0]["hooks"] == ["Ann", "Bob", "Cy"]


def test_with_sweep_wins_off_five_tricks_are_five_points() -> None:
    rnd = {"trump": "S", "declarer": "Cy", "tricks": {"Cy": 5}}
    output = scored(be(rnd, options={"sweep_wins": False}))
    assert not output["finished"]
    assert output["winner"] is None
    assert output["scores"]["Cy"] == 20


def test_reaching_zero_wins() -> None:
    """'Further hands are played until a player's score reaches zero or less. That player
    is the winner.' Starting from 3 (option start), Bob makes 3 tricks as declarer: 0."""
    rnd = {"trump": "D", "declarer": "Bob", "out": ["Cy"], "tricks": {"Bob": 3, "Ann": 1, "Dee": 1}}
    output = scored(be(rnd, options={"start": 3}))
    assert output["finished"]
    assert output["winner"] == "Bob"
    assert output["scores"] == {"Ann": 2, "Bob": 0, "Cy": 3, "Dee": 2}


def test_one_above_zero_plays_on() -> None:
    rnd = {"trump": "D", "declarer": "Bob", "out": ["Cy"], "tricks": {"Bob": 3, "Ann": 1, "Dee": 1}}
    output = scored(be(rnd, options={"start": 4}))
    assert not output["finished"]
    assert output["scores"]["Bob"] == 1
    assert output["next_dealer"] == "Bob"


def test_the_further_negative_wins() -> None:
    """'If two players reach zero or less on the same hand, the player that is further in
    the negative wins the game.' From 2: no trump, Ann 3 tricks (-1), Bob 2 (0)."""
    rnd = {"trump": None, "tricks": {"Ann": 3, "Bob": 2}}
    output = scored(be(rnd, options={"start": 2}))
    assert output["scores"] == {"Ann": -1, "Bob": 0, "Cy": 7, "Dee": 7}
    assert output["winner"] == "Ann"


def test_an_exact_tie_is_shared() -> None:
    """'If the players have the same score, they tie.' From 2: Ann 2 tricks and Bob 2
    tricks both reach 0; the winner is the list of both, in seat order."""
    rnd = {"trump": None, "tricks": {"Bob": 2, "Ann": 2, "Cy": 1}}
    output = scored(be(rnd, options={"start": 2}))
    assert output["finished"]
    assert output["winner"] == ["Ann", "Bob"]
    assert output["scores"] == {"Ann": 0, "Bob": 0, "Cy": 1, "Dee": 7}
    # A shared win names no single first dealer for the next game: the table draws.
    assert engine.next_game_first_dealer(output) is None


def test_a_tie_above_the_lowest_score_does_not_share_the_win() -> None:
    """'the player that is further in the negative wins': from 1, no trump, Ann takes 2
    tricks (-1) and Bob, Cy and Dee one each (0 each): Ann alone wins."""
    rnd = {"trump": None, "tricks": {"Ann": 2, "Bob": 1, "Cy": 1, "Dee": 1}}
    output = scored(be(rnd, options={"start": 1}))
    assert output["scores"] == {"Ann": -1, "Bob": 0, "Cy": 0, "Dee": 0}
    assert output["winner"] == "Ann"


def test_rounds_after_the_end_are_refused() -> None:
    """spec: 'Rounds after the end of a game are an error (game_over)'."""
    sweep = {"trump": "H", "declarer": "Bob", "tricks": {"Bob": 5}}
    output = engine.check(be(sweep, {"trump": None, "tricks": {"Ann": 5}}))
    assert codes(output) == [(2, "game_over", None)]
    assert "Bob won" in output["errors"][0]["message"]
    assert output["finished"]
    assert output["winner"] == "Bob"
    tie = {"trump": None, "tricks": {"Bob": 2, "Ann": 2, "Cy": 1}}
    output = engine.check(be(tie, tie, options={"start": 2}))
    assert codes(output) == [(2, "game_over", None)]
    assert "Ann, Bob shared the win" in output["errors"][0]["message"]


def test_scores_may_run_below_zero_and_above_the_start() -> None:
    """Nothing in the text floors or caps a score: 25 + 5 sets is 30."""
    output = scored(be({"trump": None, "tricks": {"Ann": 5}}, options={"sweep_wins": False}))
    assert output["scores"] == {"Ann": 20, "Bob": 30, "Cy": 30, "Dee": 30}


def test_a_misdeal_scores_nothing_and_the_deal_passes() -> None:
    """Decision (the text has no misdeal rule): nobody scores, the next player deals."""
    output = scored(be({"misdeal": True}, {"trump": None, "tricks": {"Ann": 5}}))
    assert output["rounds"][0] == {
        "dealer": "Ann",
        "points": dict.fromkeys(FOUR, 0),
        "hooks": [],
        "scores": dict.fromkeys(FOUR, 25),
    }
    assert output["rounds"][1]["dealer"] == "Bob"


def test_option_misdeal_set_sets_the_dealer() -> None:
    output = scored(be({"misdeal": True}, options={"misdeal_set": True}))
    assert output["rounds"][0]["points"] == {"Ann": 5, "Bob": 0, "Cy": 0, "Dee": 0}
    assert output["rounds"][0]["hooks"] == ["Ann"]


def test_the_first_dealer_may_come_from_round_one() -> None:
    output = scored(be({"dealer": "Dee", "trump": None, "tricks": {"Ann": 5}}, first_dealer=None))
    assert output["rounds"][0]["dealer"] == "Dee"


def test_a_whole_game_of_summary_rounds() -> None:
    """Four hands worked by hand from 25 (default options).

    1. Ann deals, Bob orders up hearts, Cy drops: Bob 3 (-3), Dee 1 (-1), Ann 1 (-1).
    2. Bob deals, club upcard: Ann 1, Bob 1, Cy 3, Dee 0: -1, -1, -3, Dee +5.
    3. Cy deals, Dee names spades in round two and is euchred with 2; Ann 2, Bob 1,
       Cy out: Dee +5, Ann -2, Bob -1.
    4. Dee deals, all pass: Ann 2, Bob 1, Cy 1, Dee 1.
    """
    output = scored(
        be(
            {
                "upcard": "9H",
                "trump": "H",
                "declarer": "Bob",
                "out": ["Cy"],
                "tricks": {"Bob": 3, "Dee": 1, "Ann": 1},
            },
            {
                "upcard": "AC",
                "trump": "C",
                "declarer": None,
                "tricks": {"Ann": 1, "Bob": 1, "Cy": 3},
            },
            {
                "upcard": "TD",
                "trump": "S",
                "declarer": "Dee",
                "out": ["Cy"],
                "tricks": {"Dee": 2, "Ann": 2, "Bob": 1},
            },
            {
                "upcard": "KS",
                "trump": None,
                "declarer": None,
                "tricks": {"Ann": 2, "Bob": 1, "Cy": 1, "Dee": 1},
            },
        )
    )
    totals = [r["scores"] for r in output["rounds"]]
    assert totals == [
        {"Ann": 24, "Bob": 22, "Cy": 25, "Dee": 24},
        {"Ann": 23, "Bob": 21, "Cy": 22, "Dee": 29},
        {"Ann": 21, "Bob": 20, "Cy": 22, "Dee": 34},
        {"Ann": 19, "Bob": 19, "Cy": 21, "Dee": 33},
    ]
    assert [r["hooks"] for r in output["rounds"]] == [[], ["Dee"], ["Dee"], []]
    assert output["next_dealer"] == "Ann"
    assert not output["finished"]
