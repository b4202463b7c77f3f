"""Suite-wide fixtures, the strict-skip switch and which tests a run takes.

Under `make test` on a fresh machine, tests that need Chromium, PostgreSQL, Redis or a
Celery worker skip with a reason; those that need PostgreSQL and Redis (marked `services`
or `postgres`) are skipped at collection, before any fixture or transaction is set up.
`.ci/run` provides all of them and sets HUCKLEY_STRICT_SKIPS=1, which turns every skip
into a failure, so nothing that CI is meant to prove can pass by being skipped.

The suite runs under tests/settings.py, which gives each pytest process (each
pytest-xdist worker) a database, a Redis database and a Celery queue of its own.
docs/operations.md, "Tests and CI", says which tests the second run of CI takes and why.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

STRICT_SKIPS = os.getenv("HUCKLEY_STRICT_SKIPS", "") not in {"", "0", "false"}
# In CI (`CI=true`, .ci/run) `make test` may skip only what needs PostgreSQL and Redis (the
# strict run takes those): a browser, PDF or proxy test that skips there is a failure, so
# the tests that run in one pass only cannot pass unseen.
CI = os.getenv("CI", "") not in {"", "0", "false"}
# The strict run of .ci/run leaves out the tests that cannot depend on the database, the
# cache, Celery or a server (tests/purity.py says which, from the code): `make test` has
# run them on the same code a few minutes before.
DEPENDENT_ONLY = os.getenv("HUCKLEY_DEPENDENT_ONLY", "") not in {"", "0", "false"}

# Hypothesis: the examples a property gets where its test names no count of its own
# (`@settings(max_examples=...)` wins), and a failure that prints how to replay it
# (`@reproduce_failure`; .ci/run also prints the run's `--hypothesis-seed`). No deadline:
# the parallel runs load the machine, and a slow example is not a wrong one.
hypothesis_settings.register_profile(
    "huckley",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI's: the same properties with fewer examples each where the test names none, as two
# runs of it on every change, with a new seed each time, try more than one run would.
hypothesis_settings.register_profile(
    "ci", parent=hypothesis_settings.get_profile("huckley"), max_examples=50
)
hypothesis_settings.load_profile("huckley")

NEEDS_SERVICES = ("services", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    # On SQLite the test database is a file in var/ (huckley/settings.py says why).
    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    if sqlite and name and name != ":memory:":
        os.makedirs(os.path.dirname(name), exist_ok=True)

    # pytest-django's live server (schemathesis, the browser tests) sends a response's
    # headers and its body in separate writes: with Nagle's algorithm on, a keep-alive
    # client's delayed ACK held every body back 40 ms (48 -> 2 ms a request).
    from django.test.testcases import QuietWSGIRequestHandler

    QuietWSGIRequestHandler.disable_nagle_algorithm = True


def on_postgres_and_redis() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql") and bool(
        settings.REDIS_URL
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.conf import settings

    services = on_postgres_and_redis()
    worker = services and not settings.CELERY_TASK_ALWAYS_EAGER
    skip = pytest.mark.skip(
        reason="needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL); .ci/run sets them"
    )
    for item in items:
        if not any(item.get_closest_marker(m) for m in NEEDS_SERVICES):
            continue
        if not services:
            # Skipped before any fixture runs: no transaction to set up or empty.
            item.add_marker(skip)
        elif worker and item.get_closest_marker("services"):
            # As `usefixtures` would, had it been written on the test (a marker added now
            # comes after pytest has listed the test's fixtures).
            item.fixturenames.insert(0, "celery_worker_of_this_process")  # type: ignore[attr-defined]
    if not DEPENDENT_ONLY:
        return
    from tests.purity import is_pure

    # Left out of the second run: the pure tests, and the browser tests (the pages they
    # drive are tested on PostgreSQL without a browser); docs/operations.md says why.
    once = [item for item in items if is_pure(item) or item.get_closest_marker("browser")]
    if once:
        config.hook.pytest_deselected(items=once)
        left_out = {id(item) for item in once}
        items[:] = [item for item in items if id(item) not in left_out]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[Any]:
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    waits_for_services = any(item.get_closest_marker(m) for m in NEEDS_SERVICES)
    if STRICT_SKIPS or (CI and not waits_for_services):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        switch = "HUCKLEY_STRICT_SKIPS=1" if STRICT_SKIPS else "CI=true"
        report.longrepr = f"skipped under {switch}: {reason}"


# Deletes every key matching one of the patterns given, in one command.
DELETE_MATCHING = """
for _, pattern in ipairs(ARGV) do
    local cursor = "0"
    repeat
        local found = redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", 1000)
        cursor = found[1]
        for _, key in ipairs(found[2]) do redis.call("DEL", key) end
    until cursor == "0"
