"""The `RuleSet` every game package lists in ``RULE_SETS``: its `RulesInfo` and the two
functions that score and simulate the game.

A family of games that differ in a few settings (a `Variant`) binds them with
`functools.partial`, so one scoring function serves every game of the family.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.base import GameResult, GameSetup, RuleSet, RulesInfo

#: ``score_game(setup, rounds)``: check and score the rounds of a game record.
ScoreGame = Callable[[GameSetup, list[Any]], GameResult]
#: ``simulate_game(setup, rng, strategy, card_play)``: the rounds of a whole game played.
SimulateGame = Callable[[GameSetup, random.Random, str, bool], list[dict[str, Any]]]


class GameRules(RuleSet):
    """One game's rules: what the tournament layer knows of it, and its two functions."""

    def __init__(
        self,
        info: RulesInfo,
        score_game: ScoreGame,
        simulate_game: SimulateGame,
        online: type[Any] | None = None,
    ) -> None:
        self.info = info
        #: The game's `engine.online.OnlineRound`, or None when it cannot be played online.
        self.online = online
        self._score_game = score_game
        self._simulate_game = simulate_game

    def score(self, setup: GameSetup, rounds: list[Any]) -> GameResult:
        return self._score_game(setup, rounds)

    def simulate(
        self, setup: GameSetup, *, rng: random.Random, strategy: str, card_play: bool
    ) -> list[dict[str, Any]]:
        return self._simulate_game(setup, rng, strategy, card_play)
