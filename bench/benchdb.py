"""The database a one-process bench runs on (bench/ratings.py, bench/duplicate.py): SQLite
on a file in `tmp`, or the PostgreSQL database `postgres` names, dropped and created
afresh; Django set up on it with DEBUG off (no query log) and no Redis, and migrated."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup(postgres: str, tmp: str) -> None:
    os.environ["DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)
    if postgres:
        os.environ["DATABASE_URL"] = postgres
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")
    sys.path.insert(0, str(ROOT))
    if postgres:
        import psycopg

        base, _, name = postgres.rpartition("/")
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
