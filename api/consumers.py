"""The WebSocket side of online play (docs/api.md, "WebSocket: /ws/play/{seat_token}/").

Two consumers, routed in `huckley/asgi.py`:

- `PlayConsumer` at `/ws/play/<seat_token>/`: one player's phone. The token is the
  credential, as for `GET /api/play/{seat_token}/`; an unknown token is refused (the
  socket is closed with code 4404). It sends the seat's whole view on connect, and again
  after every change that concerns the seat (`play.push` sends it to the group
  `play.<token>`). `{"type": "ping"}` is answered `{"type": "pong"}` and marks the player
  present (`play.presence.seen`). `{"type": "move", "move": k, ...}` makes a move, taken
  where the socket is (`play.node`: the table's state held by this server process, the
  engine, one write, one publish), checked as `POST /api/play/{seat_token}/moves/`
  checks it.
- `WatchConsumer` at `/ws/watch/<table_id>/`: the projector and a director watching a
  table. The watcher's view only (`play.selectors.watch_view`: no hand at all).

Both are held by the node of their server process at their table (`play.node`), which
sends each its own view after every change there. A change of seats comes on the
groups `play.<token>` and `watch.<table_id>` of the channel layer (`play.push`): a
socket has no channel of its own (`channel_layer_alias` None); its node is in the
group on the node's one channel and hands it the message (`play.seat_push`).

Neither keeps a timer: the deals, the robots' moves and the clocks are the scheduler's
(`play.scheduler`), whose changes reach the sockets as pushes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from common import languages
from common.errors import UserError
from play import node, node_io, push, selectors, services
from tournaments.models import Table
from tournaments.permissions import as_actor, can_direct, can_view_session

logger = logging.getLogger(__name__)

#: A move that met a database error (`database_unavailable`, as the HTTP 503 says it).
UNAVAILABLE = gettext_lazy(
    "The database could not be reached just now, so your move may not have been taken. "
    "Try again in a moment."
)
#: The close code of an unknown seat token or table (the HTTP 404 of the socket).
CLOSE_NOT_FOUND = 4404
#: The longest text message a client may send; a ping is 16 bytes, a move under 200.
MAX_MESSAGE = 1024


class _LiveConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no types
    """What both consumers share: the group, the view sent as `{"type": "view"}`, and the
    answers to what a client sends."""

    # No channel of its own: Channels then waits on the client's frames only, and the
    # seat pushes come through the node's channel (`play.seat_push`).
    channel_layer_alias = None
    group = ""
    table_id: int | None = None  # the table the socket looks at (held by its node)
    # The last view sent, as its text's hash (a view is never sent twice in a row): a
    # phone's socket keeps a number, not a copy of its view, for as long as it is open.
    # Two different views of one hash (a chance in 2**64) would leave the second unsent
    # until the table's next change.
    last_sent: int | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' own loop (`AsyncConsumer.__call__`) for a consumer with no channel
        of its own, without the task and the wait Channels keeps for each socket to take
        the client's frames (`await_many_dispatch`): a frame is awaited here and
        dispatched, one at a time, as Channels does. A socket costs its node less memory
        (docs/performance.md, "Less held a phone")."""
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A client's frame goes straight to `receive`. Channels first closes the old
        database connections of its sync thread, a hop to that thread on every message:
        what a frame asks of the database runs on the node's own threads
        (`play.node_io.run`), which keep theirs. Every other message goes as Channels
        sends it."""
        if message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def refuse(self) -> None:
        """Accepted and closed at once with 4404: a refusal before `accept` reaches the
        client as a bare HTTP 403, which a phone cannot tell from a network fault."""
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)

    async def listen(
        self, group: str, table_id: int | None, view: Callable[[], Awaitable[dict[str, Any]]]
    ) -> None:
        """Accept the socket and send its first view: in its group before the view is
        read, so no change of seats falls in between (one that comes meanwhile is taken
        once the view is sent), and held at its table from the moment the view is sent,
        so no change there does either (`play.node.Node.join`). `view`: the view when
        the node sends none at the table. A failure leaves the group and the table."""
        here = node.node()
        await here.pushes.join(group, self)
        self.group = group
        try:
            await self.accept()
            # The handshake's headers are read before this (the language, the session's
            # cookie, the origin) and never again: not kept for as long as the socket is.
            headers = self.scope.get("headers")
            if isinstance(headers, list):
                headers.clear()
            self.table_id = table_id
            if table_id is None or not await here.join(table_id, self):
                await self.deliver(push.view_text(await view()))
        except BaseException:
            await self.disconnect(None)
            raise
        here.pushes.ready(self)

    async def disconnect(self, code: int | None) -> None:
        """Out of the group first (a change of seats it is following finished), then off
        its table: it is sent nothing more."""
        here = node.node()
        if self.group:
            await here.pushes.leave(self.group, self)
        await here.leave(self.table_id, self)

    async def deliver(self, text: str) -> None:
        """A view from the table's node (`play.node`), unless it is the one this socket
        was sent last."""
        sent = hash(text)
        if sent != self.last_sent:
            self.last_sent = sent
            await self.send(text_data=text)

    async def seats_pushed(self, event: dict[str, Any]) -> None:
        """A change of seats (`play.push.seats_changed`), handed on by the node
        (`play.seat_push`): `text`, the socket's message serialized once by the push, and
        `table`, where a player sits now; or `again`, after the node's channel failed
        (a push may have been lost): the view read again."""
        raise NotImplementedError

    async def send_error(self, code: str, message: str) -> None:
        answer = {"type": "error", "code": code, "message": str(message)}
        await self.send(text_data=json.dumps(answer))

    # What a client sends ---------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A client's message, answered in the socket's language (`language`): its codes
        are English whatever the language."""
        with translation.override(self.language):
            await self.answer(text_data)

    async def answer(self, text_data: str | None) -> None:
        if text_data is None or len(text_data) > MAX_MESSAGE:
            words = gettext("Send a JSON object of under 1 KiB as text.")
            await self.send_error("bad_message", words)
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_message", gettext("That message is not JSON."))
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.pinged()
            await self.send(text_data=json.dumps({"type": "pong"}))
            return
        if kind == "move" and await self.moved(message):
            return
        await self.send_error("unknown_type", str(self.takes))

    #: The language of the socket's words: its page's (`common.languages.of_socket`).
    language = settings.LANGUAGE_CODE
    #: What the socket takes, said to a client that sends anything else.
    takes = gettext_lazy('The socket takes only {"type": "ping"}.')

    async def pinged(self) -> None:
        """A ping from the client: a seat's phone marks its player present."""

    async def moved(self, message: dict[str, Any]) -> bool:
        """A move from the client; whether this socket takes moves."""
        return False


