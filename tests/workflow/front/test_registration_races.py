"""Sign-ups and cancellations at once, on PostgreSQL with real threads (docs/tournament.md,
"Sign-up and the waitlist"): every registration write locks the session first, so 50
people signing up for the last 5 places get exactly 5 places and 45 waitlist positions
in one consistent order, and 20 cancellations at once move exactly the first 20 of the
waitlist up, in order, each once. SQLite runs one write at a time, so these need
PostgreSQL (.ci/run provides it and turns a skip into a failure)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from tournaments.models import Registration, Session, SessionPlayer
from workflow.front import registrations

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Each call on its own thread and connection, all released at once."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            results[i] = calls[i]()
        except BaseException as exc:  # reported on the test's thread
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    return results


def open_night(make_session: Callable[..., Session], director: Any, capacity: int) -> Session:
    session = make_session(0, start=False)
    return registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=capacity, user=director
    )


def sign_up(session: Session, name: str) -> Callable[[], Registration]:
    return lambda: registrations.registration_create(
        session_id=session.pk, name=name, user=AnonymousUser()
    )


def assert_consistent(session: Session, capacity: int) -> list[Registration]:
    """Numbers 1..n given once each; the places held in the order of signing up; every
    list's positions 1, 2, 3, ... in that order; the roster is the registered."""
    signed = list(Registration.objects.filter(session=session).order_by("number"))
    assert [r.number for r in signed] == list(range(1, len(signed) + 1))
    times = [r.created_at for r in signed]
    assert times == sorted(times)
    rows = registrations.session_registrations(session)
    for status in ("registered", "waitlisted"):
        mine = [row.position for row in rows if row.registration.status == status]
        assert mine == list(range(1, len(mine) + 1))
    registered = {r.player_id for r in signed if r.status == "registered"}
    roster = set(SessionPlayer.objects.filter(session=session).values_list("player_id", flat=True))
    assert roster == registered
    assert len(registered) <= capacity
    return signed


def test_fifty_sign_ups_for_the_last_five_places_give_five_places_and_45_in_line(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = open_night(make_session, director, capacity=10)
    for i in range(5):
        sign_up(session, f"Early {i}")()
    results = race([sign_up(session, f"Racer {i:02d}") for i in range(50)])
    assert sorted(r.status for r in results).count("registered") == 5
    assert sorted(r.status for r in results).count("waitlisted") == 45
    signed = assert_consistent(session, 10)
    # The first five to get the lock got the places; everyone after them waits, in order.
    assert [r.status for r in signed] == ["registered"] * 10 + ["waitlisted"] * 45
    assert [registrations.position(r) for r in signed[10:]] == list(range(1, 46))


def test_twenty_cancellations_at_once_move_the_first_twenty_up_in_order(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = open_night(make_session, director, capacity=20)
    for i in range(45):
        sign_up(session, f"Player {i:02d}")()
    placed = list(Registration.objects.filter(session=session, status="registered"))
    assert len(placed) == 20
    race([lambda token=r.token: registrations.registration_cancel(token=token) for r in placed])
    signed = assert_consistent(session, 20)
    assert [r.status for r in signed] == ["cancelled"] * 20 + ["registered"] * 20 + [
        "waitlisted"
    ] * 5
    promoted = signed[20:40]
    assert all(r.promoted_at is not None for r in promoted)
    # Moved up one by one in waitlist order: each promotion no earlier than the one before.
    assert [r.promoted_at for r in promoted] == sorted(r.promoted_at for r in promoted)
    assert SessionPlayer.objects.filter(session=session).count() == 20
