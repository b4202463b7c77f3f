"""Run a request again, once or twice, when PostgreSQL dropped its connection mid-request.

`CONN_HEALTH_CHECKS` (settings) reopens a kept connection that died between requests;
this middleware covers one that dies during a request (`pg_terminate_backend`, a
failover, a proxy cutting the line). PostgreSQL rolls back the transaction of a lost
connection, so the request can run again on a new connection, provided nothing it did
had already committed. Every query goes through `_Watch` (an execute wrapper), which
notes whether a write may have committed: a write outside a transaction, or any statement
after the transaction that wrote had ended. A loss inside the transaction that wrote
discards that transaction's writes, since PostgreSQL rolled them back.

A request whose connection was lost is run again on a fresh connection when it is:
- a GET, HEAD or OPTIONS request (HTTP lets a client repeat those anyway);
- a write that cannot have committed (the loss came before its commit: the usual case);
- a write carrying an `Idempotency-Key` (docs/api.md: the retry replays the first answer
  if the first attempt had in fact committed);
- a view marked `@repeatable`, whose write finds for itself that it was already made (a
  round entered again with the same numbers is stored once).
Otherwise (a write that may have committed, and the connection died before the answer)
the answer is a 503 that says so in plain words and asks to reload, never a 500 and never
a second write. docs/operations.md, Faults, has the figures.

A deadlock or a serialization failure (SQLSTATE 40P01, 40001) is run again by the same
rules: PostgreSQL rolled the transaction back, the connection is still good. The lock
order (scoring/locks.py) keeps deadlocks from happening; this is what stands behind it.
"""

from __future__ import annotations

import logging
import random
import sys
import time
from collections.abc import Callable
from io import BytesIO
from typing import Any, TypeVar

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connection
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

log = logging.getLogger(__name__)

ATTEMPTS = 3  # the first and at most two more
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Statements that change nothing; anything else counts as a write.
_READS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "SET", "SHOW")
_LOST_SQLSTATES = frozenset({"57P01", "57P02", "57P03"})  # admin, crash, cannot connect now
_LOST = "_huckley_connection_lost"
# The transaction was rolled back and may simply run again: deadlock, serialization failure.
_ROLLED_BACK_SQLSTATES = frozenset({"40P01", "40001"})
_ROLLED_BACK = "_huckley_rolled_back"

V = TypeVar("V", bound=Callable[..., Any])


def repeatable(view: V) -> V:
    """Mark a view whose write may safely run twice: a second run finds the first one's
    result and changes nothing (for a class-based view, set `repeatable = True`)."""
    view.repeatable = True  # type: ignore[attr-defined]
    return view


def connection_lost(exc: BaseException | None) -> bool:
    """Whether `exc` means PostgreSQL's connection itself is gone, not a bad query: an
    interface error (the connection is closed), or an operational error that the client
    library raised itself (no SQLSTATE: "server closed the connection unexpectedly") or
    that the server sent as it hung up (57P01-57P03, class 08)."""
    if connection.vendor != "postgresql":
        return False  # SQLite (venue mode) has no connection to lose
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    state = getattr(exc.__cause__, "sqlstate", None)
    return state is None or state in _LOST_SQLSTATES or state.startswith("08")


def rolled_back(exc: BaseException | None) -> bool:
    """Whether `exc` is PostgreSQL ending a transaction that may simply run again: it was
    chosen to break a deadlock, or could not be serialized."""
    if connection.vendor != "postgresql" or not isinstance(exc, OperationalError):
        return False
    return getattr(exc.__cause__, "sqlstate", None) in _ROLLED_BACK_SQLSTATES


@receiver(got_request_exception)
def _note_lost_connection(sender: Any, request: HttpRequest | None = None, **kw: Any) -> None:
    # Sent while Django turns the uncaught exception into a 500, so it is sys.exc_info().
    exc = sys.exc_info()[1]
    if request is not None and connection_lost(exc):
        setattr(request, _LOST, exc)
    elif request is not None and rolled_back(exc):
        setattr(request, _ROLLED_BACK, True)


