"""Finishing a session refreshes the season ladder in the background: eagerly in the
embedded default, on the real broker and worker in CI."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

from huckley.celery import app as celery_app
from tournaments.models import Session
from tournaments.permissions import SYSTEM
from workflow.club import selectors as club_selectors
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed


def finish(make_session: Callable[..., Session]) -> Session:
    session = make_session(8)
    # Only a night with a finished game counts on the ladder.
    finish_sitting_unplayed(session.sittings.get(), random.Random(1))
    cache.delete(club_selectors.season_cache_key(session.season_id))
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    return session


@pytest.mark.django_db
def test_finishing_a_session_queues_the_season_refresh_after_commit(
    make_session: Callable[..., Session],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In-process, whatever the configuration; the worker test below covers the broker.
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        session = finish(make_session)
    # One refresh queued, after the commit (the page cache's generation bumps, when Redis
    # keeps them, are after-commit callbacks of their own).
    queued = [c for c in callbacks if "enqueue_on_commit" in getattr(c, "__qualname__", "")]
    assert len(queued) == 1
    rows = cache.get(club_selectors.season_cache_key(session.season_id))
    assert [r.player.pk for r in rows] == [
        r.player.pk for r in club_selectors.season_standings(session.season_id)
    ]
    assert len(rows) == 8


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_refreshes_the_season_ladder(make_session: Callable[..., Session]) -> None:
    session = finish(make_session)
    key = club_selectors.season_cache_key(session.season_id)
    deadline = time.monotonic() + 30
    while cache.get(key) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    rows = cache.get(key)
    assert rows is not None, "the worker did not refresh the season standings within 30 s"
    assert len(rows) == 8
