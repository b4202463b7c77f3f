"""A session's public pages for a crowd: built once per change, then served as stored bytes.

Every public page of a session (its tables, "find my table", its standings, the API's
sitting detail) shows only the session's own rows, and every write that changes them
moves the session's *generation* (`bump`, called by `Session.board_changed`,
`Session.live_changed` and the saves of a session or its club). A page is kept as the
bytes of its last rendering with the generation it was built at; a request that finds
the same generation gets those bytes, or a 304 when its ETag matches, with no rendering
and no query. The next request after a change builds the page again: pages are keyed by
what changed, never by a timeout (docs/performance.md, "Load").

Where the generation lives:

- With a cache that every web process shares (Redis: `HUCKLEY_SHARED_CACHE`, on when
  `REDIS_URL` is set), a counter in the cache. A missing counter (Redis
  restarted, the key expired or evicted) starts again from a random number, so no page
  kept from before can match. A write moves it at once and again after its commit, so a
  page built between the two from not-yet-committed rows does not outlive the commit. The
  counter expires after `GENERATION_TTL` seconds only as a net for a bump that never
  reached Redis (Redis unreachable from that process at the time of the write).
- Otherwise (a laptop whose processes each keep their own memory cache), read from the
  session's row: its two version counters and a digest of what the pages show of the
  session and its club, in one small query. Every process reads the same row, so none can
  serve a page older than the row.

Each process trusts the generation it read last for `GENERATION_MEMO` (a quarter of a
second), so a crowd on one session costs a few reads a second, not one a request: a change
shows on every page within that time (at once through the process that made it).

When Redis is down the generation cannot be read and every page is built from the
database, as if there were no cache (django-redis logs the errors and does not raise).

Only anonymous requests that carry no cookie of ours (no sign-in, no scorer link, no
pending message) and no API credentials are served from the store: what they are shown
is the same for all of them. Anyone else's page carries their name, a CSRF token or a
message, and is always rendered.

The public's request for a stored page is answered earlier still, by
`StoredPageMiddleware`, placed before the costly middleware (sessions, CSRF, sign-in,
messages, django-axes), as Django's own FetchFromCacheMiddleware is: it resolves the URL,
and when the view is a `public_page` and the request is anonymous by the rule above, it
looks up the same stored page (`_Rule.find`, the one place that says which page answers a
request) and answers it, or a 304, at once. It answers only a page whose full-path
answer it has seen: the headers the middleware added then (CSP, X-Frame-Options, the
security headers, Vary) are kept with the page (`Stored.outer`) and sent again, so the
early answer carries the same bytes and headers as the full path. On a miss the request
takes the full path, which stores the page as before.

Stored pages live in two places: a small store in each process's memory (bounded by
`LOCAL_BYTES`; a hit costs nothing), and the cache, so that the three web processes of a
server build each page once between them. A page for a searched name stays in the
process's memory only: names are typed by anyone, and Redis is not to fill up with them.
A page of a long list (`?page=N`) is shared: its view answers only the pages that exist
(any other value is sent to one that does), so there are as many as the list has pages.

Beside whole pages, `fragment` and `kept` keep what the same generation gives everyone
(a director too): a part of a page as HTML, or rows to page through and search (the
standings, the movement preview), built once and sliced per request.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import pickle
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import wraps
from typing import Any, TypeVar, cast

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from common.compress import GZIP_FROM, accepts_gzip

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
#: Request headers that make a request someone's own (API credentials, a scorer link).
_PRIVATE_HEADERS = ("HTTP_AUTHORIZATION", "HTTP_X_SCORER_TOKEN")
#: The attribute a view reads to put the ETag of the current generation into its page.
_GENERATION_ATTR = "huckley_page_generation"
#: The attribute that tells `StoredPageMiddleware` which stored page a response is.
_STORED_ATTR = "huckley_stored_page"
#: The attribute `public_page` leaves on a view: how to find its stored page.
_RULE_ATTR = "huckley_public_page"
#: Headers `_answer` writes itself for every request; the others of the full path's
#: answer (CSP, X-Frame-Options, the security headers...) are kept with the page.
_OWN_HEADERS = frozenset(
    {"content-type", "content-encoding", "content-length", "etag", "cache-control", "set-cookie"}
)


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
    # By name: the models import this module (their writes call `bump`).
    row = (
        apps.get_model("tournaments", "Session")
        .objects.filter(pk=session_id)
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
        )
        .first()
    )
    if row is None:
        return None
    digest = hashlib.blake2b(repr(row[2:]).encode(), digest_size=6).hexdigest()
    return f"r{row[0]}.{row[1]}.{digest}"


def page_etag(request: HttpRequest) -> str | None:
    """The ETag the stored copy of this request's page will carry, while it is being built
    from the store's miss; None when the page is rendered for one visitor only."""
    value = getattr(request, _GENERATION_ATTR, None)
    return str(value) if value is not None else None


