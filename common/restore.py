"""Putting a venue backup (`common.backups`) back into the configured database, for
`manage.py restore FILE` (`workflow/management/commands/restore.py`, which checks the
file and the target first and says what it restored).

SQLite is copied in with the online backup API (the target's other connections see one
whole database, never half of one); PostgreSQL with `pg_restore` in a single transaction
after the target's tables are dropped.
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from django.db import connections
from django.db.migrations.loader import MigrationLoader

from common import backups
from common.backups import BackupError

# The rows that make a database worth keeping: refusing to replace them needs --force.
HELD = {"tournaments_club": "club", "tournaments_session": "session", "auth_user": "account"}


def known_migrations() -> frozenset[tuple[str, str]]:
    """Every migration this copy of Huckley has on disk."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return frozenset(loader.disk_migrations)


def held(alias: str = "default") -> dict[str, int]:
    """How many clubs, sessions and accounts the configured database holds (none when it
    does not exist yet or has no tables)."""
    if backups.engine(alias) == "sqlite" and not Path(backups.database_name(alias)).exists():
        return {}
    connection = connections[alias]
    tables = set(connection.introspection.table_names())
    counts = {}
    with connection.cursor() as cursor:
        for table, noun in HELD.items():
            if table in tables:
                cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
                count = int(cursor.fetchone()[0])
                if count:
                    counts[noun] = count
    return counts


def _restore_sqlite(path: Path) -> None:
    target = Path(backups.database_name())
    connections.close_all()
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        destination = sqlite3.connect(target, timeout=20)
        try:
            source.backup(destination, pages=-1)
        finally:
            destination.close()
    except sqlite3.Error as error:
        raise BackupError(f"The backup could not be copied into {target}: {error}.") from error
    finally:
        source.close()


def _restore_postgres(path: Path) -> None:
    connection = connections["default"]
    tables = connection.introspection.table_names()
    if tables:
        # A forced restore replaces everything: tables the backup does not have would
        # otherwise stay and contradict its migrations table.
        quoted = ", ".join(connection.ops.quote_name(t) for t in tables)
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {quoted} CASCADE")
    connections.close_all()
    args, env = backups.pg_arguments()
    command = [
        backups.pg_tool("pg_restore"),
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-privileges",
        *args,
        str(path),
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise BackupError(f"pg_restore failed, nothing was restored: {result.stderr.strip()}")


def restore_file(path: Path, kind: str) -> None:
    """Copy the checked backup at `path` into the configured database."""
    if kind == "sqlite":
        _restore_sqlite(path)
    else:
        _restore_postgres(path)
