"""Helpers for the tests of online rounds: start a round, play it with robots or random
legal moves, build a whole game round by round, and the hidden cards of a view."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

import engine
from engine.online import END, PLAY, MoveRefused, OnlineRound, RoundStart, deal, pack
from engine.online import restore as restore_round

Chooser = Callable[[OnlineRound, str], dict[str, Any]]

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def defaults(rules_id: str) -> dict[str, Any]:
    return {name: o.default for name, o in engine.rules_info(rules_id).options.items()}


def start(
    rules_id: str,
    players: Sequence[str],
    *,
    dealer: str | None = None,
    number: int = 1,
    scores: Mapping[str, int] | None = None,
    earlier: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
) -> RoundStart:
    opts = defaults(rules_id) | dict(options or {})
    first = 25 if rules_id == "buck-euchre" else 0
    return RoundStart(
        rules_id=rules_id,
        players=tuple(players),
        dealer=dealer or players[0],
        number=number,
        options=opts,
        scores=dict(scores) if scores is not None else {p: first for p in players},
        earlier=list(earlier),
    )


def robot(rnd: OnlineRound, player: str) -> dict[str, Any]:
    return rnd.robot_move(player)


def random_player(rng: random.Random) -> Chooser:
    def choose(rnd: OnlineRound, player: str) -> dict[str, Any]:
        legal = rnd.legal(player)
        assert legal, f"{player} is to act with nothing legal in {rnd.phase}"
        choice = rng.choice(legal)
        return {"action": "play", "card": choice} if rnd.phase == PLAY else choice

    return choose


def shuffled_deal(st: RoundStart, rng: random.Random) -> OnlineRound:
    cards = pack(st)
    rng.shuffle(cards)
    return deal(st, cards)


def play_out(rnd: OnlineRound, choose: Chooser, *, check: bool = True) -> OnlineRound:
    """Play `rnd` to its end; with `check`, each move is among the legal ones and the
    state survives a JSON round trip."""
    for _ in range(2000):
        who = rnd.to_act()
        if who is None:
            assert rnd.phase == END
            return rnd
        move = choose(rnd, who)
        if check:
            legal = rnd.legal(who)
            assert (move["card"] if rnd.phase == PLAY else move) in legal
            for other in rnd.start.players:
                if other != who:
                    assert rnd.legal(other) == []
        rnd.apply(who, move)
    raise AssertionError("the round did not end")


def play_game(
    rules_id: str,
    players: Sequence[str],
    rng: random.Random,
    choose: Chooser,
    *,
    options: Mapping[str, Any] | None = None,
    check: bool = False,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A whole game built round by round from the verdict; (record, verdict)."""
    opts = defaults(rules_id) | dict(options or {})
    record: dict[str, Any] = {
        "format": "buck-game/1",
        "rules": rules_id,
        "players": list(players),
        "first_dealer": players[0],
        "options": dict(options or {}),
        "rounds": [],
    }
    verdict = engine.check(record)
    for number in range(1, 200):
        assert verdict["valid"], verdict["errors"]
        if verdict["finished"]:
            return record, verdict
        st = RoundStart(
            rules_id=rules_id,
            players=tuple(players),
            dealer=verdict["next_dealer"],
            number=number,
            options=opts,
            scores=verdict["scores"]
            if verdict["rounds"]
            else start(rules_id, players, options=options).scores,
            earlier=list(record["rounds"]),
        )
        rnd = play_out(shuffled_deal(st, rng), choose, check=check)
        record["rounds"].append(rnd.record())
        verdict = engine.check(record)
    raise AssertionError("the game did not end")


def hidden_cards(rnd: OnlineRound, player: str | None, public: Sequence[str] = ()) -> set[str]:
    """The cards `player` may not see: other hands and the undealt cards, but the cards
    in `public` (an upcard face up)."""
    s = rnd.s  # type: ignore[attr-defined]
    hidden = set(s["undealt"])
    for p, cards in s["hands"].items():
        if p != player:
            hidden |= set(cards)
    return hidden - set(public)


def leaks(view: Mapping[str, Any], hidden: set[str]) -> set[str]:
    text = json.dumps(view)
    return {c for c in hidden if json.dumps(c) in text}


def refused(rnd: OnlineRound, player: str, move: Any) -> MoveRefused:
    """The refusal of `move`, checking that nothing changed."""
    before = json.dumps(rnd.to_json(), sort_keys=True)
    with pytest.raises(MoveRefused) as info:
        rnd.apply(player, move)
    assert json.dumps(rnd.to_json(), sort_keys=True) == before
    assert info.value.message
    return info.value


def round_trip(rnd: OnlineRound) -> OnlineRound:
    data = json.loads(json.dumps(rnd.to_json()))
    back = restore_round(rnd.start.rules_id, data)
    assert back.to_json() == rnd.to_json()
    for p in (*rnd.start.players, None):
        assert back.view(p) == rnd.view(p)
    return back
