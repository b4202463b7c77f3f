"""The settings the suite runs under (pyproject.toml, `DJANGO_SETTINGS_MODULE`): the
project's own (`huckley.settings`), with what each pytest process must have to itself
when several run at once (pytest-xdist's workers, or two `make test` in one checkout), and
two savings no test can tell apart. docs/operations.md, "Tests and CI".

Each process has its own
- SQLite test file, `var/test-<run>.sqlite3` (pytest-django adds `_gw0`, `_gw1`... for
  each worker of one run; `<run>` is the run's id, so two runs never meet);
- PostgreSQL test database (pytest-django: `test_<NAME>_gw0`, ...);
- Redis database: the one REDIS_URL names for the first worker, the next for the second,
  and so on (the cache, its throttles and page generations, the Celery broker and the
  channel layer all live there, so no key of one worker is seen by another);
- Celery queue, `huckley-test-<worker>`, which only that worker's Celery worker takes
  (tests/conftest.py starts one for the `services` tests).
The servers the tests start (tests/servers.py) inherit these through the environment.

The savings: a fast password hasher (the production one takes a third of a second on
purpose; tests/huckley/test_passwords.py signs in through the real pages either way),
and PostgreSQL commits that do not wait for the disk (`synchronous_commit=off`: a crash
could lose the last commits, which a test database never needs; locks and visibility are
unchanged).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under pytest-xdist
WORKER_INDEX = int(WORKER[2:]) if WORKER.startswith("gw") else 0
# One id for every worker of a run (pytest-xdist's), else this process's.
RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:12] or f"p{os.getpid()}"


def redis_database(url: str, index: int) -> str:
    """`url` moved `index` databases on from the one it names (0 when it names none)."""
    parts = urlsplit(url)
    first = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{first + index}"))


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_database(os.environ["REDIS_URL"], WORKER_INDEX)
os.environ["CELERY_QUEUE"] = f"huckley-test-{WORKER or 'main'}"
os.environ.setdefault(
    "SQLITE_TEST_PATH", str(Path(__file__).resolve().parents[1] / "var" / f"test-{RUN}.sqlite3")
)

from huckley.settings import *  # noqa: E402, F403
from huckley.settings import DATABASES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
