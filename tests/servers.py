"""Real web processes for the tests that need more than Django's test client: gunicorn
nodes serving pytest's own database (PostgreSQL) and Redis, as a deployment runs them
(docs/operations.md, Several machines).

`gunicorn_nodes(2)` starts two independent gunicorn processes on two ports; each is a
`Node` with small `get`/`post` helpers over plain HTTP. The test must use
`django_db(transaction=True)`, so that what it writes is committed and the nodes see it.
Ports come from HUCKLEY_TEST_PORTS ("8200-8299") when set, else from 20000-20999, each
reserved for the pytest process that took it (`free_ports`), so that the workers of a
parallel run, or two runs at once, never start servers on the same port.

`run_venue(home)` runs the venue launcher (`python -m huckley.venue`, what `make venue` runs)
on a SQLite file of its own under `home`, as on a club's laptop: none of the suite's
database, cache or settings.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

REPO = Path(__file__).resolve().parents[1]


def needs_gunicorn() -> None:
    """Skip (a failure under HUCKLEY_STRICT_SKIPS) unless gunicorn is installed. A test that
    starts servers is also marked `services` or `postgres`: it needs PostgreSQL and Redis,
    which several processes can share, and is skipped at collection without them
    (tests/conftest.py)."""
    if not (Path(sys.executable).parent / "gunicorn").exists():
        pytest.skip("needs gunicorn (pip install '.[deploy]')")


def _port_taken(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


# One lock file a port, held by the process that reserved it until that process ends.
PORT_LOCKS = Path(tempfile.gettempdir()) / "huckley-test-ports"
_reserved: dict[int, IO[bytes]] = {}


def _reserve(port: int) -> bool:
    """Whether this process holds `port` now (an exclusive lock on its file, which no other
    process can take while this one lives: the kernel drops it when the process ends)."""
    if port in _reserved:
        return True
    PORT_LOCKS.mkdir(exist_ok=True)
    handle = (PORT_LOCKS / str(port)).open("ab")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return False
    _reserved[port] = handle
    return True


def free_ports(count: int) -> list[int]:
    """`count` ports where nothing listens, reserved for this process: a port handed out
    once can come back to this process's next test, never to another process."""
    low, high = (int(p) for p in (os.getenv("HUCKLEY_TEST_PORTS") or "20000-20999").split("-"))
    found: list[int] = []
    for port in range(low, high + 1):
        if len(found) == count:
            break
        if _reserve(port) and not _port_taken(port):
            found.append(port)
    if len(found) < count:
        raise RuntimeError(f"fewer than {count} free ports left in {low}-{high}")
    return found


def database_url() -> str:
    """The URL of the database this test runs on: pytest-django's test database."""
    db = connection.settings_dict
    user = quote(db.get("USER") or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def node_env(**extra: str) -> dict[str, str]:
    # HUCKLEY_ASGI is this process's own once a test imported huckley.asgi: a sync node
    # inheriting it would take its connections from the ASGI node's pool (the ASGI node
    # sets it for itself).
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "HUCKLEY_STRICT")) and k != "HUCKLEY_ASGI"
    }
    env.update(
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="huckley.settings",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Node:
    """One gunicorn process (its own workers, connections and memory)."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        sent = {**self.headers, **(headers or {})}
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.url + path, data=data, headers=sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return Answer(response.status, response.read(), dict(response.headers))
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read(), dict(error.headers))

    def get(self, path: str, **kw: Any) -> Answer:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any, **kw: Any) -> Answer:
        return self.request("POST", path, body, **kw)

    def stop(self) -> None:
        stop_group(self.process, timeout=10)


def stop_group(process: subprocess.Popen[Any], timeout: float, sig: int = signal.SIGTERM) -> None:
    """Stop a process started with `start_new_session=True` and all its children: `sig`,
    then SIGKILL if they are not gone within `timeout` seconds."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def start_node(
    port: int, log_dir: Path, *, workers: int, env: dict[str, str], asgi: bool = False
) -> Node:
    """gunicorn with sync workers on the WSGI application (deploy/huckley-web.service),
    or, `asgi`, with uvicorn workers on the ASGI one (deploy/huckley-ws@.service)."""
    log = log_dir / f"gunicorn-{port}.log"
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    app = (
        ["huckley.asgi:application", "--worker-class=huckley.workers.AsgiWorker"]
        if asgi
        else ["huckley.wsgi:application"]
    )
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                gunicorn,
                *app,
                "--config=python:huckley.gunicorn_conf",
                f"--bind=127.0.0.1:{port}",
                f"--workers={workers}",
                "--timeout=30",
                "--graceful-timeout=5",
                "--log-level=warning",
            ],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one
        )
    return Node(port=port, process=process, log=log)


