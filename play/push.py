"""The push of a table's change to its phones and watchers (docs/api.md, "WebSocket").

A change at a table made under its locks (the deal, the robots' moves, a round stored,
a move over HTTP) reads every seat's view and the watchers' there, and `send` publishes
them once it commits, in one message on the table's channel (`play.bus`): each node
holding sockets of the table sends each its own (`play.node`). A move taken on a socket
is published by the node that took it. Each view is the socket's whole message
(`{"type": "view", "view": ...}`), serialized once. Without a channel layer (Channels
not configured) the push is skipped: the phones that poll read the same views.

A change of seats, whatever write made it (the movement and its undo, a rebalance, a
withdrawal, a switch online or to paper, a correction, the finish:
`tournaments.signals.seats_changed`), is pushed the same way by `seats_changed`, the
signal's receiver (connected in `play.apps`): each affected player's view of their new
place to the group `play.<token>` (with the table they sit at now, which their socket
follows) and each affected table's watchers' view to `watch.<table id>`, as
`{"type": "play.view", "group": ..., "text": ...}` messages of the channel layer; the
nodes holding the affected tables are told to read them again (`stale`). A node is in
the groups of its sockets on one channel of its own and hands each message to its
sockets of the group it names (`play.seat_push`); a group with no socket anywhere
takes the message and nobody gets it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from common import jsontext
from play import bus, seats, selectors
from play.models import LiveRound
from play.phases import state_text

logger = logging.getLogger(__name__)


def channel_layer() -> Any:
    """The channel layer that carries the seat pushes, or None (not configured)."""
    try:
        return get_channel_layer()
    except Exception:
        logger.warning("no channel layer: the push of online play is off")
        return None


def seats_changed(
    sender: object,
    *,
    session_id: int,
    player_ids: frozenset[int] | None,
    table_ids: frozenset[int] | None,
    **kwargs: object,
) -> None:
    """The receiver of `tournaments.signals.seats_changed` (after the commit of a
    movement, an undo, a rebalance, a withdrawal, a switch, a correction, the finish...):
    every affected seat link's view of its player's new place to `play.<token>`, and
    every affected table's watchers' view to `watch.<table id>` (`play.seats`), all at
    once. A failure is logged: the phones that poll read the same views."""
    layer = channel_layer()
    if layer is None:
        return
    try:
        now = seats.seats_now(session_id, player_ids, table_ids)
        for table_id in now.tables:
            bus.publish(table_id, {"kind": "stale"})
        _run(_send_seats(layer, now), layer)
    except Exception:
        logger.warning("the push of the seats of session %s failed", session_id, exc_info=True)


async def _send_seats(layer: Any, now: seats.SeatsNow) -> None:
    """Every seat's and every watcher's message at once."""
    sends = [
        message(f"play.{token}", seat.view, table=seat.table_id)
        for token, seat in now.seats.items()
    ]
    sends += [message(f"watch.{table_id}", table.watch) for table_id, table in now.tables.items()]
    await asyncio.gather(*(layer.group_send(sent["group"], sent) for sent in sends))


@dataclass(frozen=True)
class LastMove:
    """The live round's last move as the rows held it when a change under the table's
    locks began (`last_move`): what the node that took it published, or will."""

    live_id: int
    entry: dict[str, Any]
    state: dict[str, Any]
    at: datetime

    def message(self, seen: dict[str, datetime]) -> dict[str, Any]:
        """The move's message as `play.taking.take` publishes it, from no node (every
        node hears it), with who was present as the change read it."""
        return bus.move_message(
            node="",
            live_id=self.live_id,
            entry=self.entry,
            at=self.at.timestamp(),
            seen={token: stamp.timestamp() for token, stamp in seen.items()},
        )


def last_move(live: LiveRound | None) -> LastMove | None:
    """The live round's last move, when the row's state is the one it made (its history
    ends with it): taken before the change (the round's end, a robot's cover) that
    follows it under the table's locks (the state and history are replaced by a change,
    never changed in place)."""
    if live is None or not live.history or live.turn_started_at is None:
        return None
    entry = live.history[-1]
    if not isinstance(entry, dict) or entry.get("move") != live.move - 1:
        return None
    return LastMove(live.pk, entry, live.state, live.turn_started_at)


def send(table_id: int, now: selectors.TableNow, last: LastMove | None = None) -> bool:
    """Publish views already read (a change at a table reads them under its locks and
    sends them once committed) on the table's channel, once (`play.bus`): each node
    holding the table's sockets sends each its own; whether a node may hear it (False
    without a channel layer).

    `last`: the move the change followed (`last_move`), published again first. A node
    takes a move on a socket, commits it and then publishes it; a scheduler can take
    the table in between (the round's end, due at once) and publish its views first.
    A node that heard those views before the move would send its sockets the next
    round's deal without the last card's view; hearing the move first, from here, it
    sends both in order, and the node's own publish, heard later, is passed. The two
    go in one round trip to Redis (`play.bus.together`)."""
    if channel_layer() is None:
        return False
    message: dict[str, Any] = {
        "kind": "views",
        "views": {token: view_text(view) for token, view in now.views.items()},
        "watch": view_text(now.watch),
        "mark": now.mark,
    }
    if now.state is not None:
        message["table"] = state_text(now.state)
    with bus.together():  # the move, then the views, in one round trip
        if last is not None and now.state is not None:
            state = {"state": jsontext.dumps(last.state)}
            bus.publish(table_id, last.message(now.state.seen), texts=state)
        bus.publish(table_id, message)
    return True


#: How long a push may take before the sender gives up on it (and logs it).
SEND_TIMEOUT = 10.0

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_loop_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's own event loop for pushes from synchronous code, on a thread of its
    own: the Redis channel layer keeps its connections per event loop, so pushes from
    one loop reuse them, where `async_to_sync` would make a loop (and connections) each
    time."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="huckley-push", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def _run(coroutine: Coroutine[Any, Any, None], layer: Any) -> None:
    """Run a push from synchronous code. In a thread of an ASGI server (a WebSocket's
    tick) or with the in-memory layer (whose queues belong to the server's loop),
    `async_to_sync` hands it to the server's loop; from a synchronous worker (gunicorn,
    Celery), this process's own sender loop."""
    in_server = getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None
    if in_server or isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(_await)(coroutine)
        except BaseException:
            # Refused before it started (a thread with its own loop running, where
            # `async_to_sync` cannot go): closed, so it is not left never awaited.
            coroutine.close()
            raise
        return
    asyncio.run_coroutine_threadsafe(coroutine, _sender_loop()).result(timeout=SEND_TIMEOUT)


async def _await(coroutine: Coroutine[Any, Any, None]) -> None:
    await coroutine


def message(group: str, view: dict[str, Any], *, table: int | None = None) -> dict[str, Any]:
    """The channel layer's message of one view to `group` (the module's docstring), with
    the table where the seat's player sits now (a seat's socket follows them there). It
    names its group: each node reads every group's messages on its one channel."""
    return {"type": "play.view", "group": group, "text": view_text(view), "table": table}


def view_text(view: dict[str, Any]) -> str:
    """A socket's message carrying a view (docs/api.md, "WebSocket")."""
    return jsontext.dumps({"type": "view", "view": view})
