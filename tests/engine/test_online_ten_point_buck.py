"""Ten-Point Buck played move by move (engine/games/ten_point_buck/online.py): the bids,
the rank rule, the Doe on the Buck, every refusal, and whole games the checker accepts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.online import END, PLAY, OnlineRound, deal, pack
from tests.engine.online_helpers import (
    NAMES,
    play_game,
    play_out,
    random_player,
    refused,
    robot,
    round_trip,
    shuffled_deal,
    start,
)

RULES = "ten-point-buck"
TABLE = ("Ann", "Bob", "Cy")
_TABLES = engine.rules_info(RULES).tables
SIZES = range(_TABLES.play_min, _TABLES.play_max + 1)

#: Ann (dealer) holds nine normal 1s and a 2; Bob the white 2 and the Buck; Cy the white 1,
#: the Doe and a 2.
HANDS = {
    "Bob": ["2w", "10w", "3", "3", "3", "4", "4", "4", "5", "5"],
    "Cy": ["1w", "0w", "2", "6", "6", "6", "7", "7", "7", "8"],
    "Ann": ["1"] * 9 + ["2"],
}


def dealt() -> OnlineRound:
    """The deal of `HANDS`, one card at a time from the dealer's left."""
    seats = ["Bob", "Cy", "Ann"]
    order = [HANDS[seats[i % 3]][i // 3] for i in range(30)]
    rest = Counter(pack(start(RULES, TABLE)))
    rest.subtract(order)
    return deal(start(RULES, TABLE), order + sorted(rest.elements()))


def bid_all(rnd: OnlineRound, bids: dict[str, int]) -> None:
    for p, b in bids.items():
        rnd.apply(p, {"action": "bid", "bid": b})


def check(rec: dict[str, Any]) -> dict[str, Any]:
    verdict = engine.check({"format": "buck-game/1", "rules": RULES, "players": list(TABLE),
                            "first_dealer": "Ann", "rounds": [rec]})  # fmt: skip
    assert verdict["valid"], verdict["errors"]
    return verdict


def test_the_pack_is_the_56_card_deck() -> None:
    cards = pack(start(RULES, TABLE))
    assert len(cards) == 56
    assert Counter(cards)["1"] == 9
    assert {"0w", "10w", "9"} <= set(cards)
    assert "10" not in cards


def test_bids_from_the_dealers_left_any_whole_number_up_to_the_deck() -> None:
    rnd = dealt()
    assert rnd.phase == "bid"
    assert rnd.to_act() == "Bob"
    legal = rnd.legal("Bob")
    assert legal[0] == {"action": "bid", "bid": 0}
    assert legal[-1] == {"action": "bid", "bid": 220}
    assert refused(rnd, "Bob", {"action": "bid", "bid": -1}).code == "bid_out_of_range"
    assert refused(rnd, "Bob", {"action": "bid", "bid": 221}).code == "bid_out_of_range"
    assert refused(rnd, "Bob", {"action": "bid", "bid": True}).code == "bad_move"
    assert refused(rnd, "Bob", {"action": "pass"}).code == "bad_move"
    assert refused(rnd, "Ann", {"action": "bid", "bid": 5}).code == "not_your_turn"
    bid_all(rnd, {"Bob": 30, "Cy": 25})
    assert rnd.view("Ann")["bids"] == {"Bob": 30, "Cy": 25}
    rnd.apply("Ann", {"action": "bid", "bid": 0})
    assert rnd.phase == PLAY
    assert rnd.to_act() == "Bob"


def test_the_rank_rule_and_the_doe_on_the_buck() -> None:
    rnd = dealt()
    bid_all(rnd, {"Bob": 30, "Cy": 25, "Ann": 0})
    rnd.apply("Bob", {"action": "play", "card": "2w"})
    # A 2 is in the trick: Cy may not play her 2 while she holds other ranks.
    assert "2" not in rnd.legal("Cy")
    e = refused(rnd, "Cy", {"action": "play", "card": "2"})
    assert e.code == "rank_rule"
    assert "2w from Bob" in e.message
    assert refused(rnd, "Cy", {"action": "play", "card": "9"}).code == "not_in_hand"
    assert refused(rnd, "Cy", {"action": "play", "card": "10"}).code == "bad_move"
    rnd.apply("Cy", {"action": "play", "card": "1w"})
    # Ann holds only 1s and a 2, both ranks in the trick: her only option is any card.
    assert rnd.legal("Ann") == ["1", "2"]
    rnd.apply("Ann", {"action": "play", "card": "2"})
    view = rnd.view(None)
    assert view["tricks_won"] == {"Ann": 0, "Bob": 1, "Cy": 0}  # the highest white
    assert view["points"] == {"Ann": 0, "Bob": 5, "Cy": 0}
    # The Buck led; the Doe takes it, and Cy the Doe's bonus.
    rnd.apply("Bob", {"action": "play", "card": "10w"})
    rnd.apply("Cy", {"action": "play", "card": "0w"})
    rnd.apply("Ann", {"action": "play", "card": "1"})
    view = rnd.view(None)
    assert view["tricks_won"]["Cy"] == 1
    assert view["doe_bonus"] == "Cy"
    assert view["points"]["Cy"] == 11
    play_out(rnd, robot)
    rec = rnd.record()
    assert rec["doe_bonus"] == "Cy"
    assert rec["bids"] == {"Bob": 30, "Cy": 25, "Ann": 0}
    verdict = check(rec)
    assert verdict["rounds"][0]["doe_bonus"] == "Cy"


@pytest.mark.parametrize("move", [None, [], {"action": 1}, {"action": "play", "card": "1"}])
def test_malformed_moves_are_refused(move: Any) -> None:
    assert refused(dealt(), "Bob", move).code == "bad_move"


def test_nothing_is_taken_after_the_end() -> None:
    rnd = dealt()
    bid_all(rnd, {"Bob": 30, "Cy": 25, "Ann": 0})
    play_out(rnd, robot)
    assert rnd.phase == END
    assert refused(rnd, "Bob", {"action": "play", "card": "3"}).code == "not_your_turn"
    check(rnd.record())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)))
