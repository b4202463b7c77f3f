"""Scorer links as an API credential: the `X-Scorer-Token` header.

A scorer has no account, so the request stays anonymous; what the link opens is decided
by `tournaments.permissions` (`actor_from_request` reads the same header). A header that
names no live link is refused outright, so a client learns at once that its link expired.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from tournaments.models import ScorerLink
from tournaments.permissions import HEADER, live_links

HEADER_NAME = "X-Scorer-Token"


class ScorerLinkAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AnonymousUser, ScorerLink] | None:
        token = request.META.get(HEADER, "").strip()
        if not token:
            return None
        link = live_links([token]).first() if len(token) <= 64 else None
        if link is None:
            raise exceptions.AuthenticationFailed(
                "This scorer link has expired (the sitting moved on or the session ended) or "
                "was revoked. Ask the director for a new one.",
                code="scorer_link_expired",
            )
        return AnonymousUser(), link

    def authenticate_header(self, request: Request) -> str:
        return HEADER_NAME