class RetriedConnectionFilter(logging.Filter):
    """On `django.request` (settings' LOGGING): drop the "Internal Server Error" Django
    logs for an attempt that lost its database connection, or that PostgreSQL rolled back
    for a deadlock or a serialization failure. The middleware below decides what that
    attempt becomes and logs it once: a warning line when it ran again and answered, an
    error with the traceback when it answered a 503."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (connection_lost(exc) or rolled_back(exc))


class _Watch:
    """An execute wrapper that notes whether anything may have committed."""

    def __init__(self) -> None:
        self.may_have_committed = False
        self._writing: object | None = None  # the outermost atomic block that wrote

    def _outer(self) -> object | None:
        blocks = connection.atomic_blocks
        return blocks[0] if connection.in_atomic_block and blocks else None

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        outer = self._outer()
        if self._writing is not None and outer is not self._writing:
            # The transaction that wrote has ended since: it may have committed.
            self.may_have_committed = True
            self._writing = None
        write = not sql.lstrip().upper().startswith(_READS)
        try:
            result = execute(sql, params, many, context)
        except (OperationalError, InterfaceError) as exc:
            if rolled_back(exc) and outer is not None:
                self._writing = None  # PostgreSQL rolls the whole transaction back
            elif connection_lost(exc):
                if outer is not None:
                    self._writing = None  # PostgreSQL rolled the whole transaction back
                elif write:
                    self.may_have_committed = True  # an autocommit write: done or not?
            raise
        if write:
            if outer is None:
                self.may_have_committed = True
            else:
                self._writing = outer
        return result

    @property
    def unsure(self) -> bool:
        # A transaction that wrote and never saw its end: the loss came at COMMIT.
        return self.may_have_committed or self._writing is not None


class LostConnectionRetryMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        body = _keep_body(request)
        where = f"{request.method} {request.path}"
        for attempt in range(1, ATTEMPTS + 1):
            watch = _Watch()
            with connection.execute_wrapper(watch):
                response = self.get_response(request)
            if getattr(request, _ROLLED_BACK, False):
                delattr(request, _ROLLED_BACK)
                if not _may_run_again(request, watch, body):
                    log.warning("a deadlock after a write on %s", where)
                    return _unsure(request)
                if attempt == ATTEMPTS:
                    log.warning("a deadlock on %s, %s", where, _times(attempt))
                    return _busy(request)
                log.warning("a deadlock on %s; running it again", where)
                time.sleep(random.uniform(0.01, 0.05) * attempt)  # out of step with the other
                _rewind(request, body)
                continue
            lost = getattr(request, _LOST, None)
            if lost is None:
                if attempt > 1:
                    # One line for the whole request, and a warning: nobody saw an error.
                    log.warning(
                        "database connection lost on %s (%s); ran it again: %s",
                        where,
                        _times(attempt - 1),
                        response.status_code,
                    )
                return response
            delattr(request, _LOST)
            connection.close()  # the next attempt opens a new one
            if not _may_run_again(request, watch, body):
                log.error(
                    "database connection lost after a write on %s (%s); answered 503 "
                    "connection_lost_after_write",
                    where,
                    _times(attempt),
                    exc_info=lost,
                )
                return _unsure(request)
            if attempt == ATTEMPTS:
                log.error(
                    "database connection lost on %s (%s); answered 503 database_unavailable",
                    where,
                    _times(attempt),
                    exc_info=lost,
                )
                break
            _rewind(request, body)
        return _unavailable(request)


def _times(count: int) -> str:
    return f"{count} time" if count == 1 else f"{count} times"


def _keep_body(request: HttpRequest) -> bytes | None:
    """The request's body, read now so a retry can read it again; None when it is too
    large to keep (such a request is not retried unless it is a read)."""
    if request.method in SAFE_METHODS:
        return b""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and length > limit:
        return None
    return request.body


def _rewind(request: HttpRequest, body: bytes | None) -> None:
    request._stream = BytesIO(body or b"")
    request._read_started = False  # type: ignore[attr-defined]
    for parsed in ("_post", "_files"):
        if hasattr(request, parsed):
            delattr(request, parsed)


def _may_run_again(request: HttpRequest, watch: _Watch, body: bytes | None) -> bool:
    if request.method in SAFE_METHODS:
        return True
    if body is None:
        return False
    if not watch.unsure:
        return True
    if "Idempotency-Key" in request.headers:
        return True
    match = request.resolver_match
    view = match.func if match is not None else None
    return bool(
        getattr(view, "repeatable", False)
        or getattr(getattr(view, "cls", None), "repeatable", False)
    )


def _answer(request: HttpRequest, code: str, message: str) -> HttpResponse:
    # The API's error shape (docs/api.md) and the pages' error page, with no import of
    # either: this module sits at the bottom of the layers, beside common.errors.
    error = {"code": code, "message": message}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(error, status=503)
    else:
        try:
            response = render(request, "error.html", {"error": error}, status=503)
        except Exception:  # the page needs the database too; plain words will do
            response = HttpResponse(message, status=503, content_type="text/plain")
    response["Retry-After"] = "1"
    return response


def _unsure(request: HttpRequest) -> HttpResponse:
    return _answer(
        request,
        "connection_lost_after_write",
        "The connection to the database was lost just as your change was being saved, so "
        "it may or may not have been kept. Reload the page to see, before trying again.",
    )


def _busy(request: HttpRequest) -> HttpResponse:
    return _answer(
        request,
        "database_busy",
        "Too many changes arrived at once and yours could not be saved. Try again in a moment.",
    )


def _unavailable(request: HttpRequest) -> HttpResponse:
    return _answer(
        request,
        "database_unavailable",
        "The database could not be reached just now. Try again in a moment.",
    )
