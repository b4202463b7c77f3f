"""Bluke and New Jersey Bluke played move by move (engine/games/bluke/online.py): the
hand's size from the schedule, the upcard or no trump, the bids, the Hi and Lo Blukes and
the New Jersey difference, every refusal, and whole games the checker accepts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.online import END, PLAY, OnlineRound, deal, pack
from tests.engine.online_helpers import (
    NAMES,
    hidden_cards,
    leaks,
    play_game,
    play_out,
    random_player,
    refused,
    robot,
    round_trip,
    shuffled_deal,
    start,
)

TABLE = ("Ann", "Bob", "Cy")
_TABLES = engine.rules_info("bluke").tables
SIZES = range(_TABLES.play_min, _TABLES.play_max + 1)


def order_for(rules: str, hands: dict[str, list[str]], upcard: str | None) -> list[str]:
    """The pack in the order that deals `hands` one card at a time from the dealer's (Ann's)
    left and turns `upcard` up."""
    seats = [*TABLE[1:], TABLE[0]]
    size = len(hands["Ann"])
    order = [hands[seats[i % 3]][i // 3] for i in range(size * 3)]
    if upcard is not None:
        order.append(upcard)
    return order + [c for c in pack(start(rules, TABLE)) if c not in order]


def dealt(
    rules: str, hands: dict[str, list[str]], upcard: str | None, number: int, **options: Any
) -> OnlineRound:
    st_ = start(rules, TABLE, number=number, options=options)
    return deal(st_, order_for(rules, hands, upcard))


def valid(rnd: OnlineRound, **options: Any) -> dict[str, Any]:
    """The verdict on a record whose round `rnd.start.number` is `rnd`'s: the earlier
    rounds are entered as summaries."""
    rec = rnd.record()
    number = rnd.start.number
    sizes = engine.games.bluke.schedule(rnd.start.rules_id, 3, options.get("max_cards", 0))
    dealers = [TABLE[(TABLE.index(rnd.start.dealer) - number + 1 + i) % 3] for i in range(number)]
    earlier = [
        {"dealer": dealers[i], "bids": dict.fromkeys(TABLE, 1), "tricks": {"Ann": sizes[i]}}
        for i in range(number - 1)
    ]
    verdict = engine.check({"format": "buck-game/1", "rules": rnd.start.rules_id,
                            "players": list(TABLE), "first_dealer": dealers[0],
                            "options": options, "rounds": [*earlier, rec]})  # fmt: skip
    assert verdict["valid"], verdict["errors"]
    return verdict


# Round 12 of `bluke` at three deals 2 cards each (13, 12, ..., 2).
HI_LO = {"Bob": ["BH", "5H"], "Cy": ["AH", "2S"], "Ann": ["BL", "3H"]}


def test_the_hand_size_comes_from_the_round_number() -> None:
    def size(rules: str, number: int, n: int = 4) -> int:
        rnd = shuffled_deal(start(rules, NAMES[:n], number=number), random.Random(number))
        return int(rnd.view("Ann")["cards"])

    assert [size("bluke", k) for k in (1, 2, 13, 14, 25)] == [13, 12, 1, 2, 13]
    assert [size("bluke-nj", k) for k in (1, 2, 13, 14, 25)] == [1, 2, 13, 12, 1]
    assert size("bluke", 1, 3) == 13
    with pytest.raises(engine.EngineUsageError):
        size("bluke", 26)


def test_bids_from_the_dealers_left_and_the_hi_and_lo_blukes() -> None:
    rnd = dealt("bluke", HI_LO, "7S", 12)
    view = rnd.view("Bob")
    assert view["cards"] == 2
    assert view["trump"] == "S"
    assert view["upcard"] == "7S"
    assert rnd.phase == "bid"
    assert rnd.to_act() == "Bob"
    assert rnd.legal("Bob") == [{"action": "bid", "bid": 1}, {"action": "bid", "bid": 2}]
    e = refused(rnd, "Bob", {"action": "bid", "bid": 0})
    assert e.code == "bid_out_of_range"
    assert "0 is not allowed" in e.message
    assert refused(rnd, "Bob", {"action": "bid", "bid": 3}).code == "bid_out_of_range"
    assert refused(rnd, "Bob", {"action": "bid", "bid": "two"}).code == "bad_move"
    assert refused(rnd, "Bob", {"action": "pass"}).code == "bad_move"
    assert refused(rnd, "Cy", {"action": "bid", "bid": 1}).code == "not_your_turn"
    rnd.apply("Bob", {"action": "bid", "bid": 2})
    rnd.apply("Cy", {"action": "bid", "bid": 1})
    assert rnd.view("Ann")["bids"] == {"Bob": 2, "Cy": 1}
    rnd.apply("Ann", {"action": "bid", "bid": 1})
    assert rnd.phase == PLAY
    assert rnd.to_act() == "Bob"
    rnd.apply("Bob", {"action": "play", "card": "5H"})
    # Cy holds a heart and must play it.
    assert rnd.legal("Cy") == ["AH"]
    e = refused(rnd, "Cy", {"action": "play", "card": "2S"})
    assert e.code == "must_follow"
    assert "heart" in e.message
    rnd.apply("Cy", {"action": "play", "card": "AH"})
    # A Bluke may be played at any time: Ann may keep her heart.
    assert sorted(rnd.legal("Ann")) == ["3H", "BL"]
    rnd.apply("Ann", {"action": "play", "card": "BL"})
    assert rnd.view(None)["tricks_won"] == {"Ann": 1, "Bob": 0, "Cy": 0}  # Lo Bluke beats AH
    rnd.apply("Ann", {"action": "play", "card": "3H"})
    rnd.apply("Bob", {"action": "play", "card": "BH"})
    rnd.apply("Cy", {"action": "play", "card": "2S"})  # a trump, below the Hi Bluke
    assert rnd.phase == END
    rec = rnd.record()
    assert rec["tricks"] == {"Ann": 1, "Bob": 1, "Cy": 0}
    assert rec["bids"] == {"Bob": 2, "Cy": 1, "Ann": 1}
    assert rec["cards"] == 2
    verdict = valid(rnd)
    assert verdict["rounds"][-1]["hooks"] == ["Bob", "Cy"]  # both went set


def test_new_jersey_blukes_belong_to_trump() -> None:
    # Round 2 of `bluke-nj` deals 2 cards each (1, 2, ..., 13).
    rnd = dealt("bluke-nj", HI_LO, "7S", 2)
    for p, b in (("Bob", 1), ("Cy", 1), ("Ann", 1)):
        rnd.apply(p, {"action": "bid", "bid": b})
    rnd.apply("Bob", {"action": "play", "card": "5H"})
    rnd.apply("Cy", {"action": "play", "card": "AH"})
    # The Lo Bluke is a trump: Ann holds a heart and must play it.
    assert rnd.legal("Ann") == ["3H"]
    e = refused(rnd, "Ann", {"action": "play", "card": "BL"})
    assert e.code == "must_follow"
    assert "Bluke belongs to the trump suit" in e.message
    play_out(rnd, robot)
    valid(rnd)


def test_new_jersey_a_trump_lead_forces_the_bluke() -> None:
    hands = {"Bob": ["KS", "5H"], "Cy": ["BL", "4H"], "Ann": ["3D", "6C"]}
    rnd = dealt("bluke-nj", hands, "2S", 2)
    for p in ("Bob", "Cy", "Ann"):
        rnd.apply(p, {"action": "bid", "bid": 1})
    rnd.apply("Bob", {"action": "play", "card": "KS"})
    assert rnd.legal("Cy") == ["BL"]
    assert refused(rnd, "Cy", {"action": "play", "card": "4H"}).code == "must_follow"
    # In plain Bluke the same Bluke is a card of its own: Cy may keep it.
    plain = dealt("bluke", hands, "2S", 12)
    for p in ("Bob", "Cy", "Ann"):
        plain.apply(p, {"action": "bid", "bid": 1})
    plain.apply("Bob", {"action": "play", "card": "KS"})
    assert sorted(plain.legal("Cy")) == ["4H", "BL"]


def test_a_bluke_turned_up_means_no_trump() -> None:
    rnd = dealt("bluke", HI_LO, "TS", 12)
    assert rnd.view("Ann")["trump"] == "S"
    hands = {"Bob": ["AS", "5H"], "Cy": ["KS", "2S"], "Ann": ["BL", "3H"]}
    rnd = dealt("bluke", hands, "BH", 12)
    view = rnd.view(None)
    assert view["trump"] is None
    assert view["upcard"] == "BH"
    assert view["trump_words"] == "no trump"
    play_out(rnd, robot)
    assert rnd.record()["upcard"] == "BH"
    valid(rnd)


def test_a_hand_that_deals_every_card_has_no_upcard() -> None:
    st_ = start("bluke", TABLE, options={"max_cards": 18})
    rnd = shuffled_deal(st_, random.Random(5))
    view = rnd.view("Bob")
    assert view["cards"] == 18
    assert view["upcard"] is None
    assert view["trump"] is None
    play_out(rnd, robot)
    rec = rnd.record()
    assert "upcard" not in rec
    valid(rnd, max_cards=18)


def test_a_zero_bid_when_the_club_allows_it() -> None:
    rnd = dealt("bluke", HI_LO, "7S", 12, allow_zero_bid=True)
    assert rnd.legal("Bob")[0] == {"action": "bid", "bid": 0}
    rnd.apply("Bob", {"action": "bid", "bid": 0})
    play_out(rnd, robot)
    valid(rnd, allow_zero_bid=True)


@pytest.mark.parametrize("move", [None, {}, {"action": "play", "card": "QS"}, {"action": None}])
def test_malformed_moves_are_refused(move: Any) -> None:
    assert refused(dealt("bluke", HI_LO, "7S", 12), "Bob", move).code == "bad_move"


def test_cards_not_held_or_not_cards_and_moves_after_the_end() -> None:
    rnd = dealt("bluke", HI_LO, "7S", 12)
    for p in ("Bob", "Cy", "Ann"):
        rnd.apply(p, {"action": "bid", "bid": 1})
    assert refused(rnd, "Bob", {"action": "play", "card": "AH"}).code == "not_in_hand"
    assert refused(rnd, "Bob", {"action": "play", "card": "ZZ"}).code == "bad_move"
    assert refused(rnd, "Bob", {"action": "bid", "bid": 1}).code == "bad_move"
    play_out(rnd, robot)
    assert refused(rnd, "Bob", {"action": "play", "card": "BH"}).code == "not_your_turn"
    assert rnd.legal("Bob") == []


RULES = st.sampled_from(["bluke", "bluke-nj"])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)), rules=RULES)
def test_robots_play_whole_games_the_checker_accepts(seed: int, n: int, rules: str) -> None:
    _, verdict = play_game(rules, NAMES[:n], random.Random(seed), robot, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.sampled_from(list(SIZES)), rules=RULES)
def test_random_legal_players_make_valid_records(seed: int, n: int, rules: str) -> None:
    rng = random.Random(seed)
    options = {"max_cards": 5, "allow_zero_bid": rng.random() < 0.5}
    _, verdict = play_game(rules, NAMES[:n], rng, random_player(rng), options=options, check=True)
    assert verdict["valid"]
    assert verdict["finished"]


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 30),
    number=st.integers(1, 25),
    rules=RULES,
)
def test_views_hide_other_hands_and_the_stub_and_json_round_trips(
    seed: int, stop: int, number: int, rules: str
) -> None:
    rng = random.Random(seed)
    rnd = shuffled_deal(start(rules, NAMES[:4], dealer="Cy", number=number), rng)
    choose = random_player(rng)
    up = rnd.view(None)["upcard"]
    for _ in range(stop):
        who = rnd.to_act()
        if who is None:
            break
        for p in (*NAMES[:4], None):
            assert not leaks(rnd.view(p), hidden_cards(rnd, p, [up] if up else []))
        rnd.apply(who, choose(rnd, who))
    rnd = round_trip(rnd)
    play_out(rnd, robot)
    assert rnd.phase == END


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), number=st.integers(1, 25), rules=RULES)
def test_the_robot_bids_and_plays_as_the_simulators_greedy_player(
    seed: int, number: int, rules: str
) -> None:
    from engine.games.bluke import online, simulate

    players = NAMES[:4]
    rnd = shuffled_deal(start(rules, players, number=number), random.Random(seed))
    s = rnd.s  # type: ignore[attr-defined]
    held = [online._sim_mask(s["hands"][p]) for p in players]
    size = s["game"]["cards"]
    trump = rnd._trump  # type: ignore[attr-defined]
    bids = simulate._bids(held, size, 4, 1, trump, True, random.Random(0).random)
    counts, tricks = simulate._play(
        list(held), size, 4, 0, trump, rules == "bluke-nj", bids, True, random.random, True
    )
    play_out(rnd, robot)
    rec = rnd.record()
    assert list(rec["bids"].values()) == bids[1:] + bids[:1]  # bid from the dealer's left
    assert rec["play"]["tricks"] == tricks
    assert [rec["tricks"][p] for p in players] == counts
