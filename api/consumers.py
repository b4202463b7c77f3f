"""The WebSocket side of online play (docs/api.md, "WebSocket: /ws/play/{seat_token}/").

Two consumers, routed in `huckley/asgi.py`:

- `PlayConsumer` at `/ws/play/<seat_token>/`: one player's phone. The token is the
  credential, as for `GET /api/play/{seat_token}/`; an unknown token is refused (the
  socket is closed with code 4404). It sends the seat's whole view on connect, and again
  after every change at the table (`play.push.table_changed` sends it to the group
  `play.<token>`). `{"type": "ping"}` is answered `{"type": "pong"}` and marks the player
  present (`play.presence.seen`). Moves are made by `POST /api/play/{seat_token}/moves/`,
  never over the socket.
- `WatchConsumer` at `/ws/watch/<table_id>/`: the projector and a director watching a
  table. The watcher's view only (`play.selectors.watch_view`: no hand at all), from the
  group `watch.<table_id>`.

Both keep a timer: while the view they last sent has a player to act, they call
`play.services.tick` for the table at its next deadline (`play.deadlines.next_deadline`:
an absent player's grace time or the move clock running out), so a robot takes over
with no request at all. Each
open socket of a table keeps its own timer; `tick` takes the table's locks and does
nothing when there is nothing to do, so several at once make one move.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist

from common.errors import UserError
from play import deadlines, presence, push, selectors, services
from tournaments.models import Table
from tournaments.permissions import as_actor, can_direct, can_view_session

log = logging.getLogger(__name__)

#: The close code of an unknown seat token or table (the HTTP 404 of the socket).
CLOSE_NOT_FOUND = 4404
#: The longest text message a client may send; a ping is 16 bytes.
MAX_MESSAGE = 1024
#: The shortest wait of the timer, so a deadline that has passed cannot spin it.
MIN_TICK_INTERVAL = 0.5


class _LiveConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no types
    """What both consumers share: the group, the view sent as `{"type": "view"}`, the
    tick timer, and the answers to what a client sends."""

    group = ""
    table_id: int | None = None
    _timer: asyncio.Task[None] | None = None

    async def joined(self, group: str, view: dict[str, Any]) -> None:
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_view(view)

    async def refuse(self) -> None:
        """Accepted and closed at once with 4404: a refusal before `accept` reaches the
        client as a bare HTTP 403, which a phone cannot tell from a network fault."""
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)

    async def disconnect(self, code: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def play_view(self, event: dict[str, Any]) -> None:
        """A change at the table (`play.push.table_changed`): the socket's message,
        serialized once by the push, as is. The push says when a robot's move may next
        fall due there (`due`), so the timer starts from it without reading the table
        again."""
        await self.send(text_data=event["text"])
        self.schedule_tick(event["live"], (event["table"], event["due"]))

    async def send_view(self, view: dict[str, Any]) -> None:
        await self.send(text_data=push.view_text(view))
        self.schedule_tick(push.is_live(view))

    async def send_error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))

    # The timer -------------------------------------------------------------------------

    def schedule_tick(self, live: bool, known: tuple[int, float | None] | None = None) -> None:
        """(Re)start the timer after a view went out: while a player is to act (`live`),
        tick the table at its next deadline, then ask again (a player who pinged in the
        meantime moved the deadline on; a tick that moved pushes a new view, which
        restarts it)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if live:
            self._timer = asyncio.ensure_future(self._tick_loop(known))

    def table_now(self) -> int | None:
        """The id of the table this socket follows now (run in a thread)."""
        return self.table_id

    def next_due(self) -> tuple[int, float] | None:
        """The table and when (seconds since the epoch) a robot's move may next fall due
        there, or None (run in a thread: it reads the database)."""
        table_id = self.table_now()
        if table_id is None:
            return None
        due = deadlines.next_deadline(table_id)
        return None if due is None else (table_id, due[1].timestamp())

    def _stopped(self) -> bool:
        """Whether the running timer was stopped (the socket closed, or a newer view
        restarted it). asgiref's `sync_to_async` can swallow a cancellation that lands
        while its thread runs (when the thread's own call back into the loop, the tick's
        push, ends quietly) and return the thread's result, so a timer cancelled then
        would tick the table on for ever: it asks this after each call to the database."""
        return asyncio.current_task() is not self._timer

    async def _tick_loop(self, known: tuple[int, float | None] | None = None) -> None:
        try:
            while True:
                if known is not None:  # the push's own reading, the first time round
                    table, when_known = known
                    due = None if when_known is None else (table, when_known)
                    known = None
                else:
                    due = await database_sync_to_async(self.next_due)()
                if due is None or self._stopped():
                    return
                table_id, when = due
                await asyncio.sleep(max(when - time.time(), MIN_TICK_INTERVAL))
                await database_sync_to_async(services.tick)(table_id=table_id)
                if self._stopped():
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            # A failed tick must not close the socket: the next read, move or push
            # (which restarts the timer) ticks again.
            log.exception("the WebSocket timer of %s failed", self.group)

    # What a client sends ---------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self.send_error("bad_message", "Send a JSON object of under 1 KiB as text.")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_message", "That message is not JSON.")
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.pinged()
            await self.send(text_data=json.dumps({"type": "pong"}))
            return
        await self.send_error(
            "unknown_type",
            'The socket takes only {"type": "ping"}; moves are sent by '
            "POST /api/play/{seat_token}/moves/.",
        )

    async def pinged(self) -> None:
        """A ping from the client: a seat's phone marks its player present."""


def watch_read(table_id: int, user: Any = None) -> dict[str, Any]:
    """The watcher's view on connect, the table ticked first; `Table.DoesNotExist` for
    an unknown table, and for a table `user` may not watch: one of a session they may
    not see, or of a duplicate sitting, whose cards on the table another table may not
    have played yet (play.duplicate), unless they direct its club."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    session = table.sitting.session
    may_see = can_view_session(as_actor(user), session)
    if not may_see or (table.sitting.duplicate and not can_direct(user, session.club_id)):
        raise Table.DoesNotExist("No such table.")
    if table.online:
        services.tick(table_id=table_id)
    return selectors.watch_view(table_id)


class PlayConsumer(_LiveConsumer):
    """One player's phone: the seat's own view, pushed after every change."""

    token = ""

    async def connect(self) -> None:
        self.token = str(self.scope["url_route"]["kwargs"]["seat_token"])
        try:
            view = await database_sync_to_async(services.seat_read)(self.token)
        except UserError:
            await self.refuse()
            return
        await self.joined(f"play.{self.token}", view)

    async def pinged(self) -> None:
        await database_sync_to_async(presence.seen)(self.token)

    def table_now(self) -> int | None:
        """The table of the player's seating now: the link follows its player through
        every movement."""
        seating = selectors.seating_of(selectors.seat_link(self.token))
        return None if seating is None else seating.table_id


class WatchConsumer(_LiveConsumer):
    """A watcher of one table (the projector, a director): never a hand."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            user = self.scope.get("user")
            view = await database_sync_to_async(watch_read)(self.table_id, user)
        except ObjectDoesNotExist:
            await self.refuse()
            return
        await self.joined(f"watch.{self.table_id}", view)
