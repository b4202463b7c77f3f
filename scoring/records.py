"""The game record: a game's rows in the engine's format (`buck-game/1`,
docs/game-record.md), and the engine's verdict on it. Every other module of scoring,
the exports and the API read a game through these two functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from scoring.models import Game


def game_record(
    game: Game, *, rounds: Sequence[Mapping[str, Any]] | None = None
) -> engine.GameRecord:
    """The game in the engine's record format (`buck-game/1`); with `rounds`, as it would
    be with those rounds instead of the stored ones."""
    game_players = list(game.game_players.all())
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
    return record


#: A round's fields that give its cards (docs/game-record.md, "The cards, when a round
#: gives them"): what a duplicate deal hides while another table may still play it.
CARD_FIELDS = ("upcard", "play", "discard")


def without_cards(data: Mapping[str, Any]) -> dict[str, Any]:
    """A round's fields without its cards: its scores' fields only (`CARD_FIELDS`)."""
    return {k: v for k, v in data.items() if k not in CARD_FIELDS}


def game_check(game: Game) -> engine.Verdict:
    """The engine's verdict on the game's stored rounds."""
    return engine.check(game_record(game))
