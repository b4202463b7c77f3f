"""Suite-wide fixtures and the strict-skip switch.

Under `make test` on a fresh machine, tests that need Chromium, PostgreSQL, Redis or a
Celery worker skip with a reason. `.ci/run` provides all of them and sets
HUCKLEY_STRICT_SKIPS=1, which turns every skip into a failure, so nothing that CI is
meant to prove can pass by being skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator
from typing import Any

import pytest

STRICT_SKIPS = os.getenv("HUCKLEY_STRICT_SKIPS", "") not in {"", "0", "false"}
# The strict run of .ci/run leaves out the tests that cannot depend on the database, the
# cache, Celery or a server (tests/purity.py says which, from the code): `make test` has
# run them on the same code a few minutes before.
DEPENDENT_ONLY = os.getenv("HUCKLEY_DEPENDENT_ONLY", "") not in {"", "0", "false"}


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not DEPENDENT_ONLY:
        return
    from tests.purity import is_pure

    pure = [item for item in items if is_pure(item)]
    if pure:
        config.hook.pytest_deselected(items=pure)
        left_out = {id(item) for item in pure}
        items[:] = [item for item in items if id(item) not in left_out]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[Any]:
    outcome = yield
    report = outcome.get_result()
    if STRICT_SKIPS and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under HUCKLEY_STRICT_SKIPS=1: {reason}"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty local-memory cache: SQLite reuses the ids of rows
    rolled back after a test, so a cached page of an earlier test could match them.
    Redis is left alone: PostgreSQL never reuses ids, and flushing Redis would also
    flush the Celery broker that shares its database."""
    from django.conf import settings
    from django.core.cache import cache

    from tournaments import pagecache

    if settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()
    else:
        # The anonymous callers' sheet and sign-up counts (api/throttles.py, and the
        # sign-up page's) in Redis: every test's client is 127.0.0.1, so what earlier
        # tests printed or signed up would throttle a later one.
        cache.delete_pattern("throttle_anon_sheets_*")  # type: ignore[attr-defined]
        cache.delete_pattern("throttle_anon_signups_*")  # type: ignore[attr-defined]
        cache.delete_pattern("limit:registration:*")  # type: ignore[attr-defined]
        # The wrong door codes counted per client and session (workflow/front/door.py).
        cache.delete_pattern("door:wrong:*")  # type: ignore[attr-defined]
    # Each process's own store of public pages (tournaments/pagecache.py), for the same
    # reason.
    pagecache.forget()


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