def test_robots_play_whole_games_the_checker_accepts(seed: int, n: int) -> None:
    _, verdict = play_game(RULES, NAMES[:n], random.Random(seed), robot, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)))
def test_random_legal_players_make_valid_records(seed: int, n: int) -> None:
    rng = random.Random(seed)
    options = {"rounds": 2, "tie_break": "shared"}
    _, verdict = play_game(RULES, NAMES[:n], rng, random_player(rng), options=options, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), stop=st.integers(0, 40), n=st.sampled_from(list(SIZES)))
def test_views_hide_other_hands_and_the_stub_and_json_round_trips(
    seed: int, stop: int, n: int
) -> None:
    rng = random.Random(seed)
    players = NAMES[:n]
    rnd = shuffled_deal(start(RULES, players, dealer=players[1]), rng)
    choose = random_player(rng)
    for _ in range(stop):
        who = rnd.to_act()
        if who is None:
            break
        for p in (*players, None):
            view = rnd.view(p)
            assert view["hand"] == (sorted(rnd.s["hands"][p], key=_key) if p else None)  # type: ignore[attr-defined]
            # Cards repeat in this deck, so count them: besides the viewer's own hand and
            # legal cards, the view shows exactly the cards played (the trick just taken,
            # `last_trick`, is one of the tricks already counted).
            shown = Counter(
                _cards({k: v for k, v in view.items() if k not in ("hand", "legal", "last_trick")})
            )
            assert shown == _played(view)
        rnd.apply(who, choose(rnd, who))
    rnd = round_trip(rnd)
    play_out(rnd, robot)
    assert rnd.phase == END


def _played(view: dict[str, Any]) -> Counter[str]:
    cards = Counter(c["card"] for c in view["trick"])
    for trick in view["tricks"]:
        cards.update(c["card"] for c in trick)
    return cards


def _key(card: str) -> tuple[int, bool]:
    return int(card.rstrip("w")), card.endswith("w")


def _cards(data: Any) -> list[str]:
    """Every string in `data` that is a Ten-Point Buck card, dict keys included."""
    if isinstance(data, dict):
        return [c for k, v in data.items() for c in _cards(k) + _cards(v)]
    if isinstance(data, list):
        return [c for v in data for c in _cards(v)]
    return [data] if isinstance(data, str) and data in _CARDS else []


_CARDS = set(pack(start(RULES, TABLE)))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)))
def test_the_robot_plays_as_the_simulators_greedy_player(seed: int, n: int) -> None:
    from engine.games.ten_point_buck import simulate
    from engine.games.ten_point_buck.cards import NAME_OF_BIT

    # The simulator deals seat by seat from its own shuffle: feed it the keys that make
    # its deck order a chosen permutation, and deal the online round the same hands.
    perm = list(range(56))
    random.Random(seed).shuffle(perm)
    keys = iter([perm.index(i) / 56 for i in range(56)])
    players = NAMES[:n]
    sim, _ = simulate._play_round(players, 0, lambda: next(keys), True, True)
    cards = [NAME_OF_BIT[b] for b in perm]
    hands = [cards[10 * s : 10 * s + 10] for s in range(n)]
    seats = [*range(1, n), 0]  # from the dealer's (seat 0's) left
    order = [hands[seats[i % n]][i // n] for i in range(10 * n)] + cards[10 * n :]
    rnd = play_out(deal(start(RULES, players), order), robot)
    rec = rnd.record()
    for field in ("bids", "points", "doe_bonus"):
        assert rec[field] == sim[field]
    assert rec["play"]["tricks"] == sim["play"]["tricks"]
