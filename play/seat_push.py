"""A node's one channel of the channel layer, on which the pushes of a change of seats
reach its sockets (docs/architecture.md, "Seats changed").

`play.push.seats_changed` sends each affected player's view to the group `play.<token>`
and each affected table's watchers' view to the group `watch.<table id>`. A socket has
no channel of its own: its node (`play.node.Node`, one event loop) takes one channel
from the channel layer when a socket first needs it, and one task reads it. A socket
that joins adds its group to the node's channel, once for all the node's sockets of
that group: the first adds it, the last to leave discards it. A message does not say
which group it came through, so the push names it (`group`), and the node hands it to
its sockets in that group.

Each socket takes its messages in the order they came, one at a time, in a task of its
own while it has some (`Member.seats_pushed`: a player's socket follows its player to
their new table, and its join there reads the table): the reader never waits for one
socket. A socket is in its group before its first view is read (`join`), and the
messages that come before that view is sent wait for it (`ready`), so no change of
seats falls in between. A socket that left is sent nothing more (`leave` waits for the
message it is on). A node's channel that fails (Redis gone) is read again after a
moment, its groups added again, and each of its sockets reads its place again (the
pushes sent meanwhile are lost).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from play import push

logger = logging.getLogger(__name__)

#: How long the reader waits after its channel failed before it reads it again.
RETRY_SECONDS = 0.5
#: The message each socket is handed after the channel failed: read your place again.
AGAIN: dict[str, Any] = {"type": "play.view", "again": True}


class Member(Protocol):
    """A socket in a group: a player's or a watcher's."""

    async def seats_pushed(self, event: dict[str, Any]) -> None: ...


@dataclass(slots=True)
class Group:
    """One group the node's channel is in, and the node's sockets in it. The lock keeps
    its add and its discard in order; `added` says the layer has the channel in it."""

    sockets: set[Any] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    added: bool = False


@dataclass(slots=True)
class Inbox:
    """A socket's messages not taken yet; `open` once its first view is sent; the task
    taking them, while there are some."""

    events: list[dict[str, Any]] = field(default_factory=list)
    open: bool = False
    task: asyncio.Task[None] | None = None


class SeatPushes:
    """The seat pushes of one node (the module's docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.layer: Any = None
        self.channel: str | None = None
        self.groups: dict[str, Group] = {}
        # Only the sockets with a message waiting, or still connecting: none at rest.
        self.inboxes: dict[Any, Inbox] = {}
        self._reader: asyncio.Task[None] | None = None

    async def join(self, name: str, socket: Member) -> None:
        """The socket hears its group from now: its messages wait until `ready`. Once
        this returns, every push to the group reaches it. A channel layer that fails
        here fails the join (the socket is not in the group)."""
        if not await self._open():
            return
        self.inboxes[socket] = Inbox()
        group = self.groups.get(name)
        if group is None:
            group = self.groups[name] = Group()
        group.sockets.add(socket)  # handed the group's messages from now
        try:
            async with group.lock:
                if not group.added:
                    await self.layer.group_add(name, self.channel)
                    group.added = True
        except BaseException:
            group.sockets.discard(socket)
            self.inboxes.pop(socket, None)
            if not group.sockets and not group.added and self.groups.get(name) is group:
                del self.groups[name]
            raise

    def ready(self, socket: Member) -> None:
        """The socket's first view is sent: the messages that came meanwhile go now."""
        inbox = self.inboxes.get(socket)
        if inbox is None or inbox.open:
            return
        inbox.open = True
        if inbox.events:
            inbox.task = self.loop.create_task(self._take(socket, inbox))
        else:
            del self.inboxes[socket]

    async def leave(self, name: str, socket: Member) -> None:
        """The socket is sent nothing more once this returns (the message it is on is
        finished first); the last of the group's sockets here discards the group."""
        group = self.groups.get(name)
        if group is not None:
            group.sockets.discard(socket)
        inbox = self.inboxes.pop(socket, None)
        if inbox is not None:
            inbox.events.clear()
            task = inbox.task
            if task is not None and task is not asyncio.current_task():
                await asyncio.wait([task])
        if group is None or group.sockets:
            return
        async with group.lock:
            if group.added and not group.sockets:
                group.added = False
                try:
                    await self.layer.group_discard(name, self.channel)
                except Exception as exc:  # its entry expires with the group
                    logger.warning("%s: leaving the group failed: %r", name, exc)
        if not group.sockets and self.groups.get(name) is group:
            del self.groups[name]

    async def _open(self) -> bool:
        """The node's channel and its reader, made on first need; False without a channel
        layer (the phones that poll read the same views)."""
        if self.channel is None:
            layer = push.channel_layer()
            if layer is None:
                return False
            name = await layer.new_channel()
            if self.channel is None:
                self.layer, self.channel = layer, name
        if self._reader is None or self._reader.done():
            self._reader = self.loop.create_task(self._read())
        return True

    async def _read(self) -> None:
        """The node's one reader of its channel, for the life of its loop."""
        while True:
            try:
                event = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("the node's channel failed; joining its groups again", exc_info=True)
                await asyncio.sleep(RETRY_SECONDS)
                try:
                    await self._add_again()
                except Exception:
                    continue  # still down: the next receive fails as well
                for group in list(self.groups.values()):
                    for socket in list(group.sockets):
                        self._hand(socket, AGAIN)
                continue
            try:
                members = self.groups.get(event.get("group", ""))
                for socket in list(members.sockets if members is not None else ()):
                    self._hand(socket, event)
            except Exception:  # the reader lives on: it is every socket's
                logger.exception("a message of the node's channel was not handed on")

    async def _add_again(self) -> None:
        for name, group in list(self.groups.items()):
            async with group.lock:
                if group.added:
                    await self.layer.group_add(name, self.channel)

    def _hand(self, socket: Member, event: dict[str, Any]) -> None:
        inbox = self.inboxes.get(socket)
        if inbox is None:
            inbox = self.inboxes[socket] = Inbox(open=True)
        inbox.events.append(event)
        if inbox.open and inbox.task is None:
            inbox.task = self.loop.create_task(self._take(socket, inbox))

    async def _take(self, socket: Member, inbox: Inbox) -> None:
        """The socket's messages, in order, one at a time."""
        try:
            while inbox.events:
                event = inbox.events.pop(0)
                try:
                    await socket.seats_pushed(event)
                except Exception:
                    logger.warning("a seat push was not taken by its socket", exc_info=True)
        finally:
            inbox.task = None
            if self.inboxes.get(socket) is inbox:
                del self.inboxes[socket]
