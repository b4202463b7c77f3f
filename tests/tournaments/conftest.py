"""The world of the every-write tests (test_every_write_checks.py,
test_every_write_own_rules.py, test_every_write_is_audited.py and
test_every_write_pushes_seats.py): the club, its season and director, and sessions made
on demand (tests/tournaments/write_world.py); and what `seats_changed` says."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.tournaments.write_world import World
from tournaments.models import Club, Season, Session
from tournaments.signals import seats_changed


@pytest.fixture
def world(club: Club, season: Season, director: Any, make_session: Callable[..., Session]) -> World:
    return World(club=club, season=season, director=director, make_session=make_session)


#: What `seats_changed` said: the session, the players, the tables.
Sent = tuple[int, frozenset[int] | None, frozenset[int] | None]


@pytest.fixture
def sent() -> Iterator[list[Sent]]:
    """What `seats_changed` says, heard instead of the push to the phones (tests/play
    covers it)."""
    from play import push

    heard: list[Sent] = []

    def receiver(
        sender: object,
        *,
        session_id: int,
        player_ids: frozenset[int] | None,
        table_ids: frozenset[int] | None,
        **kwargs: object,
    ) -> None:
        heard.append((session_id, player_ids, table_ids))

    seats_changed.disconnect(dispatch_uid="play-push-seats")
    seats_changed.connect(receiver, dispatch_uid="test-seats-heard")
    try:
        yield heard
    finally:
        seats_changed.disconnect(dispatch_uid="test-seats-heard")
        seats_changed.connect(push.seats_changed, dispatch_uid="play-push-seats")
