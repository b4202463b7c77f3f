"""The Weng-Lin Plackett-Luce update, written out from the paper (Weng and Lin, "A
Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4) with the
defaults and the two additions openskill 6 documents: the additive dynamics factor tau
(sigma grows by tau before each game) and, for tied players, the average of their mu
changes. Independent of the code under test: the tests compare the site's ratings to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


def update(
    players: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """One free-for-all game of single players: (mu, sigma) before, ranks (1 is best,
    ties equal) -> (mu, sigma) after."""
    n = len(players)
    mus = [mu for mu, _ in players]
    var = [sigma * sigma + TAU * TAU for _, sigma in players]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    strength = [math.exp(mu / c) for mu in mus]
    # sum over the players ranked no better than q, and how many share q's rank
    below = [sum(strength[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    shared = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out: list[tuple[float, float]] = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = strength[i] / below[q]
            omega += ((1.0 if q == i else 0.0) - p) / shared[q]
            delta += p * (1 - p) / shared[q]
        omega *= var[i] / c
        gamma = math.sqrt(var[i]) / c
        delta *= gamma * var[i] / c**2
        mu = mus[i] + omega
        sigma = math.sqrt(var[i]) * math.sqrt(max(1 - delta, KAPPA))
        out.append((mu, sigma))
    for r in set(ranks):
        tied = [i for i in range(n) if ranks[i] == r]
        if len(tied) > 1:
            change = sum(out[i][0] - mus[i] for i in tied) / len(tied)
            for i in tied:
                out[i] = (mus[i] + change, out[i][1])
    return out


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma
