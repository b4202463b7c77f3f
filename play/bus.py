"""One publish per change of an online table (docs/architecture.md, "A move's path").

Every change at a table is published once, on the table's channel, whichever process
made it: a move taken on a socket (`play.node`), a deal, the robots' moves, a round
stored (`play.services`, after the commit). Each server process that holds sockets of
the table has subscribed to its channel (`play.node.Node`): it hears the change once
and sends each of its sockets its own view. Nobody else hears it.

With Redis (the channel layer's host, REDIS_URL) the channel is Redis pub/sub:
`PUBLISH` from any process (a sync worker, Celery, an ASGI node's thread), one
subscription per table on each node holding it. Without Redis (the embedded default,
one process; the in-memory channel layer of the tests) the nodes of this process are
called directly, each on its own event loop.

A message is a JSON object (`kind`: `move`, a move taken, which each node applies to
the round it holds, with the round's state it made for a node whose copy was read past
it, and the `node` that took it, which skips it unread; `views`, the views a change
sent under its locks, each socket's own, with the table's state they were made from
(`table`, `play.phases.state_text`), which a node whose copy was current takes as its
copy; `stale`, the table changed in a way its views do not show, such as a change of
seats, pushed to each player on its own: read it again before the next move). A move's
state follows on a second line, which a node reads only to set its copy back
(`message_text`, `read`): every node hears every move of its tables, and the state is
most of the message. A publish that fails is logged: the phones that poll, and the
socket's next view, catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import connection

from common import jsontext

logger = logging.getLogger(__name__)

#: What hears a table's messages in this process without Redis: the nodes, by loop.
Listener = Callable[[int, str], None]
_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}
_listeners_lock = threading.Lock()


def redis_url() -> str | None:
    """The Redis that carries the messages: the channel layer's, or None (in-memory)."""
    layer: dict[str, Any] = settings.CHANNEL_LAYERS.get("default", {})
    if "channels_redis" not in layer.get("BACKEND", ""):
        return None
    hosts = layer.get("CONFIG", {}).get("hosts") or []
    if not hosts:
        return None
    first = hosts[0]
    return str(first["address"] if isinstance(first, dict) else first)


def channel(table_id: int) -> str:
    """A table's channel: Redis pub/sub has no databases, so the name carries the
    deployment's prefix and the database's name (two sites, or two test databases, on
    one Redis never hear each other)."""
    return _named(f"table:{table_id}")


def scheduler_channel() -> str:
    """The channel on which a process with no scheduler of its own asks the scheduler
    processes to look now (`play.scheduler.poke`)."""
    return _named("scheduler")


def _named(name: str) -> str:
    """A channel's whole name: the deployment's prefix, the database's name, `name`."""
    prefix = os.getenv("CACHE_KEY_PREFIX", "huckley")
    return f"{prefix}:{connection.settings_dict.get('NAME')}:{name}"


def poke_schedulers() -> None:
    """Ask the scheduler processes to look now: one `PUBLISH`, nothing without Redis (the
    scheduler is then this process's own). A failure is logged: they look a few times a
    second anyway."""
    url = redis_url()
    if url is None:
        return
    try:
        _redis(url).publish(scheduler_channel(), b"")
    except Exception:
        logger.warning("asking the schedulers to look failed", exc_info=True)


def table_of(name: str | bytes) -> int:
    """The table of a channel's name (`channel`)."""
    text = name.decode() if isinstance(name, bytes) else name
    return int(text.rsplit(":", 1)[1])


_client: Any = None
_client_key: tuple[int, str] | None = None


def _redis(url: str) -> Any:
    """This process's synchronous Redis client for publishing (one connection pool)."""
    global _client, _client_key
    key = (os.getpid(), url)
    if _client is None or _client_key != key:
        import redis

        _client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        _client_key = key
    return _client


#: The publishes held back by `together` in this context, to send at its end.
_held: contextvars.ContextVar[list[tuple[int, str]] | None] = contextvars.ContextVar(
    "huckley_bus_held", default=None
)


