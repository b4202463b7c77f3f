"""Huckley Buck and Hucklebuck online, in the record and over whole games: the record's
extensions (announcements and draws) checked against `out` and the hands, and
properties that play whole games with robots and with random legal players and check
every record with `engine.check`. The moves of a round are in test_online_huckley.py.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import online
from engine.cards import PARSE
from engine.games.huckley.draws import check_calls_and_draws
from engine.online import END, PLAY, OnlineRound, RoundStart
from tests.engine.online_huckley_helpers import NAMES, RULES, game, options, start

# --- the record's extensions --------------------------------------------------------


def finished_round(rules: str, n: int, seed: int) -> dict[str, Any]:
    begin = start(rules, n)
    order = online.pack(begin)
    random.Random(seed).shuffle(order)
    rnd = online.deal(begin, order)
    while rnd.phase != END:
        player = rnd.to_act() or ""
        rnd.apply(player, rnd.robot_move(player))
    return rnd.record()


def codes(record: dict[str, Any]) -> list[str]:
    return [e["code"] for e in engine.check(record)["errors"]]


def test_the_extensions_are_checked_against_out_and_the_hands() -> None:
    rounds = [finished_round("huckley-buck", 6, seed) for seed in range(30)]
    rnd = next(r for r in rounds if r.get("out") and any(d["drew"] for d in r["play"]["draws"]))
    assert engine.check(game("huckley-buck", 6, rnd))["valid"]
    plain = copy.deepcopy(rnd)
    del plain["play"]["announcements"], plain["play"]["draws"]
    assert engine.check(game("huckley-buck", 6, plain))["valid"]  # the old shape

    calls = copy.deepcopy(rnd)
    first_out = next(c for c in calls["play"]["announcements"] if c["call"] == "out")
    first_out["call"] = "in"
    assert codes(game("huckley-buck", 6, calls)) == ["announcement_mismatch"]
    calls["play"]["announcements"].reverse()
    assert "announcement_mismatch" in codes(game("huckley-buck", 6, calls))
    calls["play"]["announcements"] = "Ann out"
    assert codes(game("huckley-buck", 6, calls)) == ["bad_field"]

    draws = copy.deepcopy(rnd)
    drawer = next(d for d in draws["play"]["draws"] if d["drew"])
    drawer["drew"] = drawer["drew"][1:]
    assert codes(game("huckley-buck", 6, draws)) == ["draw_mismatch"]
    draws = copy.deepcopy(rnd)
    drawer = next(d for d in draws["play"]["draws"] if d["drew"])
    drawer["discard"], drawer["drew"] = drawer["drew"], drawer["discard"]
    assert set(codes(game("huckley-buck", 6, draws))) == {"draw_mismatch"}
    draws["play"]["draws"].pop()
    assert codes(game("huckley-buck", 6, draws)) == ["bad_field"]
    draws = copy.deepcopy(rnd)
    draws["play"]["draws"].reverse()
    assert codes(game("huckley-buck", 6, draws)) == ["draw_mismatch"]
    draws = copy.deepcopy(rnd)
    draws["play"]["draws"][0]["discard"] = ["ZZ"]
    assert codes(game("huckley-buck", 6, draws)) == ["bad_card"]


def test_the_hucklebuck_upcard_goes_to_the_first_exchange_in_the_record() -> None:
    """HB: the first player to exchange draws the face-up upcard; a record in which a
    later player drew it is refused."""
    hands = {
        "Ann": ["AS", "KS", "QS", "JS", "TS"],
        "Bob": ["AD", "KD", "QD", "2C", "AH"],
        "Cy": ["AC", "KC", "QC", "JC", "3C"],
        "Dee": ["2S", "3S", "4D", "5D", "9H"],
    }
    draws = [
        {"player": "Ann", "discard": [], "drew": []},
        {"player": "Bob", "discard": ["JD", "TD"], "drew": ["AH", "2C"]},
        {"player": "Cy", "discard": ["TC"], "drew": ["3C"]},
        {"player": "Dee", "discard": [], "drew": []},
    ]

    def check(rules: str, draws: list[dict[str, Any]]) -> list[str]:
        errors: list[Any] = []
        check_calls_and_draws(
            number=1,
            players=NAMES[:4],
            seat={name: s for s, name in enumerate(NAMES[:4])},
            dealer=3,
            out=set(),
            upcard=PARSE["AH"],
            upcard_to_anyone=rules == "hucklebuck",
            raw={"hands": hands, "draws": draws},
            errors=errors,
        )
        return [e["code"] for e in errors]

    assert check("hucklebuck", draws) == []
    late = copy.deepcopy(draws)
    late[1]["drew"] = ["2C"]
    late[1]["discard"] = ["JD"]
    late[2]["drew"] = ["3C", "AH"]
    late[2]["discard"] = ["TC", "JC"]
    hands["Bob"], hands["Cy"] = ["AD", "KD", "QD", "TD", "2C"], ["AC", "KC", "QC", "AH", "3C"]
    assert check("hucklebuck", late) == ["draw_mismatch"]
    assert check("huckley-buck", late) == []  # the hands' check says who may hold it there


# --- whole games, robots and random players -----------------------------------------


def random_move(rnd: OnlineRound, player: str, rng: random.Random) -> dict[str, Any]:
    """Uniform among the legal moves; a draw discards a random subset within the limit."""
    legal = rnd.legal(player)
    pick = legal[int(rng.random() * len(legal))]
    if rnd.phase == PLAY:
        return {"action": "play", "card": pick}
    if rnd.phase == "draw":
        hand = rnd.view(player)["hand"]
        low = pick.get("min_discard", 0)
        k = low + int(rng.random() * (pick["max_discard"] - low + 1))
        move = {"action": "draw", "discard": rng.sample(sorted(hand), k)}
        if pick.get("take_upcard"):
            move["take_upcard"] = True
        return move
    return dict(pick)


CARD_TEXT = re.compile(r'"([2-9TJQKA][SHDC])"')


def cards_in(data: Any) -> set[str]:
    """Every card code anywhere in `data`, as its JSON shows it."""
    return set(CARD_TEXT.findall(json.dumps(data)))


def play_game(
    rules: str, n: int, seed: int, robots: bool, watch: bool = False
) -> tuple[dict[str, Any], dict[str, int]]:
    """A whole game, round after round until the engine says it is over; returns the
    record and the tricks each kind of player took (robots: all of them)."""
    rng = random.Random(seed)
    record = game(rules, n)
    players = NAMES[:n]
    dealer = players[-1]
    scores = dict.fromkeys(players, 0)
    for number in range(1, 300):
        begin = RoundStart(
            rules, tuple(players), dealer, number, options(rules), scores, tuple(record["rounds"])
        )
        order = online.pack(begin)
        rng.shuffle(order)
        rnd = online.deal(begin, order)
        moves = 0
        while rnd.phase != END:
            player = rnd.to_act()
            assert player is not None
            move = rnd.robot_move(player) if robots else random_move(rnd, player, rng)
            rnd.apply(player, move)
            moves += 1
            if watch and moves % 4 == 0:
                state = rnd.to_json()
                again = online.restore(rules, json.loads(json.dumps(state)))
                assert again.to_json() == state
                assert again.view(player) == rnd.view(player)
                check_views(rnd, state)
        record["rounds"].append(rnd.record())
        verdict = engine.check(record)
        assert verdict["valid"], (verdict["errors"], record["rounds"][-1])
        if verdict["finished"]:
            return record, verdict["scores"]
        dealer = verdict["next_dealer"]
        scores = verdict["scores"]
    raise AssertionError("the game did not end")


def check_views(rnd: OnlineRound, state: dict[str, Any]) -> None:
    """No view shows a card of another player's hand, of the undealt pack or of the
    discards; a player who dropped sees no hand."""
    s = state["state"]
    face_up = {rnd.view(None)["upcard"]} - {None}
    hidden_pack = set(s["undealt"]) - face_up
    assert {c for d in s["game"]["draws"] for c in d["discard"]} <= hidden_pack
    for viewer in [None, *rnd.start.players]:
        view = rnd.view(viewer)
        if viewer in s["out"]:
            assert view["hand"] == []
        seen = cards_in(view)
        others = set().union(*(set(h) for name, h in s["hands"].items() if name != viewer))
        assert not seen & (others - face_up | hidden_pack), (viewer, seen & others)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES), st.integers(3, 7), st.integers(0, 2**32))
def test_robots_always_finish_and_every_record_is_valid(rules: str, n: int, seed: int) -> None:
    play_game(rules, n, seed, robots=True, watch=True)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES), st.integers(3, 7), st.integers(0, 2**32))
def test_random_legal_players_make_valid_records(rules: str, n: int, seed: int) -> None:
    play_game(rules, n, seed, robots=False, watch=True)


@pytest.mark.parametrize("rules", RULES)
def test_robots_take_more_tricks_than_random_players(rules: str) -> None:
    """Ann is a robot, the other three play at random: over many deals Ann takes more than
    her share of the 5 tricks (a quarter)."""
    rng = random.Random(7)
    taken = 0
    deals = 300
    for _ in range(deals):
        begin = start(rules, 4)
        order = online.pack(begin)
        rng.shuffle(order)
        rnd = online.deal(begin, order)
        while rnd.phase != END:
            player = rnd.to_act() or ""
            move = rnd.robot_move(player) if player == "Ann" else random_move(rnd, player, rng)
            rnd.apply(player, move)
        taken += rnd.record()["tricks"]["Ann"]
    assert taken / deals > 5 / 4 * 1.2


def test_robot_moves_are_legal_and_repeatable() -> None:
    begin = start("huckley-buck", 5)
    order = online.pack(begin)
    random.Random(3).shuffle(order)
    rnd = online.deal(begin, order)
    while rnd.phase != END:
        player = rnd.to_act() or ""
        move = rnd.robot_move(player)
        assert online.restore("huckley-buck", rnd.to_json()).robot_move(player) == move
        if rnd.phase == PLAY:
            assert move["card"] in rnd.legal(player)
        rnd.apply(player, move)
