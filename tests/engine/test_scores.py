"""Which score is better: one rule, asked by every ranking."""

from __future__ import annotations

import pytest

import engine


@pytest.mark.parametrize(
    ("rules_id", "scores", "best"),
    [
        ("huckley-buck", [3, 11, -2], 11),  # counts up: the highest wins
        ("buck-euchre", [25, 4, 13], 4),  # counts down from 25: the lowest wins
    ],
)
def test_the_best_score_follows_the_game_s_sense_of_better(
    rules_id: str, scores: list[int], best: int
) -> None:
    lower = engine.RULES[rules_id].lower_is_better
    assert engine.best_score(scores, lower_is_better=lower) == best
    ordered = sorted(scores, key=lambda s: engine.score_key(s, lower_is_better=lower))
    assert ordered[0] == best


def test_the_sort_key_keeps_equal_scores_equal() -> None:
    for lower in (True, False):
        assert engine.score_key(7, lower_is_better=lower) == engine.score_key(
            7.0, lower_is_better=lower
        )