def watch_read(table_id: int, user: Any = None) -> dict[str, Any]:
    """The watcher's view on connect; `Table.DoesNotExist` for
    an unknown table, and for a table `user` may not watch: one of a session they may
    not see, or of a duplicate sitting, whose cards on the table another table may not
    have played yet (play.duplicate), unless they direct its club."""
    table = Table.objects.select_related("sitting__session").get(pk=table_id)
    session = table.sitting.session
    may_see = can_view_session(as_actor(user), session)
    if not may_see or (table.sitting.duplicate and not can_direct(user, session.club_id)):
        raise Table.DoesNotExist("No such table.")
    return selectors.watch_view(table_id)


class PlayConsumer(_LiveConsumer):
    """One player's phone: the seat's own view, sent after every change, and the
    player's moves, taken here (`play.node`)."""

    token = ""
    player_id: int | None = None
    takes = gettext_lazy('The socket takes {"type": "ping"} and {"type": "move", "move": k, ...}.')

    async def connect(self) -> None:
        self.token = str(self.scope["url_route"]["kwargs"]["seat_token"])
        try:
            place = await node_io.run(services.seat_place, self.token)
        except UserError:
            await self.refuse()
            return
        self.player_id = place.player_id
        self.language = languages.of_socket(self.scope, place.language)
        await self.listen(f"play.{self.token}", place.table_id, self.read)

    async def read(self) -> dict[str, Any]:
        view: dict[str, Any] = await node_io.run(services.seat_read, self.token)
        return view

    async def seats_pushed(self, event: dict[str, Any]) -> None:
        """The player's seats changed (`play.push.seats_changed`): their view, and the
        socket follows them to the table they sit at now. The table's own changes go by
        its channel, which the socket may join only now: its view is then read again
        and sent when it has moved on. `again` (the node's channel failed, and a push
        may have been lost): the player's place read again, and followed as well."""
        if event.get("again"):
            try:
                place = await node_io.run(services.seat_place, self.token)
            except UserError:
                return  # the seat link is gone: nothing to follow
            event = {"text": push.view_text(await self.read()), "table": place.table_id}
        self.last_sent = hash(event["text"])
        await self.send(text_data=event["text"])
        here = node.node()
        table_id = event.get("table")
        here.mark_stale(self.table_id)
        if table_id != self.table_id:
            await here.leave(self.table_id, self)
            self.table_id = table_id
        if table_id is not None:
            # Joined again: its view read again and sent, unless it is the one just sent.
            here.mark_stale(table_id)
            await here.join(table_id, self)

    async def pinged(self) -> None:
        await node.node().seen(self.table_id, self.token)

    async def moved(self, message: dict[str, Any]) -> bool:
        """A move, as `POST /api/play/{seat_token}/moves/` takes it, taken by the node
        (`play.node.Node.move`). Taken, the table's phones get their views, this one
        among them; sent twice, this socket gets its view now. Refused:
        `{"type": "refused"}` on this socket only, with the view for a conflict
        (`stale_move`, `not_your_turn`, `no_game`)."""
        try:
            move, action = services.move_body(message)
        except UserError as refused:
            await self.send_refused(refused.code, refused.message)
            return True
        if self.table_id is None:
            view = await node_io.run(services.seat_read, self.token)
            await self.send_refused("no_game", str(services.NO_GAME), view)
            return True
        try:
            answer = await node.node().move(self, self.table_id, move, action)
        except DatabaseError:
            # Lost twice (`play.node`): said on this socket, which stays open; the node
            # reads the table again, and the next view shows whether the move was taken.
            logger.warning("seat %s: a move met a database error", self.player_id, exc_info=True)
            await self.send_refused("database_unavailable", str(UNAVAILABLE))
            return True
        if answer.again and answer.view is not None:
            await self.send(text_data=push.view_text(answer.view))
        elif answer.code is not None:
            await self.send_refused(answer.code, answer.message, answer.view)
        return True

    async def send_refused(
        self, code: str, message: str, view: dict[str, Any] | None = None
    ) -> None:
        answer: dict[str, Any] = {"type": "refused", "code": code, "message": str(message)}
        if view is not None:
            answer["view"] = view
        await self.send(text_data=json.dumps(answer))


class WatchConsumer(_LiveConsumer):
    """A watcher of one table (the projector, a director): never a hand."""

    player_id = None
    token = ""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            user = self.scope.get("user")
            view: dict[str, Any] = await database_sync_to_async(watch_read)(self.table_id, user)
        except ObjectDoesNotExist:
            self.table_id = None
            await self.refuse()
            return

        async def first() -> dict[str, Any]:
            return view

        await self.listen(f"watch.{self.table_id}", self.table_id, first)

    async def seats_pushed(self, event: dict[str, Any]) -> None:
        """The table's seats changed (`play.push.seats_changed`): its view, then the
        table's view read again (a change on the table's channel may have come first).
        `again` (the node's channel failed): the table's view read again only."""
        if not event.get("again"):
            self.last_sent = hash(event["text"])
            await self.send(text_data=event["text"])
        if self.table_id is not None:
            here = node.node()
            here.mark_stale(self.table_id)
            await here.join(self.table_id, self)
