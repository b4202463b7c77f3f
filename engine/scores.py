"""Which of two scores is better: the one rule that every ranking asks (a table after a
sitting, the session ladder, the season's totals, the live leaders, the ratings).

Most games count up and the highest score wins; some count down and the lowest wins
(Buck Euchre): `RulesInfo.lower_is_better`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

N = TypeVar("N", int, float)


def score_key(score: N, *, lower_is_better: bool) -> N:
    """A sort key that puts the better score first when sorted ascending: the score
    itself where the lowest wins, its negative where the highest does."""
    return score if lower_is_better else -score


def best_score(scores: Iterable[N], *, lower_is_better: bool) -> N:
    """The best of `scores` (at least one)."""
    return min(scores, key=lambda s: score_key(s, lower_is_better=lower_is_better))
