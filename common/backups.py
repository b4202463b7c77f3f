"""Venue backups: a consistent copy of the database, so a laptop that dies mid-night costs
at most a few minutes (docs/operations.md, "Venue backups and restore").

A backup is taken after every session start, movement (and its undo) and finish, once
the change has committed (`backup_on_commit`, on a thread of its own so the director's
request does not wait for it), and every `HUCKLEY_BACKUP_INTERVAL` seconds by the venue
launcher (`BackupTimer`), which also takes one as it starts and as it stops. SQLite is
copied with its online backup API (readers and writers carry on meanwhile; the copy is
one snapshot), PostgreSQL with `pg_dump`. Each file is written under a hidden temporary
name, flushed to disk and renamed, so a half-written file never looks like a backup;
only the newest `HUCKLEY_BACKUP_KEEP` are kept. None of it runs unless
`HUCKLEY_BACKUPS` is on, which venue mode turns on.

`manage.py restore FILE` (`workflow/management/commands/restore.py`) puts a backup
back, with the checks in `inspect_backup`.
"""

from __future__ import annotations

import filecmp
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction

log = logging.getLogger(__name__)

SQLITE_SUFFIX = ".sqlite3"
POSTGRES_SUFFIX = ".pgdump"
SQLITE_MAGIC = b"SQLite format 3\x00"
POSTGRES_MAGIC = b"PGDMP"
# huckley_2026-11-23_21-05-12.345_movement.sqlite3: sorted by name is sorted by time.
NAME = re.compile(r"^huckley_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.\d{3}_[a-z-]+\.(sqlite3|pgdump)$")
# A temporary file older than this was left by a process that died while writing it.
STALE_TEMPORARY_SECONDS = 600


class BackupError(Exception):
    """A backup could not be taken or read; the message says why in plain words."""


def enabled() -> bool:
    return bool(settings.HUCKLEY_BACKUPS)


def backup_dir() -> Path:
    return Path(settings.HUCKLEY_BACKUP_DIR)


def engine(alias: str = "default") -> str:
    """`sqlite` or `postgresql` (or the engine's own name for anything else)."""
    name = str(connections[alias].settings_dict["ENGINE"]).rsplit(".", 1)[-1]
    return "sqlite" if name == "sqlite3" else name


def database_name(alias: str = "default") -> str:
    return str(connections[alias].settings_dict["NAME"])


def backups(directory: Path | None = None) -> list[Path]:
    """The backups in the folder, oldest first (temporary files are not backups)."""
    folder = directory or backup_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if NAME.match(p.name) and p.is_file())


def _file_name(reason: str, suffix: str) -> str:
    now = datetime.now()
    stamp = now.strftime("%Y-%m-%d_%H-%M-%S") + f".{now.microsecond // 1000:03d}"
    clean = re.sub(r"[^a-z-]+", "-", reason.lower()).strip("-") or "backup"
    return f"huckley_{stamp}_{clean}{suffix}"


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sqlite_copy(source: str, target: Path) -> None:
    """One consistent snapshot of a live SQLite database into a new single file."""
    timeout = float(connections["default"].settings_dict.get("OPTIONS", {}).get("timeout", 20))
    # mode=rw: a missing database is an error, not a new empty file.
    src = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=rw", uri=True, timeout=timeout)
    try:
        dst = sqlite3.connect(target)
        try:
            # pages=-1: the whole database in one step, so the copy is one snapshot even
            # while scorers write (WAL: the writers do not wait for it either).
            src.backup(dst, pages=-1)
            # The copy is a file of its own: no -wal or -shm beside it.
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()


def pg_arguments(alias: str = "default") -> tuple[list[str], dict[str, str]]:
    """The connection options for the PostgreSQL client tools, the password in the
    environment rather than on the command line."""
    db = connections[alias].settings_dict
    args = [f"--dbname={db['NAME']}"]
    if db.get("HOST"):
        args.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        args.append(f"--port={db['PORT']}")
    if db.get("USER"):
        args.append(f"--username={db['USER']}")
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install the PostgreSQL client tools "
            "(Debian: apt install postgresql-client) to back up or restore PostgreSQL."
        )
    return found


