"""Huckley's rules engine: checks and scores game records, simulates games.

Pure Python with no Django and no I/O (the command line in `engine.cli` aside), so the
tournament layer, the API, the command line and the tests all get the same verdict on a
game. The game record format `buck-game/1` is in docs/game-record.md; the API, the error
codes and the extension fields are in docs/engine.md.
"""

from __future__ import annotations

from engine.base import (
    FORMAT,
    EngineUsageError,
    GameRecord,
    OptionInfo,
    RulesInfo,
    TableSizes,
    Verdict,
)
from engine.dealing import draw_first_dealer, keyed_shuffle, next_game_first_dealer
from engine.record import check, simulate
from engine.registry import RULES, rules_info
from engine.scores import best_score, score_key

__all__ = [
    "FORMAT",
    "RULES",
    "EngineUsageError",
    "GameRecord",
    "OptionInfo",
    "RulesInfo",
    "TableSizes",
    "Verdict",
    "best_score",
    "check",
    "draw_first_dealer",
    "keyed_shuffle",
    "next_game_first_dealer",
    "rules_info",
    "score_key",
    "simulate",
]
