"""The tournament format's per-game facts come from the engine: one list of games, one
sense of a better score."""

from __future__ import annotations

import pytest

import engine
from tournaments import format as fmt


def test_every_rules_id_of_the_engine_has_a_format() -> None:
    assert list(fmt.FORMATS) == list(engine.RULES)
    assert len(fmt.FORMATS) == len(engine.RULES)


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_the_sense_of_a_better_score_is_the_engines(rules_id: str) -> None:
    rules = fmt.format_for(rules_id)
    assert rules.rules_id == rules_id
    assert rules.lower_is_better is engine.rules_info(rules_id).lower_is_better


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_the_table_sizes_are_the_ones_the_game_states(rules_id: str) -> None:
    """A game states its table sizes in its rules info; the format only reads them, so
    adding a game never touches the format."""
    sizes = engine.rules_info(rules_id).table_sizes
    rules = fmt.format_for(rules_id)
    assert (rules.split_min, rules.split_max, rules.play_min, rules.play_max, rules.ideal) == (
        sizes.split_min,
        sizes.split_max,
        sizes.play_min,
        sizes.play_max,
        sizes.ideal,
    )
