"""What each part of a bench's machine costs (bench/play.py): read from /proc, the CPU
time of a server and its workers, of PostgreSQL and of Redis, and a server's resident
memory; read from the servers themselves, the commands Redis has run and the
transactions and connections of a PostgreSQL database."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def tree(pid: int) -> list[int]:
    """A process and all its descendants."""
    found, pids = [], [pid]
    while pids:
        current = pids.pop()
        found.append(current)
        try:
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        pids.extend(int(c) for c in children)
    return found


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name: [1] the parent, [11] and
    [12] the user and system ticks, [13] and [14] those of its reaped children."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the processes have used so far."""
    ticks = 0
    for pid in pids:
        try:
            fields = _stat(pid)
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds() -> dict[str, float]:
    """The CPU time PostgreSQL and Redis have used so far: every PostgreSQL process's,
    plus what the ended ones used (their postmaster's reaped children), and Redis's. The
    bench is what runs on them while it plays."""
    postgres = redis = 0
    postmasters: set[str] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            fields = _stat(entry.name)
        except OSError:
            continue
        if command.startswith(b"postgres:"):
            postgres += int(fields[11]) + int(fields[12])
            postmasters.add(fields[1])
        elif command.startswith(b"redis-server"):
            redis += int(fields[11]) + int(fields[12])
    for pid in postmasters:
        with contextlib.suppress(OSError):
            fields = _stat(pid)
            postgres += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    tick = os.sysconf("SC_CLK_TCK")
    return {"postgres": postgres / tick, "redis": redis / tick}


def rss_kib(pid: int) -> int:
    """Resident memory of a process and all its children, KiB."""
    total = 0
    for current in tree(pid):
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def redis_calls(url: str) -> dict[str, int]:
    """The commands the Redis server at `url` has run so far, by command
    (`INFO commandstats`): the whole server's, every database's."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return {name.removeprefix("cmdstat_"): int(s["calls"]) for name, s in stats.items()}


def postgres_counts(url: str) -> dict[str, int]:
    """The transactions committed in the database `url` names so far, and the connections
    opened to it (`pg_stat_database`: a backend reports its counts when it goes idle or
    ends)."""
    import psycopg

    name = url.rpartition("/")[2]
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit, sessions FROM pg_stat_database WHERE datname = %s", [name]
        ).fetchone()
    assert row is not None
    return {"transactions": int(row[0]), "connections": int(row[1])}
