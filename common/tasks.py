"""Queuing a Celery task: after the transaction commits, and done in the request when the
broker cannot take it (docs/operations.md, Faults). The task carries its app, so this
module needs no import of the project's Celery app (`huckley.celery`, the top layer).
"""

from __future__ import annotations

import logging
from typing import Any, cast

from django.db import transaction
from kombu.connection import Connection, ConnectionPool

log = logging.getLogger(__name__)


def enqueue(task: Any, *args: Any) -> None:
    """Queue `task(*args)` for a worker; when the broker cannot take it (Redis down), do
    the work here instead, so it is never lost. Only for idempotent tasks that are quick
    enough to run in a request."""
    try:
        # celery-types call `app.pool` a producer pool; it is the broker's connection pool
        # (`Celery.pool` is `connection_for_write().Pool()`), whose items are connections.
        pool = cast("ConnectionPool", task.app.pool)
        connection: Connection
        with pool.acquire(block=True) as connection:
            # One quick retry, not kombu's default of waiting seconds between attempts:
            # a request is waiting on this. (kombu-stubs type the intervals as int; kombu
            # takes seconds as floats.)
            connection.ensure_connection(
                max_retries=1,
                interval_start=0,
                interval_step=0.1,  # type: ignore[arg-type]
                interval_max=0.1,  # type: ignore[arg-type]
            )
            task.apply_async(args=args, connection=connection, retry=False)
    except Exception as error:  # the broker's errors differ by transport: all mean "not queued"
        # One line, no traceback: during a Redis outage every queued task says this, and
        # nothing is lost (it runs here); the traceback would say nothing more.
        log.warning(
            "could not queue %s%r (%s: %s); running it in the request",
            task.name,
            args,
            type(error).__name__,
            error,
        )
        try:
            task(*args)
        except Exception:  # the change that queued it is committed: never undo that answer
            log.exception("%s%r failed in the request", task.name, args)


def enqueue_on_commit(task: Any, *args: Any) -> None:
    """`enqueue` once the current transaction commits (and not at all if it rolls back).
    Robust: the change is committed by then, so whatever goes wrong is logged, never
    turned into an error page for a change that was made."""
    transaction.on_commit(lambda: enqueue(task, *args), robust=True)
