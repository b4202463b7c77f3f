"""The servers the HTTP benches run on (bench/load.py, bench/play.py, bench/flood.py,
bench/room.py, bench/parallel.py): their database, Redis and environment, the build step
run in a child with that environment, gunicorn and the ASGI node started and stopped,
and the machine they ran on."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def server_env(postgres: str, redis: str, *, settings: str, log_level: str) -> dict[str, str]:
    """A fresh PostgreSQL database and Redis db for a benchmark, and the environment of
    the gunicorn that serves them (DEBUG off, nothing of the caller's Django settings)."""
    from bench.tournament import prepare_postgres

    problem = prepare_postgres(postgres)
    if problem:
        raise SystemExit(problem)
    subprocess.run(["redis-cli", "-u", redis, "FLUSHDB"], check=False, capture_output=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "HUCKLEY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE=settings,
        DATABASE_URL=postgres,
        REDIS_URL=redis,
        DEBUG="0",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL=log_level,
        PYTHONPATH=str(ROOT),
    )
    return env


def build_in_child(script: str, env: dict[str, str], *flags: str) -> dict[str, Any]:
    """Run the benchmark's own build step in a child with the server's environment (its
    settings, not the caller's), and read what it built from its last line of JSON."""
    done = subprocess.run(
        [sys.executable, script, *flags], env=env, cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"building failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _ready(process: subprocess.Popen[bytes], url: str, failure: str) -> subprocess.Popen[bytes]:
    """The server once `url` answers, within 60 s; else stopped, and the bench ends."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return process
        except OSError:
            time.sleep(0.3)
    os.killpg(process.pid, signal.SIGTERM)
    raise SystemExit(failure)


def start_server(
    env: dict[str, str],
    port: int,
    workers: int,
    *,
    log: Path | None = None,
    ready_path: str = "/bench/ok/",
) -> subprocess.Popen[bytes]:
    """gunicorn on 127.0.0.1:`port`, once `ready_path` answers; its output to `log` if
    given."""
    out = log.open("wb") if log is not None else None
    with out if out is not None else contextlib.nullcontext():
        process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "huckley.wsgi:application",
                f"--bind=127.0.0.1:{port}",
                f"--workers={workers}",
                "--backlog=2048",
                "--timeout=30",
                "--log-level=warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT if out is not None else None,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}{ready_path}"
    return _ready(process, url, "gunicorn did not answer within 60 s")


def start_asgi(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    """The WebSocket node as deploy/huckley-ws@.service runs it: gunicorn with uvicorn
    workers on the ASGI application (here the bench's, with the echo)."""
    out = log.open("wb")
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bench.asgi:application",
            "--worker-class=huckley.workers.AsgiWorker",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            "--backlog=4096",
            "--graceful-timeout=5",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/bench/ok/"
    return _ready(process, url, f"the ASGI server did not answer within 60 s: {log}")


#: The scheduler process's niceness, as deploy/huckley-scheduler.service sets it.
SCHEDULER_NICE = 10


def start_scheduler(
    env: dict[str, str], log: Path, nice: int = SCHEDULER_NICE
) -> subprocess.Popen[bytes]:
    """Online play's scheduler in a process of its own, as
    deploy/huckley-scheduler.service runs it (`manage.py run_scheduler`, at `nice`)."""
    out = log.open("wb")
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_scheduler"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    """A server and its workers stopped: SIGTERM to its process group, SIGKILL after 20 s."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def tracebacks(log: Path) -> list[str]:
    """The tracebacks a server logged, each a server error, named by its last line (the
    exception)."""
    found, lines = [], log.read_text(errors="replace").splitlines()
    for n, line in enumerate(lines):
        if line.startswith("Traceback"):
            rest = [later for later in lines[n + 1 :] if not later.startswith(" ")]
            found.append(f"{log.name}: {rest[0] if rest else line}")
    return found