@dataclass(frozen=True)
class Stored:
    generation: str
    etag: str
    content_type: str
    body: bytes
    # The same bytes gzipped, compressed once when stored: every phone asks for gzip, and
    # a 1,000-player standings page shrinks about tenfold.
    gzipped: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    # The headers the middleware added to the full path's answer to this page (None until
    # one went through it), and whether that request came over HTTPS (HSTS is sent only
    # then): what `StoredPageMiddleware` answers with before any middleware runs.
    outer: tuple[tuple[str, str], ...] | None = None
    secure: bool = False

    @property
    def size(self) -> int:
        return len(self.body)


@dataclass(frozen=True)
class Kept:
    """A value built once per generation (`kept`), with its pickled size for the budget."""

    generation: str
    value: Any
    size: int


class _Local:
    """Each process's own store: most recently used pages up to a byte budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.pages: OrderedDict[str, Stored | Kept] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Stored | Kept | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key: str, page: Stored | Kept) -> None:
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
    roster of a small session. `build` runs when the stored copy is missing or older; an
    exception it raises (a refusal) passes through and nothing is stored. `current`: the
    generation, when the caller has read it already (`page_etag` while the public's copy
    is built)."""
    current = current or generation(session_id)
    if current is None:
        return build()
    key = f"fragment:{name}:{session_id}"
    page = _lookup(key, current)
    if page is None:
        html = build()
        page = Stored(generation=current, etag="", content_type="", body=html.encode())
        LOCAL.put(key, page)
        cache.set(key, page, PAGE_TTL)
    return page.body.decode()


T = TypeVar("T")


def kept(session_id: int, name: str, build: Callable[[], T], *, current: str | None = None) -> T:
    """What `fragment` does for a value that is not HTML: rows that every request pages
    through or searches (the standings, the movement preview's tables), built once per
    generation and kept as they are in this process (no copy, no unpickling per
    request), pickled in the shared cache. The value must not be changed by its users."""
    current = current or generation(session_id)
    if current is None:
        return build()
    key = f"kept:{name}:{session_id}"
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


def anonymous(request: HttpRequest) -> bool:
    """Whether the request is the public's: no cookie that could make its page its own,
    and no credentials."""
    if request.method not in ("GET", "HEAD"):
        return False
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return False
    return not any(request.META.get(header) for header in _PRIVATE_HEADERS)


def _lookup(key: str, current: str, *, share: bool = True) -> Stored | None:
    page = LOCAL.get(key)
    if isinstance(page, Stored) and page.generation == current:
        return page
    if not share:
        return None
    found = cache.get(key)
    if isinstance(found, Stored) and found.generation == current:
        LOCAL.put(key, found)
        return found
    return None


def _keep(
    key: str, current: str, request: HttpRequest, response: HttpResponseBase, *, share: bool
) -> Stored | None:
    """The rendered response as a stored page, if it is one the public may share. Only in
    this process's memory unless `share`: a searched name is the visitor's free choice,
    and Redis must not fill up with a page for every string anyone typed."""
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        or getattr(getattr(request, "session", None), "modified", False)
        or not isinstance(response, HttpResponse)
    ):
        return None
    render = getattr(response, "render", None)
    if callable(render):
        render()  # a DRF or template response renders late; its bytes are what we keep
    page = Stored(
        generation=current,
        etag=page_etag(request) or current,
        content_type=response.get("Content-Type", "text/html; charset=utf-8"),
        body=response.content,
        gzipped=gzip.compress(response.content, 6) if len(response.content) > GZIP_FROM else None,
        headers=tuple((h, response[h]) for h in ("Allow",) if h in response),
    )
    LOCAL.put(key, page)
    if share:
        cache.set(key, page, PAGE_TTL)
    return page


def _answer(request: HttpRequest, page: Stored) -> HttpResponseBase:
    etags = parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
    quoted = f'"{page.etag}"'
    response: HttpResponseBase
    if quoted in etags or f"W/{quoted}" in etags or "*" in etags:
        response = HttpResponseNotModified()
    elif page.gzipped is not None and accepts_gzip(request):
        response = HttpResponse(page.gzipped, content_type=page.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.body, content_type=page.content_type)
    for header, value in page.headers:
        response[header] = value
    # Weak: the gzipped and the plain bytes are the same page.
    response["ETag"] = f"W/{quoted}"
    # Asked again every time: the ETag makes the answer a 304 while nothing changed.
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Encoding"))
    return response


