"""The world of the every-write tests (test_every_write_checks.py,
test_every_write_own_rules.py and test_every_write_is_audited.py): the club, its season
and director, and sessions made on demand (tests/tournaments/write_world.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.tournaments.write_world import World
from tournaments.models import Club, Season, Session


@pytest.fixture
def world(club: Club, season: Season, director: Any, make_session: Callable[..., Session]) -> World:
    return World(club=club, season=season, director=director, make_session=make_session)
