"""An audit entry takes no lock on its club's row (docs/architecture.md, "Lock order"):
a session's write records its entry while a club write that holds the club (a rename of
one of the session's players) waits for the session, and neither deadlocks. PostgreSQL
only: SQLite runs one write at a time (.ci/run provides PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from scoring.locks import lock_session
from tournaments import audit
from tournaments.models import AuditEntry, Player, Session
from tournaments.permissions import SYSTEM
from workflow.club import services as club_services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_session_write_records_its_entry_while_a_rename_holds_the_club(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    player = Player.objects.filter(entries__session=session).first()
    assert player is not None
    holding, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def session_write() -> None:
        try:
            with transaction.atomic():
                lock_session(session.pk)  # as every session-wide write does first
                holding.set()
                release.wait(timeout=30)
                audit.record(
                    SYSTEM, club=session.club_id, session=session.pk, action="x.y", summary="z"
                )
        except BaseException as e:
            failures.append(e)
        finally:
            connection.close()

    def rename() -> None:
        try:
            # Locks the club, then waits for the session (its pages' versions).
            club_services.player_rename(player_id=player.pk, name="Renamed", user=director)
        except BaseException as e:
            failures.append(e)
        finally:
            connection.close()

    writer = threading.Thread(target=session_write)
    writer.start()
    assert holding.wait(timeout=30)
    renamer = threading.Thread(target=rename)
    renamer.start()
    renamer.join(timeout=1.5)
    assert renamer.is_alive(), "the rename did not wait for the session"
    release.set()
    writer.join(timeout=30)
    renamer.join(timeout=30)
    assert failures == []
    assert AuditEntry.objects.filter(action="x.y").count() == 1
    assert Player.objects.get(pk=player.pk).name == "Renamed"
