"""The faults of issue 13 in the services behind Huckley, each with the test that failed
before its fix: Redis down, a worker killed mid-task, a dropped database connection
(docs/operations.md, Faults). The faults in what a client sends are in
test_faults_input.py."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client, RequestFactory, override_settings

from tests.postgres import other_connection
from tournaments.models import Session
from tournaments.permissions import SYSTEM
from workflow.club import selectors as club_selectors
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("redis_down_probe.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_probe(redis_url: str, tmp_path: Path, **env: str) -> tuple[dict[str, Any], str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, str(PROBE)],
        env={
            **clean,
            **env,
            "REDIS_URL": redis_url,
            "SQLITE_PATH": str(tmp_path / "probe.sqlite3"),
            "DJANGO_SETTINGS_MODULE": "huckley.settings",
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def assert_everything_worked(out: dict[str, Any], log: str) -> None:
    assert out["session_page"] == 200
    assert out["club_page"] == 200
    assert out["token"] == 200
    assert out["token_type"] == "application/json"
    assert out["finish"] == 302  # to the standings, not an error page
    assert out["finished"] is True
    assert out["ladder_rows"] == 8
    assert out["club_page_after"] == 200
    # No request waits on Redis: refused connections give up at once, not after retries.
    assert out["finish_s"] < 3, out
    assert out["club_page_after_s"] < 3, out
    # Cache errors are logged, and the refresh the broker could not take ran in the request.
    assert "ConnectionError" in log
    assert "running it in the request" in log
    # The outage is one line (a minute), not a traceback per cache call: about 20 requests.
    assert out["requests"] == 20
    assert log.count("Redis cache unreachable") == 1, log[-3000:]
    assert "Exception ignored" not in log
    assert "Traceback" not in log, log[-3000:]


# 1. Redis down -------------------------------------------------------------------------


def test_with_redis_unreachable_pages_sign_in_and_finishing_a_session_work(
    tmp_path: Path,
) -> None:
    # A port where nothing listens: every cache read, throttle count and task queued
    # meets a refused connection, as when Redis has stopped.
    out, log = run_probe(f"redis://127.0.0.1:{free_port()}/0", tmp_path)
    assert_everything_worked(out, log)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[int]:
    """A redis-server of the test's own on port 6391 (or a free one), stopped at the end."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs redis-server on PATH to start and stop a Redis of its own")
    port = 6391
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            port = free_port()
    subprocess.run(
        [
            server,
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            "--dir",
            str(tmp_path),
            "--pidfile",
            str(tmp_path / "redis.pid"),
        ],
        check=True,
        capture_output=True,
    )
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # No retries: once the test has stopped this Redis, the default retries with backoff
    # took four seconds to give up on the SHUTDOWN below.
    client = redis.Redis(port=port, retry=Retry(NoBackoff(), 0))
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    yield port
    with contextlib.suppress(redis.ConnectionError):  # already stopped by the test
        client.shutdown(nosave=True)


@pytest.mark.services
def test_a_redis_stopped_mid_session_leaves_pages_sign_in_and_finishing_working(
    own_redis: int, tmp_path: Path
) -> None:
    # The probe warms the cache on the running Redis, stops it (SHUTDOWN), then works on.
    out, log = run_probe(f"redis://127.0.0.1:{own_redis}/0", tmp_path, PROBE_SHUTDOWN_REDIS="1")
    assert out["warm_session_page"] == 200
    assert out["redis_stopped"] is True
    assert_everything_worked(out, log)


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_a_bug_behind_the_api_answers_json_not_an_html_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from api.views import misc

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    # Keep the endpoint's declared permission (anyone), so the bug is what answers.
    broken.need = misc.ObtainToken.post.need  # type: ignore[attr-defined]
    monkeypatch.setattr(misc.ObtainToken, "post", broken)
    response = Client(raise_request_exception=False).post(
        "/api/auth/token/", {}, content_type="application/json"
    )
    assert response.status_code == 500
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_a_bug_behind_a_page_still_answers_the_html_error_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.template import loader

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(loader, "render_to_string", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert response.headers["Content-Type"].startswith("text/html")


def test_the_redis_settings_ignore_cache_errors_and_never_wait_long() -> None:
    from tests.huckley.test_settings import run_settings

    result = run_settings(
        {"REDIS_URL": "redis://r:6379/2"},
        "from django.conf import settings as s; import json; o = s.CACHES['default']['OPTIONS']; "
        "print(json.dumps([o['IGNORE_EXCEPTIONS'], o['SOCKET_CONNECT_TIMEOUT'], "
        "o['SOCKET_TIMEOUT'], s.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS, s.CELERY_RESULT_BACKEND, "
        "s.CELERY_TASK_PUBLISH_RETRY, s.CELERY_BROKER_TRANSPORT_OPTIONS]))",
    )
    assert result.returncode == 0, result.stderr
    ignore, connect, read, logged, backend, publish_retry, transport = json.loads(result.stdout)
    assert ignore is True
    assert logged is True
    assert connect <= 1
    assert read <= 1
    assert backend is None  # nothing reads results; no result backend to retry for seconds
    assert publish_retry is False
    assert transport["socket_connect_timeout"] <= 1


# 2. A worker killed mid-task -----------------------------------------------------------


def test_a_task_a_killed_worker_left_unacknowledged_is_handed_out_again_within_a_minute() -> None:
    from tests.huckley.test_settings import run_settings

    result = run_settings(
        {"REDIS_URL": "redis://r:6379/2"},
        "from huckley.celery import app; "
        "print(app.conf.task_acks_late, app.conf.broker_transport_options['visibility_timeout'])",
    )
    assert result.returncode == 0, result.stderr
    acks_late, visibility = result.stdout.split()
    assert acks_late == "True"  # a killed task is not lost...
    assert int(visibility) <= 60  # ...and goes out again within a minute, not an hour


@pytest.mark.django_db
def test_the_season_ladder_is_current_even_if_the_refresh_task_never_ran(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8)
    before = club_selectors.season_standings_cached(
        session.season_id
    )  # cached, as the club page does
    assert before == []
    # A night counts on the ladder once a game of it finished.
    finish_sitting_unplayed(session.sittings.get(), random.Random(7))
    # Finished with its on-commit refresh never run (this test's transaction never
    # commits): what a worker killed mid-task, or a lost task, leaves behind.
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    rows = club_selectors.season_standings_cached(session.season_id)
    assert [r.player.pk for r in rows] == [
        r.player.pk for r in club_selectors.season_standings(session.season_id)
    ]
    assert len(rows) == 8


# 3. A dropped database connection ------------------------------------------------------


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_database_connection_postgresql_dropped_is_reopened_by_the_next_request(
    make_session: Callable[..., Session],
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) to terminate a backend; .ci/run sets it")
    assert connection.settings_dict["CONN_MAX_AGE"] > 0, "kept connections are what can go stale"
    session = make_session(8)
    handler = WSGIHandler()  # the real request cycle, with its connection bookkeeping

    def get(path: str) -> str:
        statuses: list[str] = []
        environ = RequestFactory().get(path).environ
        body = handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
        b"".join(body)
        body.close()  # request_finished: the connection is kept (CONN_MAX_AGE)
        return statuses[0]

    assert get(f"/sessions/{session.pk}/").startswith("200")
    kept = connection.connection
    assert kept is not None
    assert not kept.closed
    with other_connection() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [kept.info.backend_pid])
    time.sleep(0.2)
    assert get(f"/sessions/{session.pk}/").startswith("200")
    assert get(f"/api/sessions/{session.pk}/").startswith("200")
