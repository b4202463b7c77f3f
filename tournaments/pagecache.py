"""A session's generation, and what is built once per generation of it.

Every public page of a session (its tables, "find my table", its standings, the API's
sitting detail) shows only the session's own rows, and every write that changes them
moves the session's *generation*: `board_changed` (tables, seats, finished games),
`live_changed` (a round's scores, the session's end) and the saves of a session or its
club (`tournaments.apps`). What is built from those rows is kept with the generation it
was built at and built again only when the generation has moved: keyed by what changed,
never by a timeout (docs/performance.md, "Load"). The public's whole pages are kept by
`serving.pages`; here are the parts that anyone, a director too, may be shown
(`fragment`, HTML) and rows to page through and search (`kept`, the standings, the
movement preview).

Where the generation lives:

- With a cache that every web process shares (Redis: `HUCKLEY_SHARED_CACHE`, on when
  `REDIS_URL` is set), a counter in the cache. A missing counter (Redis
  restarted, the key expired or evicted) starts again from a random number, so nothing
  kept from before can match. A write moves it at once and again after its commit, so
  what is built between the two from not-yet-committed rows does not outlive the commit.
  The counter expires after `GENERATION_TTL` seconds only as a net for a bump that never
  reached Redis (Redis unreachable from that process at the time of the write).
- Otherwise (a laptop whose processes each keep their own memory cache), read from the
  session's row: its two version counters and a digest of what the pages show of the
  session and its club, in one small query. Every process reads the same row, so none can
  serve a page older than the row.

Each process trusts the generation it read last for `GENERATION_MEMO` (a quarter of a
second), so a crowd on one session costs a few reads a second, not one a request: a change
shows on every page within that time (at once through the process that made it).

When Redis is down the generation cannot be read and everything is built from the
database, as if there were no cache (django-redis logs the errors and does not raise).

What is kept lives in two places: a small store in each process's memory (`LOCAL`,
bounded by `LOCAL_BYTES`; a hit costs nothing), and the cache, so that the web processes
of a server build each thing once between them.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import pickle
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models, transaction
from django.utils import translation

from tournaments.models import Session

#: Seconds a generation counter lives in a shared cache without a write: only the net for
#: a bump that was lost; every change moves the counter at once.
GENERATION_TTL = 300
#: Seconds a process trusts the generation it read last, so that a crowd on one session
#: costs a few cache reads a second, not one a request. A change made through this
#: process forgets it at once; any other process sees it within this time.
GENERATION_MEMO = 0.25
#: Bytes of stored pages each process keeps in its own memory.
LOCAL_BYTES = 32 * 1024 * 1024
#: How long a stored page is kept in the shared cache (it is useless once the generation
#: moves on; this only lets Redis drop the dead ones).
PAGE_TTL = 3600


def shared() -> bool:
    return bool(getattr(settings, "HUCKLEY_SHARED_CACHE", False))


def _generation_key(session_id: int) -> str:
    return f"generation:{session_id}"


def _incr(session_id: int) -> None:
    # No counter: the next reader starts a fresh one, which no stored page matches.
    with contextlib.suppress(ValueError):
        cache.incr(_generation_key(session_id))


def bump(session_id: int) -> None:
    """Something a public page of the session shows changed: no stored page of it may be
    served from now on. Once now (the next request rebuilds) and once after the commit
    (in case it rebuilt from rows this write had not committed yet)."""
    _MEMO.pop(session_id, None)
    if not shared():
        return  # the generation is read from the session's row, which the write changed
    _incr(session_id)
    transaction.on_commit(lambda: _forget_and_incr(session_id))


def _forget_and_incr(session_id: int) -> None:
    _MEMO.pop(session_id, None)
    _incr(session_id)


def bump_many(session_ids: list[int]) -> None:
    for session_id in session_ids:
        bump(session_id)


_now = time.monotonic  # a name of its own, for the tests' clock
#: session id -> (when read, generation): each process's memory of the last read.
_MEMO: dict[int, tuple[float, str]] = {}


def generation(session_id: int) -> str | None:
    """The session's current generation; None when it cannot be read (Redis down, or no
    such session), and then nothing is served from the store."""
    now = _now()
    known = _MEMO.get(session_id)
    if known is not None and now - known[0] < GENERATION_MEMO:
        return known[1]
    current = _shared_generation(session_id) if shared() else _row_generation(session_id)
    if current is not None:
        if len(_MEMO) > 10_000:
            _MEMO.clear()
        _MEMO[session_id] = (now, current)
    return current


def forget() -> None:
    """Drop this process's memory of every generation (tests: SQLite reuses ids)."""
    _MEMO.clear()
    LOCAL.clear()


