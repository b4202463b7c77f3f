"""What a token in a URL may look like, decided once for every path that takes one: a
seat link (`/play/<token>/`, `/api/play/<token>/`, `/ws/play/<token>/`), a scorer link
(`/score/<token>/`), a session's or a club's table card (`/t/<token>/`, `/c/<token>/`)
and a sign-up's personal link (`/registrations/<token>/`, `/api/registrations/<token>/`).

Every such token is made by `secrets.token_urlsafe` and stored in a column of at most 64
characters, so it is 1 to 64 of the URL-safe base64 alphabet (letters, digits, `-`, `_`).
Anything else in its place (a NUL byte, which PostgreSQL refuses in a query; a space,
`..`, a letter outside ASCII, a thousand characters) is no token, and must be refused
exactly as an unknown token is.

The `token` path converter (`<token:name>`, registered when this module is first
imported) matches what `str` matches, so a malformed token still reaches its own view
and gets that view's own refusal, the same status and body as an unknown token. What the
view receives in its place is `NOT_A_TOKEN`, the empty string, which no token is: the
characters typed never reach a query, a cache key or a channel group.
"""

from __future__ import annotations

import re

from django.urls import register_converter

MAX_LENGTH = 64
"""The longest token any column holds (`ScorerLink.token`, `Registration.token`)."""

_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_LENGTH}}}")

NOT_A_TOKEN = ""
"""What a view is given for a malformed token: no row has it, so every lookup finds
nothing and answers as it does for an unknown token."""


def is_token(value: str) -> bool:
    """Whether `value` could be a token: 1 to 64 letters, digits, `-` or `_` (ASCII)."""
    return _SHAPE.fullmatch(value) is not None


class TokenConverter:
    """`<token:name>` in a URL pattern: a path segment, given to the view as is when it
    could be a token and as `NOT_A_TOKEN` when it could not."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return value if is_token(value) else NOT_A_TOKEN

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")
