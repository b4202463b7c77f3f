"""Hostile input on every path that takes a token (issue 30, part 10; common/tokens.py,
huckley/asgi.py; docs/api.md, "Errors").

The patterns are read from the resolvers, not listed: every HTTP pattern that captures
free text (`str`, `token`, `path`) and every WebSocket pattern is requested with a NUL
byte, a NUL inside a token, a real token with a NUL after it, and other strings no token
ever is (too long, `..`, letters outside ASCII, broken UTF-8, a space, markup), by GET,
by POST and by every other write its view takes. Each must answer exactly what a
well-formed token that no row has answers (the same status and the same body), and that
answer must be the refusal of an unknown token; a socket is accepted and closed with
4404. A new pattern is covered the day it is added.

The HTTP walk runs on SQLite under `make test` and on PostgreSQL in the second run of
`.ci/run` (which takes every test that touches the database). PostgreSQL is where a NUL
broke the paths (a 500: it refuses the byte in a query); the test marked `postgres` below
proves it still does, so the walk on PostgreSQL is the one that would catch a new pattern
that lets it through.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import DatabaseError, connections
from django.test import Client, override_settings
from django.urls import URLResolver, get_resolver
from django.urls.converters import IntConverter, PathConverter, SlugConverter, StringConverter
from django.urls.resolvers import RegexPattern, RoutePattern

from api.consumers import CLOSE_NOT_FOUND
from common.tokens import TokenConverter
from huckley.asgi import application, websocket_urlpatterns
from play.models import SeatLink
from tests.factories import (
    ClubTableCardFactory,
    RegistrationFactory,
    ScorerLinkFactory,
    SeatLinkFactory,
    TableCardFactory,
)

# Well formed, and no row has it: what every hostile value must be answered like.
UNKNOWN = "NoSuchToken0000000000000"
# As they stand in the URL (percent-encoded where a browser would encode them).
HOSTILE = (
    "%00",
    "a%00b",
    "%00%00%00",
    "a" * 65,
    "a" * 5000,
    "..",
    "%2E%2E",
    "%C3%A9t%C3%A9",
    "%F0%9F%83%8F",
    "%E2%80%AE",
    "%FF",
    "%20",
    "a%0Ab",
    "%27%3B--",
    "%3Cscript%3E",
    "%25",
)
FREE_TEXT = (StringConverter, TokenConverter, PathConverter)
WRITES = ("post", "put", "patch", "delete")

# Where an unknown token is answered with something other than a 404, and why.
REFUSAL = {
    # A scorer link that opens nothing may have been real: it says it has expired.
    "tournaments:scorer_open": 410,
    # A claim link is signed, never looked up: a damaged one is `claim_invalid`.
    "player_claim": 400,
    # Django's own page, "The password reset link was invalid".
    "password_reset_confirm": 200,
}
# Staff only: an anonymous request is sent to sign in before any lookup.
SKIPPED_NAMESPACES = {"admin"}
# Patterns whose free text is not one of our tokens, so not `<token:...>`.
NOT_OUR_TOKENS = {
    "player_claim": "a signed value (django.core.signing), checked without a query",
    "password_reset_confirm": "Django's own view, which decodes and checks both parts",
}


def free_text(converter: Any) -> bool:
    # A slug is a `str` too, but only letters, digits, `-` and `_` match it.
    return isinstance(converter, FREE_TEXT) and not isinstance(converter, SlugConverter)


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    converters: dict[str, Any]
    callback: Any

    def url(self, value: str, number: int) -> str:
        """The route with `value` for its free text and `number` for its numbers."""

        def fill(match: re.Match[str]) -> str:
            converter = self.converters[match.group(2)]
            if isinstance(converter, IntConverter):
                return str(number)
            if free_text(converter):
                return value
            return "no-such-thing"  # a slug

        return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, self.route)

    @property
    def takes_a_token(self) -> bool:
        converters = self.converters.values()
        return self.name in NOT_OUR_TOKENS or any(isinstance(c, TokenConverter) for c in converters)

    def methods(self) -> list[str]:
        view = getattr(self.callback, "cls", None) or getattr(self.callback, "view_class", None)
        writes = [m for m in WRITES if view is not None and hasattr(view, m)]
        return ["get", *dict.fromkeys(["post", *writes])]


def _walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[Route]:
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace in SKIPPED_NAMESPACES:
                continue
            inner = f"{namespace}:{p.namespace}" if namespace and p.namespace else p.namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), inner or namespace)
        elif isinstance(p.pattern, RoutePattern):
            name = f"{namespace}:{p.name}" if namespace else str(p.name)
            yield Route(name, prefix + str(p.pattern), p.pattern.converters, p.callback)
        else:
            assert isinstance(p.pattern, RegexPattern)
            # A regex would capture text the walk cannot fill in: use path() and <token:>.
            assert not p.pattern.regex.groupindex, (prefix, p.pattern)


def free_text_routes() -> list[Route]:
    routes = _walk(get_resolver().url_patterns, "", "")
    return [r for r in routes if any(free_text(c) for c in r.converters.values())]


def test_the_walk_finds_every_kind_of_token() -> None:
    names = {r.name for r in free_text_routes()}
    assert {
        "api:play",
        "api:play_moves",
        "api:registration",
        "tournaments:play",
        "tournaments:registration",
        "tournaments:registration_cancel",
        "tournaments:scorer_open",
        "tournaments:table_card",
        "tournaments:club_card",
        "player_claim",
    } <= names


def test_every_token_in_a_path_is_read_by_the_token_converter() -> None:
    """A `<str:token>` would hand a NUL to the view, which hands it to PostgreSQL."""
    for route in free_text_routes():
        for name, converter in route.converters.items():
            if ("token" in name or "code" in name) and route.name not in NOT_OUR_TOKENS:
                assert isinstance(converter, TokenConverter), (route.name, name)
    routed = [p for p in websocket_urlpatterns if isinstance(p.pattern, RoutePattern)]
    seat = [p for p in routed if "seat_token" in p.pattern.converters]
    assert seat
    assert all(isinstance(p.pattern.converters["seat_token"], TokenConverter) for p in seat)


@pytest.fixture
def real_tokens(db: None) -> list[str]:
    """One token of each kind, so that no hostile value is answered for a lack of rows."""
    return [
        SeatLinkFactory().token,
        RegistrationFactory().token,
        ScorerLinkFactory().token,
        TableCardFactory().token,
        ClubTableCardFactory().token,
    ]


CALLERS = itertools.count(1)


def answer(client: Client, method: str, url: str) -> tuple[int, str, bytes]:
    """The status, the redirect and the body, for a caller of its own (the anonymous
    limits, the sheets' and the sign-ups', count per address) and, on a write, a fresh
    Idempotency-Key (a key kept for one path must not answer the next)."""
    n = next(CALLERS)
    caller = {"REMOTE_ADDR": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}
    if method == "get":
        response = client.get(url, **caller)
    else:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        send = getattr(client, method)
        body = {"move": 1}
        response = send(url, body, content_type="application/json", headers=headers, **caller)
    return response.status_code, response.get("Location", ""), response.content


def test_a_hostile_token_is_answered_as_an_unknown_one_on_every_path(
    real_tokens: list[str],
) -> None:
    number = SeatLink.objects.get(token=real_tokens[0]).session_id
    hostile = [*HOSTILE, *(f"{token}%00" for token in real_tokens)]
    client = Client(raise_request_exception=False)
    for route in free_text_routes():
        expected = REFUSAL.get(route.name, 404)
        taken = 0
        for method in route.methods():
            unknown = answer(client, method, route.url(UNKNOWN, number))
            if unknown[0] != 405:  # a method the path takes
                assert unknown[0] == expected, (route.name, method, unknown)
                taken += 1
            for value in hostile:
                got = answer(client, method, route.url(value, number))
                if route.takes_a_token:
                    assert got == unknown, (route.name, method, value, got[:2])
                else:
                    # A rules id or a sheet's name, which the refusal may quote.
                    assert got[0] == unknown[0], (route.name, method, value, got[:2])
        assert taken, route.name


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_refuses_a_nul_in_a_query() -> None:
    """Why the walk above must run on PostgreSQL: there the NUL was a 500."""
    with pytest.raises((ValueError, DatabaseError)):
        SeatLink.objects.filter(token="a\x00b").first()


# The WebSocket ---------------------------------------------------------------------------

ORIGIN = (b"origin", b"http://testserver")
TIMEOUT = 10
UNROUTED = (
    "/ws/play/../../x/",
    "/ws/play/",
    "/ws/play/a/b/",
    "/ws/watch/abc/",
    "/ws/watch/%00/",
    "/ws/watch/-1/",
    "/ws/",
    "/ws/nothing/",
    "/",
)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """In a thread of its own, as tests/play/test_websocket.py says why."""

    def in_thread() -> None:
        try:
            async_to_sync(scenario)()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(in_thread).result()


async def closed_as_unknown(path: str) -> bool:
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, _ = await socket.connect(timeout=TIMEOUT)
    if not connected:
        return False
    output = await socket.receive_output(timeout=TIMEOUT)
    return bool(output == {"type": "websocket.close", "code": CLOSE_NOT_FOUND})


def socket_paths(hostile: list[str]) -> list[str]:
    """Every socket pattern with each hostile value for its free text, and with no row's
    number (0, and one past any column) for its numbers; then the paths none takes."""
    routes = [
        Route(str(p.pattern), str(p.pattern), p.pattern.converters, p.callback)
        for p in websocket_urlpatterns
        if isinstance(p.pattern, RoutePattern)
    ]
    assert {"ws/play/<token:seat_token>/", "ws/watch/<int:table_id>/"} <= {r.route for r in routes}
    return [
        *{r.url(v, n) for r in routes for v in [UNKNOWN, *hostile] for n in (0, 10**20)},
        *UNROUTED,
    ]


@pytest.mark.django_db(transaction=True)
def test_a_hostile_token_number_or_path_on_a_socket_is_closed_with_4404(
    real_tokens: list[str],
) -> None:
    paths = socket_paths([*HOSTILE, *(f"{token}%00" for token in real_tokens)])
    with override_settings(
        CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    ):

        async def scenario() -> None:
            for path in paths:
                assert await closed_as_unknown(path), path

        run(scenario)
