"""Real web processes for the tests that need more than Django's test client: gunicorn
nodes serving pytest's own database (PostgreSQL) and Redis, as a deployment runs them
(docs/operations.md, Several machines).

`gunicorn_nodes(2)` starts two independent gunicorn processes on two ports; each is a
`Node` with small `get`/`post` helpers over plain HTTP. The test must use
`django_db(transaction=True)`, so that what it writes is committed and the nodes see it.
Ports come from HUCKLEY_TEST_PORTS ("8200-8299") when set, else from the system's free
ports.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

REPO = Path(__file__).resolve().parents[1]


def needs_postgres_and_redis() -> None:
    """Skip (a failure under HUCKLEY_STRICT_SKIPS) unless the suite runs on PostgreSQL and
    Redis, which several processes can share; SQLite and the local-memory cache cannot."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL); .ci/run sets them")
    if not (Path(sys.executable).parent / "gunicorn").exists():
        pytest.skip("needs gunicorn (pip install '.[deploy]')")


def _port_taken(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def free_ports(count: int) -> list[int]:
    wanted = os.getenv("HUCKLEY_TEST_PORTS", "")
    if wanted:
        low, high = (int(p) for p in wanted.split("-"))
        ports = [p for p in range(low, high + 1) if not _port_taken(p)][:count]
        if len(ports) == count:
            return ports
    found: list[int] = []
    while len(found) < count:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port not in found:
            found.append(port)
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
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "HUCKLEY_STRICT"))}
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
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_node(port: int, log_dir: Path, *, workers: int, env: dict[str, str]) -> Node:
    log = log_dir / f"gunicorn-{port}.log"
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                gunicorn,
                "huckley.wsgi:application",
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


def wait_until_up(node: Node, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if node.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {node.log.read_text()[-2000:]}")
        try:
            node.get("/api/rules/", timeout=5)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn on {node.port} did not answer within {timeout:.0f} s")


@contextlib.contextmanager
def gunicorn_nodes(
    count: int, log_dir: Path, *, workers: int = 1, **env: str
) -> Iterator[list[Node]]:
    """Start `count` gunicorn processes on this test's database and Redis; stop them all
    at the end, so that their connections do not keep the test database open."""
    nodes: list[Node] = []
    try:
        for port in free_ports(count):
            nodes.append(start_node(port, log_dir, workers=workers, env=node_env(**env)))
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
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


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
