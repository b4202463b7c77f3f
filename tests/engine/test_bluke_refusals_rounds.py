"""A refused Bluke round within its game: every problem of the first bad round is
reported, the rounds before it are scored, and a round after the game ended is refused
while the game keeps its winner (or its shared win). Each refusal's code and message are
in test_bluke_refusals.py."""

from __future__ import annotations

import engine
from tests.engine.bluke_rounds import SMALL, rnd
from tests.engine.records import THREE, game


def test_every_problem_in_the_first_bad_round_is_reported() -> None:
    record = game(
        {"cards": 12, "bids": {"Ann": 0, "Bob": 14}, "tricks": {"Ann": 5}},
        players=THREE,
        rules="bluke",
    )
    output = engine.check(record)
    assert [(e["code"], e.get("player")) for e in output["errors"]] == [
        ("wrong_cards", None),
        ("bid_out_of_range", "Ann"),
        ("bid_out_of_range", "Bob"),
        ("bid_missing", "Cy"),
        ("tricks_not_cards", None),
    ]
    assert output["rounds"] == []
    assert output["next_dealer"] == "Ann"


def test_the_rounds_before_the_first_bad_one_are_scored() -> None:
    record = game(rnd(), rnd(tricks={"Ann": 13}), players=THREE, rules="bluke")
    output = engine.check(record)
    assert [e["round"] for e in output["errors"]] == [2]
    assert output["scores"] == {"Ann": 22, "Bob": -10, "Cy": -10}
    assert output["next_dealer"] == "Bob"


def test_game_over_keeps_the_winner() -> None:
    record = game(
        *[rnd(tricks={"Ann": c}) for c in (2, 1, 2, 1)],
        players=THREE,
        rules="bluke",
        options=SMALL,
    )
    output = engine.check(record)
    assert output["finished"] is True
    assert output["winner"] == "Ann"
    assert output["next_dealer"] is None


def test_a_shared_win_reads_in_game_over() -> None:
    zero = dict.fromkeys(THREE, 0)
    rounds = [
        {"bids": {**zero, "Ann": 1}, "tricks": {"Bob": 1}},  # Ann -10, Bob 1
        {"bids": zero, "tricks": {"Ann": 1, "Cy": 1}},  # Ann -9, Cy 1
        {"bids": zero, "tricks": {"Ann": 1}},  # Ann -8
        {"bids": zero, "tricks": {"Ann": 1}},
    ]
    options = {**SMALL, "allow_zero_bid": True}
    output = engine.check(game(*rounds, players=THREE, rules="bluke-nj", options=options))
    assert output["scores"] == {"Ann": -8, "Bob": 1, "Cy": 1}
    assert output["winner"] == ["Bob", "Cy"]
    assert output["errors"][0]["message"] == (
        "The game ended after round 3, the last hand of the schedule (Bob and Cy shared the "
        "win); round 4 and any after it belong to a new game."
    )