def wait_until_answering(
    url: str, process: subprocess.Popen[Any], output: Callable[[], str], timeout: float = 60
) -> None:
    """Until `url` answers at all (any status): fail with the process's `output` if it
    exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited: {output()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s: {output()[-3000:]}")


def wait_until_up(node: Node, timeout: float = 60) -> None:
    wait_until_answering(node.url + "/api/rules/", node.process, node.log.read_text, timeout)


@contextlib.contextmanager
def gunicorn_nodes(
    count: int, log_dir: Path, *, workers: int = 1, asgi: bool = False, **env: str
) -> Iterator[list[Node]]:
    """Start `count` gunicorn processes on this test's database and Redis (`asgi`: the
    ASGI application under uvicorn workers, WebSocket included); stop them all at the
    end, so that their connections do not keep the test database open."""
    nodes: list[Node] = []
    try:
        for port in free_ports(count):
            nodes.append(start_node(port, log_dir, workers=workers, env=node_env(**env), asgi=asgi))
        for node in nodes:
            wait_until_up(node)
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def server_errors(node: Node) -> str:
    """Tracebacks in a node's log (an unhandled error is logged there)."""
    text = node.log.read_text(errors="replace")
    return text if "Traceback" in text else ""


@dataclass
class Worker:
    """One Celery worker process (with the solo pool the task runs in this very process;
    with prefork, in a child of it)."""

    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL: no ack, no clean-up, as when a machine dies or the OOM killer strikes."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def children(self) -> list[int]:
        """The pool's processes (Linux: /proc)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def stop(self) -> None:
        stop_group(self.process, timeout=15)


@contextlib.contextmanager
def celery_worker(queue: str, log: Path, *, pool: str = "solo", **env: str) -> Iterator[Worker]:
    """A worker on this test's database and Redis that takes tasks from `queue` only (so
    that no other worker, such as the one .ci/run starts, takes the test's tasks)."""
    celery = str(Path(sys.executable).parent / "celery")
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                celery,
                "-A",
                "huckley",
                "worker",
                f"--pool={pool}",
                "--concurrency=1",
                f"--queues={queue}",
                f"--hostname={queue}-{time.monotonic_ns()}@%h",
                "--without-mingle",
                "--without-gossip",
                "--loglevel=warning",
            ],
            cwd=REPO,
            env=node_env(CONN_MAX_AGE="0", **env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    worker = Worker(process=process, log=log)
    try:
        yield worker
    finally:
        worker.stop()


def stop_and_read(
    process: subprocess.Popen[str], timeout: float = 15, sig: int = signal.SIGTERM
) -> str:
    """`stop_group`, then what the process printed into its pipe (read once it has
    stopped: reading a running process's pipe would wait for it to end)."""
    stop_group(process, timeout, sig)
    return process.stdout.read() if process.stdout else ""


def venue_env(home: Path, port: int, **extra: str) -> dict[str, str]:
    """The environment of a venue on a laptop, on `port`: a SQLite file (`venue.sqlite3`)
    and a var directory (secret key, backups) under `home`; nothing of the suite's
    database, Redis, settings module or pytest."""
    dropped = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "HUCKLEY_ASGI"}
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in dropped and not k.startswith(("PYTEST", "HUCKLEY_STRICT"))
    }
    # The browser tests' switch for Playwright's event loop is no business of a server.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        PORT=str(port),
        SQLITE_PATH=str(home / "venue.sqlite3"),
        HUCKLEY_VAR_DIR=str(home / "var"),
        HUCKLEY_VENUE_URL=f"http://127.0.0.1:{port}/",
    )
    env.update(extra)
    return env


@dataclass
class Venue:
    """`python -m huckley.venue` serving `home`'s SQLite file at `url`."""

    url: str
    home: Path
    env: dict[str, str]
    process: subprocess.Popen[str]

    @property
    def database(self) -> Path:
        return Path(self.env["SQLITE_PATH"])

    def manage(self, *args: str) -> str:
        """`manage.py` on the venue's file (while it serves: SQLite in WAL mode); its
        output."""
        return subprocess.run(
            [sys.executable, str(REPO / "manage.py"), *args],
            cwd=REPO,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=180,
        ).stdout

    def stop(self) -> str:
        """Stop the launcher as Ctrl+C would (it stops its server, then takes its last
        backup); what it printed."""
        return stop_and_read(self.process)


@contextlib.contextmanager
def serving(
    command: list[str],
    env: dict[str, str],
    ready_url: str,
    *,
    timeout: float = 60,
    stop_signal: int = signal.SIGTERM,
) -> Iterator[subprocess.Popen[str]]:
    """`command` in a process group of its own with its output in a pipe, once
    `ready_url` answers; stopped with `stop_signal` at the end if it still runs."""
    process = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )

    def output() -> str:
        return stop_and_read(process, sig=stop_signal)

    try:
        wait_until_answering(ready_url, process, output, timeout)
        yield process
    finally:
        stop_group(process, timeout=15, sig=stop_signal)


@contextlib.contextmanager
def run_venue(home: Path, **env: str) -> Iterator[Venue]:
    """The venue launcher on a port of its own, once its lobby answers; stopped at the
    end if the test has not stopped it. `env`: WEB_CONCURRENCY, HUCKLEY_BACKUP_INTERVAL..."""
    (port,) = free_ports(1)
    full_env = venue_env(home, port, **env)
    url = f"http://127.0.0.1:{port}"
    launcher = [sys.executable, "-m", "huckley.venue"]
    with serving(launcher, full_env, f"{url}/lobby/", timeout=90) as process:
        yield Venue(url=url, home=home, env=full_env, process=process)