def publish(table_id: int, message: dict[str, Any], *, texts: dict[str, str] | None = None) -> None:
    """Publish a change of the table (the module's docstring): one `PUBLISH`, or a call
    to each node of this process; inside `together`, at its end. `texts` are more of the
    message's keys, each value already JSON text (a round's state, written out once for
    the row and the message). A failure is logged."""
    text = message_text(message, texts or {})
    held = _held.get()
    if held is not None:
        held.append((table_id, text))
        return
    _send([(table_id, text)])


@contextlib.contextmanager
def together() -> Iterator[None]:
    """The publishes made inside, sent at its end in their order in one round trip to
    Redis (a pipeline of `PUBLISH`es), or as calls to each node of this process."""
    held: list[tuple[int, str]] = []
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
    if held:
        _send(held)


def _send(texts: list[tuple[int, str]]) -> None:
    """Each (table, text) published, in order: one round trip to Redis. A failure is
    logged."""
    url = redis_url()
    try:
        if url is None:
            for table_id, text in texts:
                local(table_id, text)
        elif len(texts) == 1:
            _redis(url).publish(channel(texts[0][0]), texts[0][1])
        else:
            pipe = _redis(url).pipeline(transaction=False)
            for table_id, text in texts:
                pipe.publish(channel(table_id), text)
            pipe.execute()
    except Exception:
        logger.warning(
            "the publish of tables %s failed", sorted({t for t, _ in texts}), exc_info=True
        )


def move_message(
    *, node: str, live_id: int, entry: dict[str, Any], at: float, seen: dict[str, float]
) -> dict[str, Any]:
    """A move's message (`kind` `move`, the module's docstring): the live round's row, its
    history `entry` (the state number it was made in, the player, the action), when
    (`at`, a timestamp) and who was present (token to timestamp), from the node `node`
    (which skips it; "" for none: every node hears it)."""
    return {
        "kind": "move",
        "node": node,
        "live": live_id,
        "move": entry["move"],
        "player": entry["player"],
        "action": entry["action"],
        "entry": entry,
        "at": at,
        "seen": seen,
    }


def message_text(message: dict[str, Any], texts: dict[str, str]) -> str:
    """The message as compact JSON, then `texts` (key to JSON text: a round's state,
    written out once for its row and the message) as one more JSON object on a line of
    its own. A node reads the first line of every message it hears and the second only
    when it needs it (`read`, `more`): compact JSON has no line break."""
    text = jsontext.dumps(message)
    if not texts:
        return text
    return text + "\n{" + ",".join(f"{jsontext.dumps(k)}:{v}" for k, v in texts.items()) + "}"


class Message(dict[str, Any]):
    """A message as heard (`read`): its first line's keys, and its second line
    (`later`) kept as text until `more` reads it."""

    later: str | bytes | None = None


def read(text: str | bytes) -> Message:
    """A message as heard (`message_text`): its first line read, the second kept as
    text (`more` reads it). ValueError when it is not a message."""
    head, _, later = text.partition(b"\n") if isinstance(text, bytes) else text.partition("\n")
    found = json.loads(head)
    if not isinstance(found, dict):
        raise ValueError("not a message")
    message = Message(found)
    message.later = later or None
    return message


def more(message: dict[str, Any], key: str) -> Any:
    """The message's `key`, from its second line when that came unread (read once,
    then kept), or None. ValueError when that line is not JSON."""
    if isinstance(message, Message) and message.later is not None:
        later, message.later = message.later, None
        found = json.loads(later)
        if isinstance(found, dict):
            message.update((k, v) for k, v in found.items() if k not in message)
    return message.get(key)


def listen(loop: asyncio.AbstractEventLoop, listener: Listener) -> None:
    """A node of this process hears every table's messages without Redis (it keeps
    those of the tables it holds)."""
    with _listeners_lock:
        for gone in [old for old in _listeners if old.is_closed()]:
            del _listeners[gone]
        _listeners[loop] = listener


def local(table_id: int, text: str) -> None:
    """A message's text to the nodes of this process (no Redis)."""
    with _listeners_lock:
        listeners = [(loop, fn) for loop, fn in _listeners.items() if not loop.is_closed()]
    for loop, fn in listeners:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            fn(table_id, text)
        else:
            try:
                loop.call_soon_threadsafe(fn, table_id, text)
            except RuntimeError:  # closed meanwhile
                continue
