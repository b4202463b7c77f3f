"""PostgreSQL's count of deadlocks, for the tests that race writes with real threads
(tests/api/test_lock_order.py, tests/play/test_races.py).

A backend keeps its statistics to itself until it reports them: at most once a second
while it works, and when it exits, which comes a moment after its client has closed the
connection. A thread that raced therefore reports its own before it closes
(`report_statistics`), and the count read after the threads have joined holds every
deadlock they met, with no wait.
"""

from __future__ import annotations

from django.db import connection


def report_statistics() -> None:
    """This thread's backend reports its statistics now: `pg_stat_force_next_flush()`
    (PostgreSQL 15) makes the backend report them as it goes idle after this very
    statement, which is before the statement's answer reaches the client."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")


def deadlocks() -> int:
    """The deadlocks PostgreSQL has detected in the test database, as reported so far."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        (count,) = cursor.fetchone()
    return int(count)