def _shared_generation(session_id: int) -> str | None:
    key = _generation_key(session_id)
    value = cache.get(key)
    if value is None:
        cache.add(key, secrets.randbits(52), timeout=GENERATION_TTL)
        value = cache.get(key)
    return None if value is None else f"g{value}"


def _row_generation(session_id: int) -> str | None:
    row = (
        Session.objects.filter(pk=session_id)
        .values_list(
            "board_version",
            "live_version",
            "created_at",
            "name",
            "date",
            "status",
            "is_public",
            "ended_early",
            "games_per_sitting",
            "rules_id",
            "club__name",
            "club__language",
        )
        .first()
    )
    if row is None:
        return None
    digest = hashlib.blake2b(repr(row[2:]).encode(), digest_size=6).hexdigest()
    return f"r{row[0]}.{row[1]}.{digest}"


def board_changed(session_id: int) -> None:
    """The tables, seats or finished games of the session changed: its board and its live
    screens are stale, and so is every page kept of it."""
    Session.objects.filter(pk=session_id).update(
        board_version=models.F("board_version") + 1,
        live_version=models.F("live_version") + 1,
    )
    bump(session_id)


def live_changed(session_id: int) -> None:
    """Something a live screen shows changed (a round's scores, the session's end): in
    SQL written once, as every online table's round's end runs it."""
    with connection.cursor() as cursor:
        cursor.execute(_live_sql(), [session_id])
    bump(session_id)


@functools.cache
def _live_sql() -> str:
    """`Session.objects.filter(pk=...).update(live_version=F("live_version") + 1)`."""
    meta, quote = Session._meta, connection.ops.quote_name
    column = quote(str(meta.get_field("live_version").column))
    return (
        f"UPDATE {quote(meta.db_table)} SET {column} = {column} + 1"
        f" WHERE {quote(str(meta.pk.column))} = %s"
    )


@dataclass(frozen=True)
class Kept:
    """A value built once per generation, with its size for the budget."""

    generation: str
    value: Any
    size: int


class Sized(Protocol):
    """What `LOCAL` keeps: anything that knows its size in bytes."""

    @property
    def size(self) -> int: ...


class _Local:
    """Each process's own store: what was used most recently, up to a byte budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.pages: OrderedDict[str, Sized] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Sized | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key: str, page: Sized) -> None:
        with self.lock:
            old = self.pages.pop(key, None)
            if old is not None:
                self.size -= old.size
            self.pages[key] = page
            self.size += page.size
            while self.size > self.budget and self.pages:
                _, dropped = self.pages.popitem(last=False)
                self.size -= dropped.size

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()
            self.size = 0


LOCAL = _Local(LOCAL_BYTES)


def fragment(
    session_id: int, name: str, build: Callable[[], str], *, current: str | None = None
) -> str:
    """A part of a page that anyone (a director too) may be shown, built once per
    generation of the session: the progress of every table, the rebalancing proposal, the
    roster of a small session. `build` runs when the kept copy is missing or older; an
    exception it raises (a refusal) passes through and nothing is kept. `current`: the
    generation, when the caller has read it already (`serving.pages.page_etag` while the
    public's copy is built)."""
    return kept(session_id, f"fragment:{name}", build, current=current)


T = TypeVar("T")


def kept(session_id: int, name: str, build: Callable[[], T], *, current: str | None = None) -> T:
    """What `fragment` does for a value that is not HTML: rows that every request pages
    through or searches (the standings, the movement preview's tables), built once per
    generation and kept as they are in this process (no copy, no unpickling per
    request), pickled in the shared cache. The value must not be changed by its users.
    Kept per language (the active one): what it holds may carry words in it."""
    current = current or generation(session_id)
    if current is None:
        return build()
    language = translation.get_language() or settings.LANGUAGE_CODE
    key = f"kept:{name}:{language}:{session_id}"
    found = LOCAL.get(key)
    if not (isinstance(found, Kept) and found.generation == current):
        shared_copy = cache.get(key)
        if isinstance(shared_copy, Kept) and shared_copy.generation == current:
            found = shared_copy
        else:
            value = build()
            found = Kept(current, value, len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)))
            cache.set(key, found, PAGE_TTL)
        LOCAL.put(key, found)
    return cast(T, found.value)
