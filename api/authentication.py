"""Scorer links as an API credential: the `X-Scorer-Token` header.

A scorer has no account, so the request stays anonymous; what the link opens is decided
by `tournaments.permissions` (`actor_from_request` reads the same header). A header that
names no live link (or is sent empty) is refused outright, whatever other credentials
come with it, so a client learns at once that its link expired: `ScorerHeaderCheck`
runs before the other authenticators for that, and `ScorerLinkAuthentication`, after
them, lets the link stand for a caller who has no account.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from common.tokens import is_token
from tournaments.models import ScorerLink
from tournaments.permissions import HEADER, live_links

HEADER_NAME = "X-Scorer-Token"
_CACHE = "huckley_scorer_link"


def link_from_header(request: Request) -> ScorerLink | None:
    """The live link the header names; None without the header. Read once a request."""
    raw = request._request
    if hasattr(raw, _CACHE):
        link: ScorerLink | None = getattr(raw, _CACHE)
        return link
    if HEADER not in request.META:
        link = None
    else:
        token = request.META[HEADER].strip()
        if not token:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "The %(header)s header is empty: send the token of the table's scorer "
                    "link, or leave the header out."
                )
                % {"header": HEADER_NAME},
                code="authentication_failed",
            )
        link = live_links([token]).first() if is_token(token) else None
        if link is None:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "This scorer link has expired (the sitting moved on or the session ended) "
                    "or was revoked. Ask the director for a new one."
                ),
                code="scorer_link_expired",
            )
    setattr(raw, _CACHE, link)
    return link


class ScorerHeaderCheck(BaseAuthentication):
    """First of the authenticators: refuses a dead or empty X-Scorer-Token header even
    when an API token or a session would authenticate the request. Authenticates nobody
    itself."""

    def authenticate(self, request: Request) -> None:
        link_from_header(request)
        return None

    def authenticate_header(self, request: Request) -> str:
        # DRF asks the first authenticator what a 401 names; the API token is the scheme
        # to ask for.
        return "Token"


class ScorerLinkAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AnonymousUser, ScorerLink] | None:
        link = link_from_header(request)
        return None if link is None else (AnonymousUser(), link)

    def authenticate_header(self, request: Request) -> str:
        return HEADER_NAME