View = Callable[..., HttpResponseBase]


def public_page(
    name: str,
    *,
    session_of: Callable[[dict[str, Any]], int | None] = lambda kwargs: int(kwargs["pk"]),
    variant: Callable[[HttpRequest], str] = lambda request: "",
    searched: Callable[[HttpRequest], str] = lambda request: "",
) -> Callable[[View], View]:
    """Serve the view's page to the public from the store while its session is unchanged.

    `session_of` finds the session from the URL's arguments (None: serve as usual);
    `variant` and `searched` are whatever else of the request the page depends on, so
    that each is stored apart: `variant` a choice among few (a page of a long list, which
    the view answers with a 200 only when that page exists), `searched` free text (a
    name), whose pages stay in the process's memory. The view itself still decides who
    may see the page: only a 200 it gave an anonymous request is stored, so a private
    session is never stored and always answers as the view says.
    """

    rule = _Rule(name, session_of, variant, searched)

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            found = rule.find(request, kwargs)
            if found is None:
                return view(request, *args, **kwargs)
            key, current, share = found
            page = _lookup(key, current, share=share)
            if page is None:
                setattr(request, _GENERATION_ATTR, current)
                response = view(request, *args, **kwargs)
                page = _keep(key, current, request, response, share=share)
                if page is None:
                    return response
            setattr(request, _STORED_ATTR, (key, share))
            return _answer(request, page)

        setattr(wrapper, _RULE_ATTR, rule)
        return wrapper

    return decorate


@dataclass(frozen=True)
class _Rule:
    """Which stored page answers a request to one view: the one place that says it, for
    the view's decorator and for `StoredPageMiddleware` alike."""

    name: str
    session_of: Callable[[dict[str, Any]], int | None]
    variant: Callable[[HttpRequest], str]
    searched: Callable[[HttpRequest], str]

    def find(self, request: HttpRequest, kwargs: dict[str, Any]) -> tuple[str, str, bool] | None:
        """(key, current generation, whether it is shared) of the request's stored page;
        None when the request is not the public's or the generation cannot be read."""
        if not anonymous(request):
            return None
        session_id = self.session_of(kwargs)
        current = generation(session_id) if session_id is not None else None
        if current is None:
            return None
        chosen, searched = self.variant(request), self.searched(request)
        which = hashlib.blake2b(f"{chosen}\0{searched}".encode(), digest_size=8).hexdigest()
        key = f"page:{self.name}:{session_id}:{which}:{'/'.join(map(str, kwargs.values()))}"
        return key, current, not searched


class StoredPageMiddleware:
    """Answer the public's request for a stored page before the rest of the middleware
    (sessions, CSRF, sign-in, messages, django-axes) runs, as Django's own
    FetchFromCacheMiddleware does: the same bytes, 304 and headers as the full path, at a
    fraction of its cost. On a miss the request goes the full way, `public_page` stores
    the page, and this middleware keeps the headers the full path added beside it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        early = _early(request)
        if early is not None:
            return early
        response = self.get_response(request)
        _keep_outer(request, response)
        return response


def _early(request: HttpRequest) -> HttpResponseBase | None:
    if not anonymous(request):
        return None
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return None  # SecurityMiddleware sends it to HTTPS
    request.get_host()  # a host not allowed is refused (400), as on the full path
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    rule = getattr(match.func, _RULE_ATTR, None)
    if not isinstance(rule, _Rule):
        return None
    found = rule.find(request, match.kwargs)
    if found is None:
        return None
    key, current, share = found
    page = _lookup(key, current, share=share)
    if page is None or page.outer is None or page.secure != request.is_secure():
        return None
    response = _answer(request, page)
    for header, value in page.outer:
        response[header] = value
    if isinstance(response, HttpResponse) and not response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))  # as CommonMiddleware does
    return response


def _keep_outer(request: HttpRequest, response: HttpResponseBase) -> None:
    """Keep beside the stored page the headers the middleware gave its answer."""
    stored = getattr(request, _STORED_ATTR, None)
    if stored is None or response.cookies or response.status_code not in (200, 304):
        return
    key, share = stored
    page = LOCAL.get(key)
    if not isinstance(page, Stored):
        return
    # Kept once; again only to trade a plain request's headers for an HTTPS one's (the
    # public's requests are HTTPS in production; a plain one then goes the full way).
    if page.outer is not None and (page.secure or not request.is_secure()):
        return
    outer = tuple((h, v) for h, v in response.items() if h.lower() not in _OWN_HEADERS)
    page = replace(page, outer=outer, secure=request.is_secure())
    LOCAL.put(key, page)
    if share:
        cache.set(key, page, PAGE_TTL)
