"""A Celery worker SIGKILLed in the middle of a task (docs/operations.md, Faults): the
task is acknowledged late, so it stays in Redis's unacknowledged set; once it is older
than the visibility timeout a worker that is back takes it again, and since the task
recomputes from the database its effect happens exactly once. A pool process killed
alone puts its task back at once.

The test holds the club's row lock, so the ratings task (which takes that lock first)
is caught mid-run; it kills the worker there, releases the lock, starts a new worker and
times the task's second run. It shortens the visibility timeout to 10 s to stay quick."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from huckley.celery import app as celery_app
from ratings import tasks
from ratings.models import Rating, RatingHistory
from scoring.models import Game
from tests.postgres import other_connection
from tests.servers import celery_worker, database_url, needs_gunicorn
from tournaments.models import Session
from workflow.session.simulation import play_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

VISIBILITY = 10
APP = "huckley-worker-killed"


def admin() -> psycopg.Connection[Any]:
    return other_connection()


def ratings_of(game: Game) -> list[tuple[Any, ...]]:
    return list(
        RatingHistory.objects.filter(game=game)
        .order_by("player_id")
        .values_list("player_id", "rank", "mu", "sigma", "games")
    )


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> float:
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"{what} did not happen within {seconds:.0f} s")
        time.sleep(0.2)
    return time.monotonic() - start


@pytest.fixture
def stale(make_session: Callable[..., Session], monkeypatch: pytest.MonkeyPatch) -> Stale:
    """A finished game whose ratings were computed once (eagerly, in this process, as a
    worker would), kept as the expected rows, then deleted: a recompute must bring them
    back."""
    needs_gunicorn()
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    play_game(game, seed=3)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    expected = ratings_of(game)
    assert len(expected) == 4
    RatingHistory.objects.filter(club=session.club).delete()
    Rating.objects.filter(club=session.club).delete()
    return Stale(session=session, game=game, expected=expected)


@dataclass
class Stale:
    session: Session
    game: Game
    expected: list[tuple[Any, ...]]

    def queue_the_task(self, queue: str) -> None:
        tasks.ratings_recompute_from_game.apply_async(
            args=(self.session.club_id, self.game.rules_id, self.game.pk), queue=queue
        )

    def recomputed_once(self) -> None:
        # Exactly once in effect: the same rows as one run, whatever ran twice.
        time.sleep(1)
        assert ratings_of(self.game) == self.expected
        assert Rating.objects.filter(club=self.session.club).count() == 4


def worker_env() -> dict[str, str]:
    return {
        "DATABASE_URL": f"{database_url()}?application_name={APP}",
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
    }


def task_waits_on_the_lock(db: psycopg.Connection[Any]) -> bool:
    row = db.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
        "AND wait_event_type = 'Lock'",
        [APP],
    ).fetchone()
    return bool(row and row[0])


def lock_club(locker: psycopg.Connection[Any], club_id: int) -> None:
    locker.execute("SELECT 1 FROM tournaments_club WHERE id = %s FOR UPDATE", [club_id])


def test_a_task_whose_worker_was_killed_runs_again_once_a_worker_is_back(
    stale: Stale, tmp_path: Path
) -> None:
    queue = f"huckley-killed-{os.getpid()}"
    log = tmp_path / "worker.log"
    with admin() as db, admin() as locker:
        with locker.transaction():
            lock_club(locker, stale.session.club_id)
            with celery_worker(queue, log, **worker_env()) as first:
                stale.queue_the_task(queue)
                wait_for(lambda: task_waits_on_the_lock(db), 60, "the worker starting the task")
                first.kill()
                killed_at = time.monotonic()
        # The lock is released; the killed worker's transaction never committed.
        assert ratings_of(stale.game) == []

        with celery_worker(queue, log, **worker_env()):
            back_at = time.monotonic()
            waited = wait_for(
                lambda: len(ratings_of(stale.game)) == 4,
                VISIBILITY + 40,
                "the task running again",
            )
            stale.recomputed_once()
    since_kill = time.monotonic() - killed_at
    print(
        f"\ntask ran again {waited:.1f} s after a worker was back, "
        f"{since_kill:.1f} s after the kill"
    )
    assert waited <= VISIBILITY + 20, log.read_text()[-3000:]
    assert back_at - killed_at < VISIBILITY, "the test meant to have the worker back early"


def test_a_task_whose_pool_process_was_killed_runs_again_at_once(
    stale: Stale, tmp_path: Path
) -> None:
    # The OOM killer's usual victim: the pool process running the task, not the worker.
    queue = f"huckley-child-killed-{os.getpid()}"
    log = tmp_path / "worker.log"
    # A visibility timeout of a minute: a task back sooner was put back by the worker.
    env = worker_env() | {"CELERY_VISIBILITY_TIMEOUT": "60"}
    prefork = celery_worker(queue, log, pool="prefork", **env)
    with admin() as db, admin() as locker, prefork as worker:
        with locker.transaction():
            lock_club(locker, stale.session.club_id)
            stale.queue_the_task(queue)
            wait_for(lambda: task_waits_on_the_lock(db), 60, "the pool starting the task")
            (child,) = worker.children()
            os.kill(child, signal.SIGKILL)
            killed_at = time.monotonic()
            time.sleep(0.5)
            assert ratings_of(stale.game) == []
        # Put back at once (CELERY_TASK_REJECT_ON_WORKER_LOST), not after the visibility
        # timeout, and run by the pool process that replaces the dead one.
        waited = wait_for(lambda: len(ratings_of(stale.game)) == 4, 30, "the task running again")
        stale.recomputed_once()
    print(f"\ntask ran again {time.monotonic() - killed_at:.1f} s after its process was killed")
    assert waited < 30, log.read_text()[-3000:]
