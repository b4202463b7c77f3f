"""What an anonymous caller may ask for how often: the printed sheets and the exports cost
a web worker up to a second each (a PDF of 200 players), so a caller without an account
gets `API_ANON_SHEET_RATE` of them (PDFs and exports together) per client address
(`REMOTE_ADDR`, as `huckley.proxies` resolved it), then a 429 `throttled` with
Retry-After. A signed-in caller is not counted. The counts live in the cache (Redis with
REDIS_URL, so every web process shares them; a process's memory otherwise)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class AnonymousSheetThrottle(SimpleRateThrottle):
    scope = "anon_sheets"

    def get_rate(self) -> str:
        # Read when the throttle is made (every request), not when DRF was imported.
        return str(settings.API_ANON_SHEET_RATE)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user is not None and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AnonymousSignUpThrottle(SimpleRateThrottle):
    """Sign-ups for a night (`POST /api/sessions/{id}/registrations/`) by a caller without
    an account: HUCKLEY_REGISTRATIONS_PER_HOUR per client address, as on the sign-up page
    (web/views/registrations.py), then a 429 `throttled`. Other methods are not counted."""

    scope = "anon_signups"

    def get_rate(self) -> str:
        return f"{settings.HUCKLEY_REGISTRATIONS_PER_HOUR}/hour"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method != "POST":
            return True
        if settings.HUCKLEY_REGISTRATIONS_PER_HOUR <= 0:
            return False
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user is not None and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
