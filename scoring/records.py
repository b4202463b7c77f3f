"""The game record: a game's rows in the engine's format (`buck-game/1`,
docs/game-record.md), and the engine's verdict on it. Every other module of scoring,
the exports and the API read a game through these two functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from scoring.models import Game, GamePlayer
from tournaments.models import Player


def game_record(
    game: Game,
    *,
    rounds: Sequence[Mapping[str, Any]] | None = None,
    game_players: Sequence[GamePlayer] | None = None,
) -> engine.GameRecord:
    """The game in the engine's record format (`buck-game/1`); with `rounds`, as it would
    be with those rounds instead of the stored ones; `game_players`: its players by
    seat, when the caller has read them."""
    if game_players is None:
        game_players = list(
            game.game_players.all()
            if "game_players" in getattr(game, "_prefetched_objects_cache", {})
            else game.game_players.select_related("player")
        )
    first_dealer = next(gp.name for gp in game_players if gp.player_id == game.first_dealer_id)
    if rounds is None:
        rounds = [r.data for r in game.rounds.all()]
    record: engine.GameRecord = {
        "format": "buck-game/1",
        "rules": game.rules_id,
        "players": [gp.name for gp in game_players],
        "first_dealer": first_dealer,
        "options": dict(game.options),
        "rounds": [dict(r) for r in rounds],
    }
    substitutes = [
        {"player": gp.name, "replaced": gp.replaced_name, "after_round": gp.replaced_after_round}
        for gp in game_players
        if gp.replaced_name
    ]
    if substitutes:  # Extension (docs/game-record.md): seats that changed hands mid-game.
        record["substitutes"] = substitutes
    robots = _robots(game_players)
    if robots:  # Extension (docs/game-record.md): the seats a robot player held.
        record["robots"] = robots
    return record


def _robots(game_players: Sequence[GamePlayer]) -> list[str]:
    """The names of the game's robot players (`Player.is_robot`), in seat order: from the
    players read with the game's players, or in one query where they were not."""
    unread = [gp.player_id for gp in game_players if not GamePlayer.player.is_cached(gp)]
    robots = set(
        Player.objects.filter(pk__in=unread, is_robot=True).values_list("pk", flat=True)
        if unread
        else ()
    )
    return [
        gp.name
        for gp in game_players
        if (gp.player.is_robot if GamePlayer.player.is_cached(gp) else gp.player_id in robots)
    ]


#: A round's fields that give its cards (docs/game-record.md, "The cards, when a round
#: gives them"): what a duplicate deal hides while another table may still play it.
CARD_FIELDS = ("upcard", "play", "discard")


def without_cards(data: Mapping[str, Any]) -> dict[str, Any]:
    """A round's fields without its cards: its scores' fields only (`CARD_FIELDS`)."""
    return {k: v for k, v in data.items() if k not in CARD_FIELDS}


def game_check(
    game: Game,
    *,
    rounds: Sequence[Mapping[str, Any]] | None = None,
    game_players: Sequence[GamePlayer] | None = None,
) -> engine.Verdict:
    """The engine's verdict on the game's stored rounds (`rounds` and `game_players`: as
    `game_record` takes them, when the caller has read them)."""
    return engine.check(game_record(game, rounds=rounds, game_players=game_players))