end
"""
# The anonymous callers' sheet and sign-up counts (api/throttles.py, and the sign-up
# page's): every test's client is 127.0.0.1, so what earlier tests printed or signed up
# would throttle a later one. And the wrong door codes counted per client and session
# (workflow/front/door.py).
LIMITS = (
    "throttle_anon_sheets_*",
    "throttle_anon_signups_*",
    "limit:registration:*",
    "door:wrong:*",
)


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with an empty local-memory cache: SQLite reuses the ids of rows
    rolled back after a test, so a cached page of an earlier test could match them.
    In Redis only the counts of `LIMITS` go, in one round trip: PostgreSQL never reuses
    ids, and the worker's Redis database also holds its Celery queue.

    With the local-memory cache, a session's page generation is read from its row, and
    each process trusts the one it read for a quarter of a second
    (`pagecache.GENERATION_MEMO`): whether a page's second request reads it again (one
    query more) then hung on how fast the machine was. Here the memo's clock stands
    still, so a pinned query count is the same at any load; every write through this
    process forgets the memo at once, as it always does, and
    tests/tournaments/test_pagecache.py moves the clock by hand."""
    from django.conf import settings
    from django.core.cache import cache

    from tournaments import pagecache

    if settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()
        monkeypatch.setattr(pagecache, "_now", lambda: 0.0)
    else:
        patterns = [cache.make_key(pattern) for pattern in LIMITS]
        cache.client.get_client().eval(DELETE_MATCHING, 0, *patterns)  # type: ignore[attr-defined]
    # Each process's own store of public pages (tournaments/pagecache.py), for the same
    # reason.
    pagecache.forget()


@pytest.fixture(scope="session")
def celery_worker_of_this_process(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """A Celery worker for this pytest process's `services` tests: on its test database,
    its Redis database, and its queue (tests/settings.py), so that the workers of a
    parallel run never take each other's tasks. Stopped before the database is dropped."""
    from django.conf import settings

    from tests.servers import celery_worker

    log = Path(tmp_path_factory.mktemp("celery")) / "worker.log"
    with celery_worker(settings.CELERY_TASK_DEFAULT_QUEUE, log):
        yield


# Fixtures shared by the tournament and scoring tests. They import Django models, so
# the imports wait until pytest-django has set Django up. The rows are made by plain
# functions (tests/rows.py), which a module that shares one costly setup among its tests
# calls too (tests/rows.py, `rows_for_the_module`).


@pytest.fixture
def director(db: None) -> Any:
    from tests.rows import make_director

    return make_director()


@pytest.fixture
def club(director: Any) -> Any:
    from tests.rows import make_club

    return make_club(director)


@pytest.fixture
def season(club: Any) -> Any:
    from tests.rows import make_season

    return make_season(club)


@pytest.fixture
def make_session(club: Any, season: Any, director: Any) -> Callable[..., Any]:
    from tests.rows import build_session

    def make(players: int = 13, *, seed: int = 7, start: bool = True, **kw: Any) -> Any:
        return build_session(club, season, director, players, seed=seed, start=start, **kw)

    return make


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database; on PostgreSQL, the connections still open to it at
    the end of the run are closed before it is dropped. The servers have stopped by then:
    what is left are idle connections of threads of this very process (seen: a thread
    of a pool, which outlives the test that used it, holding its connection), which
    would keep the database from being dropped ("being accessed by other users")."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
