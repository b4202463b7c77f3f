"""Who is at their phone: the last time each seat link was seen (a read, a move, a
WebSocket message or heartbeat), kept in the cache.

Presence is a hint, never a record: lost with the cache, a player simply counts as away
from the start of their turn, and a robot plays for them after the session's grace time
(`play.phases`). With a per-process memory cache (the embedded default) each
process sees its own readers; with Redis (REDIS_URL) every process sees them all.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

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
    return _stamps(tokens, cache.get_many([_key(t) for t in tokens]))


def seen_and_read(token: str, tokens: list[str], at: datetime) -> dict[str, datetime]:
    """`seen(token, at)`, then `last_seen_many(tokens)`: on Redis, both in one round trip
    (a move on a socket does both; `play.node_io` does the same on the node's loop).
    Redis down is nobody seen, as a cache miss is."""
    client = redis_cache()
    if client is None:
        seen(token, at)
        return last_seen_many(tokens)
    try:
        pipe = client.get_client(write=True).pipeline(transaction=False)
        stack(pipe, client, token, tokens, at)
        _, values = pipe.execute()
    except Exception:
        logger.warning("presence: Redis did not answer", exc_info=True)
        return {}
    return read_back(client, tokens, values)


def redis_cache() -> Any:
    """The cache's django-redis client, or None when the cache is not on Redis."""
    client = getattr(cache, "client", None)
    return client if client is not None and hasattr(client, "get_client") else None


def stack(pipe: Any, client: Any, token: str, tokens: list[str], at: datetime) -> None:
    """`seen_and_read`'s two commands, on a Redis pipeline (redis-py's, either kind):
    the sight set, then every token's read."""
    pipe.set(*sight(client, token, at), ex=KEEP_SECONDS)
    pipe.mget([client.make_key(_key(t)) for t in tokens])


def sight(client: Any, token: str, at: datetime) -> tuple[Any, Any]:
    """The key and value of the sight of `token` at `at`, as `seen` writes them on
    Redis (kept `KEEP_SECONDS`)."""
    return client.make_key(_key(token)), client.encode(at.timestamp())


def read_back(client: Any, tokens: list[str], values: list[Any]) -> dict[str, datetime]:
    """The sights `stack`'s read found."""
    found = {
        _key(t): client.decode(v) for t, v in zip(tokens, values, strict=True) if v is not None
    }
    return _stamps(tokens, found)


def _stamps(tokens: list[str], found: dict[str, object]) -> dict[str, datetime]:
    zone = timezone.get_current_timezone()
    out: dict[str, datetime] = {}
    for token in tokens:
        stamp = found.get(_key(token))
        if isinstance(stamp, int | float):
            out[token] = datetime.fromtimestamp(stamp, tz=zone)
    return out
