"""Shared helpers of the director's online tests: a round played out by the engine's
robots and stored as an online table stores it, so the pages have a round with its
cards (docs/game-record.md, `play.hands`, `play.tricks`)."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine import online
from scoring import records, services
from scoring.models import Game
from tournaments.permissions import SYSTEM


def online_round(game: Game, *, seed: int = 1, robots: list[str] | None = None) -> dict[str, Any]:
    """The game's next round dealt from a seeded shuffle and played by the engine's robot
    for every seat, as a round of the game record (with `play.robots` marks for
    `robots`)."""
    record = records.game_record(game)
    verdict = engine.check(record)
    players = tuple(record["players"])
    start = online.RoundStart(
        game.rules_id,
        players,
        verdict["next_dealer"],
        game.round_count + 1,
        dict(record.get("options") or {}),
        verdict["scores"] or {p: 0 for p in players},
        tuple(record["rounds"]),
    )
    order = online.pack(start)
    random.Random(seed).shuffle(order)
    rnd = online.deal(start, order)
    while rnd.phase != online.END:
        player = rnd.to_act()
        assert player is not None
        rnd.apply(player, rnd.robot_move(player))
    data = rnd.record()
    if robots:
        data["play"]["robots"] = [{"player": name, "moves": 5} for name in robots]
    return data


def store_online_round(
    game: Game, *, seed: int = 1, robots: list[str] | None = None
) -> dict[str, Any]:
    data = online_round(game, seed=seed, robots=robots)
    services.round_submit(game_id=game.pk, number=game.round_count + 1, data=data, actor=SYSTEM)
    game.refresh_from_db()
    return data