def _pg_dump(target: Path) -> None:
    args, env = pg_arguments()
    command = [pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges"]
    result = subprocess.run(
        [*command, f"--file={target}", *args], env=env, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        raise BackupError(f"pg_dump failed: {result.stderr.strip()}")


def _same(one: Path, other: Path) -> bool:
    return one.stat().st_size == other.stat().st_size and filecmp.cmp(one, other, shallow=False)


_lock = threading.Lock()


def take(
    reason: str,
    *,
    directory: Path | None = None,
    keep: int | None = None,
    skip_unchanged: bool = False,
) -> Path:
    """Write one backup now and prune the old ones; return its path. Raises
    `BackupError` (pg_dump missing or failing, an engine that cannot be backed up).

    With `skip_unchanged` (the timer), a SQLite copy identical to the newest backup is
    dropped and that one returned: an idle night does not push the backups of its
    movements out of the kept ones. (A pg_dump archive carries its time, so PostgreSQL
    backups are always kept.)"""
    folder = directory or backup_dir()
    # Owner-only: a backup holds password hashes, API token keys and live scorer tokens,
    # as var/secret_key holds the key. A folder an older Huckley left 0755 is tightened.
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    kind = engine()
    if kind not in {"sqlite", "postgresql"}:
        raise BackupError(f"Backups support SQLite and PostgreSQL, not {kind}.")
    suffix = SQLITE_SUFFIX if kind == "sqlite" else POSTGRES_SUFFIX
    with _lock:  # one backup at a time in a process; names never collide
        final = folder / _file_name(reason, suffix)
        temporary = folder / f".{final.name}.{os.getpid()}.tmp"
        started = time.monotonic()
        try:
            # Created owner-only before a byte is written; SQLite and pg_dump keep its mode.
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            if kind == "sqlite":
                _sqlite_copy(database_name(), temporary)
            else:
                _pg_dump(temporary)
            newest = backups(folder)[-1:]
            if skip_unchanged and newest and _same(temporary, newest[0]):
                log.info("no backup (%s): nothing changed since %s", reason, newest[0].name)
                return newest[0]
            os.chmod(temporary, 0o600)  # whatever the process's umask
            _fsync(temporary)
            os.replace(temporary, final)
            _fsync(folder)  # the rename itself survives a power cut
        except (OSError, sqlite3.Error, subprocess.SubprocessError) as error:
            raise BackupError(f"The backup could not be written: {error}") from error
        finally:
            temporary.unlink(missing_ok=True)
        log.info(
            "backup written: %s (%s, %.0f ms)",
            final,
            reason,
            (time.monotonic() - started) * 1000,
        )
        prune(folder, keep or int(settings.HUCKLEY_BACKUP_KEEP))
        return final


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups, and temporary files a dead process left."""
    removed = []
    for old in backups(folder)[:-keep]:
        old.unlink(missing_ok=True)  # another process may have pruned it already
        removed.append(old)
    cutoff = time.time() - STALE_TEMPORARY_SECONDS
    for leftover in folder.glob(".huckley_*.tmp"):
        try:
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()
        except FileNotFoundError:
            pass
    return removed


def take_logged(reason: str, *, skip_unchanged: bool = False) -> Path | None:
    """`take`, but a failure is logged rather than raised: a backup must never stop the
    night (the next trigger tries again)."""
    try:
        return take(reason, skip_unchanged=skip_unchanged)
    except BackupError as error:
        log.error("no backup (%s): %s", reason, error)
    except Exception:
        log.exception("no backup (%s)", reason)
    return None


_executor: ThreadPoolExecutor | None = None
_pending: list[Future[Path | None]] = []
_pending_lock = threading.Lock()


def request(reason: str) -> Future[Path | None]:
    """Take a backup on the process's backup thread; the caller does not wait."""
    global _executor
    with _pending_lock:  # a web worker's request threads may all confirm at once
        if _executor is None:
            # Made on first use, so a forked web worker gets a thread of its own. The
            # thread is not a daemon: a worker that is stopped finishes the backup first.
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="huckley-backup")
        future = _executor.submit(take_logged, reason)
        _pending[:] = [f for f in _pending if not f.done()] + [future]
    return future


def wait(timeout: float = 30) -> None:
    """Wait for the backups this process has requested (the tests)."""
    with _pending_lock:
        pending = list(_pending)
    wait_for(pending, timeout=timeout)


def backup_on_commit(reason: str) -> None:
    """After the current transaction commits, back up (when backups are on)."""
    if enabled():
        transaction.on_commit(lambda: request(reason), robust=True)


class BackupTimer(threading.Thread):
    """Takes a backup every `interval` seconds until `stop()`, unless nothing changed."""

    def __init__(self, interval: float, reason: str = "timer") -> None:
        super().__init__(name="huckley-backup-timer", daemon=True)
        self.interval = interval
        self.reason = reason
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.wait(self.interval):
            take_logged(self.reason, skip_unchanged=True)
            # The launcher holds no request: its connection must not stay open between runs.
            connections.close_all()

    def stop(self) -> None:
        self._stopped.set()


@dataclass(frozen=True)
class Inspection:
    kind: str  # "sqlite" or "postgresql"
    migrations: frozenset[tuple[str, str]]


def file_kind(path: Path) -> str:
    """`sqlite` or `postgresql` from the file's first bytes; `BackupError` otherwise."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as error:
        raise BackupError(f"{path} cannot be read: {error.strerror}.") from error
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(POSTGRES_MAGIC):
        return "postgresql"
    raise BackupError(
        f"{path} is not a Huckley backup: it is neither a SQLite database "
        "nor a PostgreSQL dump (pg_dump --format=custom)."
    )


def _sqlite_migrations(path: Path) -> frozenset[tuple[str, str]]:
    try:
        # Read-only: checking a backup never changes it. (Not immutable: a database copied
        # off a dead laptop with its -wal file beside it must be read with that file.)
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"{path} cannot be opened as a SQLite database: {error}.") from error
    try:
        try:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is damaged (SQLite: {error}).") from error
        if verdict != "ok":
            raise BackupError(f"{path} is damaged (SQLite's integrity check: {verdict}).")
        try:
            rows = db.execute("SELECT app, name FROM django_migrations").fetchall()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not a Huckley backup ({error}).") from error
    finally:
        db.close()
    return frozenset((str(app), str(name)) for app, name in rows)


def _postgres_migrations(path: Path) -> frozenset[tuple[str, str]]:
    restore = pg_tool("pg_restore")
    listing = subprocess.run([restore, "--list", str(path)], capture_output=True, text=True)
    if listing.returncode != 0:
        raise BackupError(
            f"{path} is damaged: pg_restore cannot read it ({listing.stderr.strip()})."
        )
    if "TABLE DATA public django_migrations" not in listing.stdout:
        raise BackupError(f"{path} is not a Huckley backup: it has no migrations table.")
    # Reading every table's data is the dump's integrity check: a damaged block fails.
    whole = subprocess.run(
        [restore, f"--file={os.devnull}", str(path)], capture_output=True, text=True
    )
    if whole.returncode != 0:
        raise BackupError(f"{path} is damaged: {whole.stderr.strip()}")
    data = subprocess.run(
        [restore, "--data-only", "--table=django_migrations", "--file=-", str(path)],
        capture_output=True,
        text=True,
    )
    if data.returncode != 0:
        raise BackupError(f"{path} is damaged: {data.stderr.strip()}")
    found: set[tuple[str, str]] = set()
    copying = False
    for line in data.stdout.splitlines():
        if line.startswith("COPY public.django_migrations"):
            copying = True
        elif line == "\\.":
            copying = False
        elif copying:
            _, app, name, *_ = line.split("\t")
            found.add((app, name))
    return frozenset(found)


def inspect_backup(path: Path) -> Inspection:
    """What kind of backup `path` is and which migrations it had, after checking that
    it is whole (SQLite's integrity check; pg_restore reads its table of contents) and
    that it is Huckley's (its migrations include the tournaments app's)."""
    kind = file_kind(path)
    migrations = _sqlite_migrations(path) if kind == "sqlite" else _postgres_migrations(path)
    if not any(app == "tournaments" for app, _ in migrations):
        raise BackupError(f"{path} is not a Huckley backup: it has no Huckley tables.")
    return Inspection(kind=kind, migrations=migrations)
