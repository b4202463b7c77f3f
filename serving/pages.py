"""The public's pages of a session served to a crowd: built once per generation, then
answered as stored bytes.

A page is kept as the bytes of its last rendering with the session's generation it was
built at (`tournaments.pagecache`); a request that finds the same generation gets those
bytes, or a 304 when its ETag matches, with no rendering and no query. The next request
after a change builds the page again.

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

Stored pages live where `tournaments.pagecache` keeps things: each process's memory
(`LOCAL`) and the shared cache. A page for a searched name stays in the process's memory
only: names are typed by anyone, and Redis is not to fill up with them. A page of a long
list (`?page=N`) is shared: its view answers only the pages that exist (any other value
is sent to one that does), so there are as many as the list has pages.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from common import languages
from serving.compress import GZIP_FROM, accepts_gzip
from tournaments.pagecache import LOCAL, PAGE_TTL, generation

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


def page_etag(request: HttpRequest) -> str | None:
    """The ETag the stored copy of this request's page will carry, while it is being built
    from the store's miss; None when the page is rendered for one visitor only."""
    value = getattr(request, _GENERATION_ATTR, None)
    return str(value) if value is not None else None


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


def anonymous(request: HttpRequest) -> bool:
    """Whether the request is the public's: no cookie that could make its page its own,
    and no credentials."""
    if request.method not in ("GET", "HEAD"):
        return False
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return False
    return not any(request.META.get(header) for header in _PRIVATE_HEADERS)


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
        gzipped=gzip.compress(response.content, 6, mtime=0)
        if len(response.content) > GZIP_FROM
        else None,
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
    patch_vary_headers(response, ("Cookie", "Accept-Encoding", "Accept-Language"))
    return response


View = Callable[..., HttpResponseBase]
#: (session id, its current generation, the searched text) -> the page's HTML, or None.
Compose = Callable[[int, str, str], str | None]


def public_page(
    name: str,
    *,
    session_of: Callable[[dict[str, Any]], int | None] = lambda kwargs: int(kwargs["pk"]),
    variant: Callable[[HttpRequest], str] = lambda request: "",
    searched: Callable[[HttpRequest], str] = lambda request: "",
    compose: Compose | None = None,
) -> Callable[[View], View]:
    """Serve the view's page to the public from the store while its session is unchanged.

    `session_of` finds the session from the URL's arguments (None: serve as usual);
    `variant` and `searched` are whatever else of the request the page depends on, so
    that each is stored apart: `variant` a choice among few (a page of a long list, which
    the view answers with a 200 only when that page exists), `searched` free text (a
    name), whose pages stay in the process's memory. The view itself still decides who
    may see the page: only a 200 it gave an anonymous request is stored, so a private
    session is never stored and always answers as the view says.

    `compose` answers a searched text the early path has not stored yet: it builds the
    page's HTML from what is kept of the session's generation, with no query and no
    rendering of the whole page (None: it cannot, and the request goes the full way). The
    early path calls it only once the full path has answered the public with a 200 for
    this view and session at this generation (the proof that the session is public, and
    the headers to send); the view must answer the public with the same `compose`, so
    both paths give the same bytes.
    """

    rule = _Rule(name, session_of, variant, searched, compose)

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
    compose: Compose | None = None

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
        # Each language its own copy: a page is built in the language the request asks
        # for (`common.languages.asked`) or its club's, which moves the generation.
        asked = languages.asked(request)
        which = hashlib.blake2b(
            f"{chosen}\0{searched}\0{asked}".encode(), digest_size=8
        ).hexdigest()
        key = f"page:{self.name}:{session_id}:{which}:{'/'.join(map(str, kwargs.values()))}"
        return key, current, not searched

    def shape_key(self, request: HttpRequest, kwargs: dict[str, Any]) -> str:
        """Where the headers of this view's last answer to the public are kept, for the
        pages `compose` builds: one per language asked for, as the pages are."""
        asked = languages.asked(request)
        key = f"page:{self.name}:shape:{'/'.join(map(str, kwargs.values()))}"
        return f"{key}:{asked}" if asked else key


@dataclass(frozen=True)
class Shape:
    """What the full path's answer to the public for a view of a session looked like at a
    generation: the proof that the public may see it, and the headers a page composed
    for a searched text is sent with."""

    generation: str
    content_type: str
    outer: tuple[tuple[str, str], ...]
    secure: bool

    @property
    def size(self) -> int:
        return 256 + sum(len(h) + len(v) for h, v in self.outer)


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
    if page is None and rule.compose is not None:
        page = _composed(rule, request, match.kwargs, key, current)
    if page is None or page.outer is None or page.secure != request.is_secure():
        return None
    response = _answer(request, page)
    for header, value in page.outer:
        response[header] = value
    if isinstance(response, HttpResponse) and not response.has_header("Content-Length"):
        response["Content-Length"] = str(len(response.content))  # as CommonMiddleware does
    return response


def _composed(
    rule: _Rule, request: HttpRequest, kwargs: dict[str, Any], key: str, current: str
) -> Stored | None:
    """The page for a searched text not stored yet, built by the view's `compose` from
    what is kept of the generation, once the full path has shown the view to the public
    at this generation; kept in this process's memory, as every searched page is."""
    searched = rule.searched(request)
    shape = _lookup_shape(rule.shape_key(request, kwargs), current)
    if not searched or shape is None or shape.secure != request.is_secure():
        return None
    session_id = rule.session_of(kwargs)
    # In the language the full path answered in (this runs before any language is
    # chosen: `huckley.languages`).
    language = next((v for h, v in shape.outer if h.lower() == "content-language"), None)
    with translation.override(language or settings.LANGUAGE_CODE):
        html = rule.compose(session_id, current, searched) if rule.compose and session_id else None
    if html is None:
        return None
    body = html.encode()
    page = Stored(
        generation=current,
        etag=current,
        content_type=shape.content_type,
        body=body,
        gzipped=gzip.compress(body, 6, mtime=0) if len(body) > GZIP_FROM else None,
        outer=shape.outer,
        secure=shape.secure,
    )
    LOCAL.put(key, page)
    return page


def _lookup_shape(key: str, current: str) -> Shape | None:
    shape = LOCAL.get(key)
    if isinstance(shape, Shape) and shape.generation == current:
        return shape
    found = cache.get(key)
    if isinstance(found, Shape) and found.generation == current:
        LOCAL.put(key, found)
        return found
    return None


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
    rule = getattr(getattr(request, "resolver_match", None), "func", None)
    _keep_shape(getattr(rule, _RULE_ATTR, None), request, page)


def _keep_shape(rule: object, request: HttpRequest, page: Stored) -> None:
    """For a view that composes searched pages: the headers and the proof that the public
    may see the session at this generation, shared by every process."""
    if not isinstance(rule, _Rule) or rule.compose is None or page.outer is None:
        return
    match = request.resolver_match
    if match is None:
        return
    shape = Shape(page.generation, page.content_type, page.outer, page.secure)
    key = rule.shape_key(request, match.kwargs)
    LOCAL.put(key, shape)
    cache.set(key, shape, PAGE_TTL)
