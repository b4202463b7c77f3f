"""The reasons of the places at a table, worded for a page (`ranking_words.reasons`), read
in English exactly as the pure ranking's own (`Placing.reason`), whatever decided."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from tournaments.format.ranking import SittingResult, order_by_totals, order_table
from workflow.session import ranking_words


def _tables(seed: int) -> list[list[SittingResult[str]]]:
    rng = random.Random(seed)
    tables = []
    for _ in range(300):
        size = rng.randint(2, 6)
        # Few values, so that ties reach every criterion and the coin flip.
        tables.append(
            [
                SittingResult(
                    player=f"P{i}",
                    score=rng.choice([-1, 0, 1, 5]),
                    games_won=rng.randint(0, 1),
                    hooks=rng.randint(0, 1),
                    last_game_score=rng.choice([0, 1]),
                )
                for i in range(size)
            ]
        )
    return tables


@pytest.mark.parametrize("lower_is_better", [False, True])
def test_in_english_the_reasons_read_as_the_ranking_words_them(lower_is_better: bool) -> None:
    seen: set[str | None] = set()
    with translation.override("en"):
        for n, table in enumerate(_tables(7)):
            placings = order_table(table, lower_is_better=lower_is_better, rng=random.Random(n))
            seen |= {p.decided_by for p in placings}
            assert ranking_words.reasons(placings) == {p.player: p.reason for p in placings}
            before = order_by_totals(table, lower_is_better=lower_is_better)
            assert ranking_words.reasons(before) == {p.player: p.reason for p in before}
    assert seen == {None, "score", "games_won", "hooks", "last_game_score", "coin_flip"}


@pytest.mark.parametrize(
    ("n", "said"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (21, "21st")],
)
def test_ordinals(n: int, said: str) -> None:
    with translation.override("en"):
        assert ranking_words.ordinal(n) == said
