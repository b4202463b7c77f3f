"""What every online round shares, whatever the game (engine/games/_common/online.py,
docs/engine.md "Online rounds"): the keys of a view, what a player who dropped sees, and
that a refused move, however malformed, changes nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.online import END, PLAY, MoveRefused, OnlineRound, restore
from tests.engine.online_helpers import NAMES, robot, shuffled_deal, start

#: Every game played online, with a table size it plays at and a round number it has.
GAMES = {
    "huckley-buck": 6,
    "hucklebuck": 5,
    "buck-euchre": 4,
    "bluke": 4,
    "bluke-nj": 4,
    "ten-point-buck": 3,
}
#: The keys every view has (docs/engine.md, "Online rounds"); a game may add its own.
COMMON_KEYS = {
    "phase",
    "player",
    "dealer",
    "hand",
    "upcard",
    "trump",
    "to_act",
    "legal",
    "trick",
    "tricks",
    "last_trick",
    "tricks_won",
    "counts",
    "out",
}


def dealt(rules: str, seed: int) -> OnlineRound:
    return shuffled_deal(start(rules, NAMES[: GAMES[rules]]), random.Random(seed))


def test_every_game_is_listed() -> None:
    import engine
    from engine import online

    assert {r for r in engine.RULES if online.playable(r)} == set(GAMES)


@pytest.mark.parametrize("rules", GAMES)
def test_every_view_has_the_common_keys_in_every_phase(rules: str) -> None:
    rnd = dealt(rules, 1)
    while True:
        for viewer in (None, *rnd.start.players):
            view = rnd.view(viewer)
            assert set(view) >= COMMON_KEYS, (rnd.phase, COMMON_KEYS - set(view))
            assert view["player"] == viewer
            assert view["to_act"] == rnd.to_act()
            if viewer is None:
                assert view["hand"] is None
                assert view["legal"] == []
            assert all(set(card) == {"player", "card"} for card in view["trick"])
        if rnd.phase == END:
            break
        who = rnd.to_act() or ""
        rnd.apply(who, robot(rnd, who))


def _drop(rnd: OnlineRound) -> str:
    """Play robot moves until someone drops; who did."""
    for _ in range(50):
        who = rnd.to_act() or ""
        if {"action": "out"} in rnd.legal(who):
            rnd.apply(who, {"action": "out"})
            return who
        rnd.apply(who, robot(rnd, who))
    raise AssertionError("nobody could drop")


@pytest.mark.parametrize("rules", ["huckley-buck", "hucklebuck", "buck-euchre"])
def test_a_player_who_dropped_holds_no_hand_from_the_drop_on(rules: str) -> None:
    """A player who drops throws the hand in: from that move on their own view shows
    `hand: []`, every view counts 0 cards for them and lists them in `out`, in every game."""
    for seed in range(40):
        rnd = dealt(rules, seed)
        while rnd.phase != END and not any({"action": "out"} in rnd.legal(p) for p in NAMES):
            who = rnd.to_act() or ""
            rnd.apply(who, robot(rnd, who))
        if rnd.phase != END:
            break
    else:
        raise AssertionError("no deal offered a drop")
    gone = _drop(rnd)
    while True:
        assert rnd.view(gone)["hand"] == []
        for viewer in (None, *rnd.start.players):
            view = rnd.view(viewer)
            assert view["counts"][gone] == 0
            assert gone in view["out"]
            assert all(c["player"] != gone for c in view["trick"])
        if rnd.phase == END:
            break
        who = rnd.to_act() or ""
        rnd.apply(who, robot(rnd, who))
    assert gone in rnd.record()["out"]


def _junk(rnd: OnlineRound, who: str, rng: random.Random) -> Any:
    """A move that may or may not be taken: any action, any card (often one `who` holds)
    or none."""
    cards = rnd.view(who)["hand"] or rnd.pack(rnd.start)
    held_but_illegal = [c for c in cards if c not in rnd.legal(who)]
    if rnd.phase == PLAY and held_but_illegal and rng.random() < 0.5:
        return {"action": "play", "card": rng.choice(held_but_illegal)}
    if rng.random() < 0.3:
        cards = rnd.pack(rnd.start)
    action = rng.choice(["play", "in", "out", "draw", "bid", "trump", "pass", "discard", "x"])
    move: dict[str, Any] = {"action": action}
    if rng.random() < 0.8:
        move["card"] = rng.choice([*cards, "ZZ", 7, None])
    some = rng.sample(cards, rng.randint(0, min(3, len(cards))))
    move["discard"] = some if rng.random() < 0.8 else "2S"
    move["suit"] = rng.choice(["S", "H", "D", "C", "X"])
    move["bid"] = rng.choice([-1, 0, 1, 3, 25, 300, "2"])
    if rng.random() < 0.3:
        move["take_upcard"] = rng.choice([True, "yes"])
    return rng.choice([move, move, move, None, [], "in", {}])


@settings(max_examples=25, deadline=None)
@given(rules=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_a_refused_move_changes_nothing_in_any_game(rules: str, seed: int) -> None:
    """Every move is checked fully before anything is written: whatever a phone sends, by
    whoever, the round either takes it or is exactly as it was."""
    rng = random.Random(seed)
    rnd = dealt(rules, seed)
    players = rnd.start.players
    while rnd.phase != END:
        for _ in range(3):
            before = json.dumps(rnd.to_json(), sort_keys=True)
            who = rng.choice(players) if rng.random() < 0.3 else rnd.to_act() or ""
            try:
                rnd.apply(who, _junk(rnd, who, rng))
            except MoveRefused:
                assert json.dumps(rnd.to_json(), sort_keys=True) == before
            if rnd.phase == END:
                return
        who = rnd.to_act() or ""
        move = robot(rnd, who)
        if rnd.phase == PLAY:
            assert move["card"] in rnd.legal(who)
        rnd.apply(who, move)


@settings(max_examples=12, deadline=None)
@given(rules=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_the_state_as_text_is_the_state_in_every_game_at_every_move(rules: str, seed: int) -> None:
    """`to_json_text`, and `json_data` (what a node writes out and publishes, with no
    copy taken), are `to_json`'s data, earlier rounds included, before and after every
    move of two rounds."""
    rng = random.Random(seed)
    first = dealt(rules, seed)
    names = first.start.players
    rounds = [first]
    while rounds:
        rnd = rounds.pop()
        while True:
            assert json.loads(rnd.to_json_text()) == rnd.to_json() == rnd.json_data()
            if rnd.phase == END:
                break
            who = rnd.to_act() or ""
            rnd.apply(who, robot(rnd, who))
        if rnd is first:
            second = start(rules, names, number=2, earlier=[first.record()])
            rounds.append(shuffled_deal(second, rng))


@settings(max_examples=12, deadline=None)
@given(rules=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_the_games_earlier_rounds_come_through_every_move_unchanged(rules: str, seed: int) -> None:
    """A round late in a game carries the game's earlier rounds as they were given to
    it, through every move, restore and save (they are shared, not copied: nothing may
    change them), and its own record and the views are what a round with copies makes."""
    rng = random.Random(seed)
    names = dealt(rules, seed).start.players
    earlier = []
    for number in (1, 2):
        played = shuffled_deal(start(rules, names, number=number, earlier=list(earlier)), rng)
        while played.phase != END:
            who = played.to_act() or ""
            played.apply(who, robot(played, who))
        earlier.append(played.record())
    as_given = json.loads(json.dumps(earlier))
    rnd = shuffled_deal(start(rules, names, number=3, earlier=earlier), rng)
    while True:
        saved = rnd.to_json()
        assert saved["start"]["earlier"] == as_given
        again = restore(rules, saved)
        assert again.view(None) == rnd.view(None)
        if rnd.phase == END:
            assert again.record() == rnd.record()
            break
        who = rnd.to_act() or ""
        move = robot(rnd, who)
        rnd.apply(who, move)
        again.apply(who, move)
        assert again.to_json() == rnd.to_json()
        rnd = restore(rules, json.loads(json.dumps(rnd.to_json())))
    assert earlier == as_given
