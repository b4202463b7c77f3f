"""The rating arithmetic, in plain Python: who ranks where in a game, and one Weng-Lin
Plackett-Luce update (openskill, default parameters). No Django here, so the services
and the bench share exactly the same steps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

import engine

MODEL = PlackettLuce()
# The starting rating of a player who has not played yet: openskill's defaults.
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """What the site shows and sorts by: a cautious estimate, mu - 3 sigma."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Result:
    """One player's result in one finished game."""

    player: int
    score: int
    won: bool


def game_ranks(results: Sequence[Result], *, lower_is_better: bool) -> list[int]:
    """Each player's rank in the game's own order (1 is best): the winner, or the shared
    winners, first; then the others by final score in the game's sense of better. Equal
    scores share a rank (1, 2, 2, 4)."""

    def key(r: Result) -> tuple[int, int]:
        return (0 if r.won else 1, engine.score_key(r.score, lower_is_better=lower_is_better))

    keys = [key(r) for r in results]
    ordered = sorted(keys)
    return [ordered.index(k) + 1 for k in keys]


def update(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """One game: every player is a team of one; the ranks are passed explicitly."""
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Skill(mu=team[0].mu, sigma=team[0].sigma, games=s.games + 1)
        for s, team in zip(skills, rated, strict=True)
    ]
