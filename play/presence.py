"""Who is at their phone: the last time each seat link was seen (a read, a move, a
WebSocket message or heartbeat), kept in the cache.

Presence is a hint, never a record: lost with the cache, a player simply counts as away
from the start of their turn, and a robot plays for them after the session's grace time
(`play.phases`). With a per-process memory cache (the embedded default) each
process sees its own readers; with Redis (REDIS_URL) every process sees them all.
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

#: How long a sight is kept: longer than any grace time (docs/tournament.md).
KEEP_SECONDS = 6 * 3600


def _key(token: str) -> str:
    return f"play:seen:{token}"


def seen(token: str, at: datetime | None = None) -> None:
    """The holder of `token` is at their phone now (or at `at`)."""
    cache.set(_key(token), (at or timezone.now()).timestamp(), KEEP_SECONDS)


def last_seen(token: str) -> datetime | None:
    """When the holder of `token` was last seen, or None."""
    stamp = cache.get(_key(token))
    if not isinstance(stamp, int | float):
        return None
    return datetime.fromtimestamp(stamp, tz=timezone.get_current_timezone())


def last_seen_many(tokens: list[str]) -> dict[str, datetime]:
    """`last_seen` of several tokens in one cache call."""
    found = cache.get_many([_key(t) for t in tokens])
    zone = timezone.get_current_timezone()
    out: dict[str, datetime] = {}
    for token in tokens:
        stamp = found.get(_key(token))
        if isinstance(stamp, int | float):
            out[token] = datetime.fromtimestamp(stamp, tz=zone)
    return out
