"""Rows that a transactional test makes at length, made once per process and put back
for each test that asks for them (PostgreSQL only).

A transactional test's rows are committed, so that its threads see them, and pytest-django
empties every table after it (TRUNCATE): a costly scene is then played again for each
test. Here the first test that asks for a scene plays it, and its rows are copied into a
schema of the test database (`saved_<key>`, which the TRUNCATE does not touch); each later
test gets the same rows back, with the same ids, in a few statements.

Left out: the content types and permissions, which the emptying makes again itself. The
schemas go when the module that saved them ends (`forget`): a test that dumps and restores
the whole database must not meet them. The rows put back keep their ids, so what was kept
by id outside the database goes too: the cache's own keys (never the Celery queue beside
them in the worker's Redis database) and this process's store of public pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db import connection

from tournaments import pagecache

T = TypeVar("T")

MADE_AGAIN = frozenset({"django_content_type", "auth_permission"})

#: By key: what `play` answered, and the tables whose rows were saved.
_saved: dict[str, tuple[object, list[str]]] = {}


def scene(key: str, play: Callable[[], T]) -> T:
    """`play()`'s rows and answer: played by the first test of this process that asks
    for `key`, put back for the others (`play` must make rows only, and return what
    refers to them by id)."""
    assert connection.vendor == "postgresql", "saved rows need PostgreSQL"
    if key not in _saved:
        answer = play()
        _saved[key] = (answer, _save(f"saved_{key}"))
        return answer
    saved, tables = _saved[key]
    _put_back(f"saved_{key}", tables)
    return saved  # type: ignore[return-value]


def forget() -> None:
    """Drop every scene saved by this process (at the end of the module that saved them)."""
    with connection.cursor() as cursor:
        for key in _saved:
            cursor.execute(f'DROP SCHEMA IF EXISTS "saved_{key}" CASCADE')
    _saved.clear()


def _tables() -> list[str]:
    names = connection.introspection.django_table_names(only_existing=True, include_views=False)
    return sorted(set(names) - MADE_AGAIN)


def _save(schema: str) -> list[str]:
    """The tables with rows, copied into `schema`."""
    saved = []
    with connection.cursor() as cursor:
        cursor.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        cursor.execute(f'CREATE SCHEMA "{schema}"')
        for table in _tables():
            cursor.execute(f'SELECT EXISTS (SELECT FROM "{table}")')
            if cursor.fetchone()[0]:
                cursor.execute(f'CREATE TABLE "{schema}"."{table}" AS TABLE "{table}"')
                saved.append(table)
    return saved


def _put_back(schema: str, tables: list[str]) -> None:
    with connection.cursor() as cursor:
        # The rows go back in any order: the foreign keys are not checked meanwhile (a
        # superuser's setting, as the suite's PostgreSQL user is); they held when saved.
        cursor.execute("SET session_replication_role = replica")
        try:
            for table in tables:
                cursor.execute(f'INSERT INTO "{table}" SELECT * FROM "{schema}"."{table}"')
        finally:
            cursor.execute("SET session_replication_role = DEFAULT")
    # The sequences are left as they are: they only grow, so they are past every id saved.
    cache.delete_pattern("*")  # type: ignore[attr-defined]
    pagecache.forget()
