"""The rows most tests start from (the `director`, `club`, `season` and `make_session`
fixtures of tests/conftest.py), as plain functions; and `rows_for_the_module`, for a
module whose tests all read one costly setup.

`rows_for_the_module` is pytest-django's pattern for data made once a module: the rows are
written in a transaction of their own, opened before the module's first test and rolled
back after its last. Each test runs, as with the `db` fixture always, in a transaction
rolled back at its end, which is then a savepoint inside the module's: every test starts
from the same rows, whatever an earlier test wrote or deleted. Only for modules whose
tests all use `db` (never `transactional_db`, a live server or another connection: the
module's transaction holds SQLite's write lock until its end), and whose fixtures fetch
the rows again for each test by key, so that no Python object crosses tests.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from django.db import transaction


def make_director() -> Any:
    from tests.factories import UserFactory

    return UserFactory(username="dee-director")


def make_club(director: Any) -> Any:
    from tests.factories import ClubFactory

    club = ClubFactory(name="Tuesday Club", slug="tuesday")
    club.directors.add(director)
    return club


def make_season(club: Any) -> Any:
    from tests.factories import SeasonFactory

    return SeasonFactory(club=club, name="2026")


def build_session(
    club: Any,
    season: Any,
    director: Any,
    players: int = 13,
    *,
    seed: int = 7,
    start: bool = True,
    **kw: Any,
) -> Any:
    """A session of `players` generated names, all checked in; started unless `start` is
    false."""
    from workflow.session import services, start_finish
    from workflow.session.simulation import generated_names

    session = services.session_create(
        club=club,
        season=season,
        name="Club night",
        date=season.starts_on,
        rules_id=kw.pop("rules_id", "huckley-buck"),
        games_per_sitting=kw.pop("games_per_sitting", 2),
        new_names=generated_names(players),
        seed=seed,
        is_public=kw.pop("is_public", True),
        double_entry=kw.pop("double_entry", False),
        user=director,
    )
    session.entries.update(checked_in=True)
    if start:
        start_finish.session_start(session_id=session.pk, user=director)
    session.refresh_from_db()
    return session


DOOR_NAMES = ["Rosa Díaz", "Pete O'Brien", "Ann Lee", "Anna Berg", "Bob Stone", "Cy Young"]


def make_door_night(club: Any, season: Any, director: Any) -> Any:
    """A session not started, of `DOOR_NAMES`, whose door code is 4821 (the door's tests:
    the service, its pages, and the browser's)."""
    from tournaments.models import Session
    from workflow.session import services

    session = services.session_create(
        club=club,
        season=season,
        name="Door night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=DOOR_NAMES,
        user=director,
    )
    Session.objects.filter(pk=session.pk).update(door_code="4821")
    session.refresh_from_db()
    return session


@contextlib.contextmanager
def rows_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    """What is written inside is seen by each test of the module and rolled back after
    the last (the module docstring says when it may be used)."""
    with django_db_blocker.unblock():
        # As Django's TestCase opens its class-wide transaction: marked as a test's, so
        # that a durable atomic block of the code under test may open inside it.
        outer = transaction.atomic()
        outer._from_testcase = True  # type: ignore[attr-defined]
        outer.__enter__()
        try:
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
