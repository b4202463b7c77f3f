"""The online tables a server process holds, and a move taken on a socket
(docs/architecture.md, "A move's path").

A node is one server process's event loop. It holds each table some of its sockets
look at (`Held`): the table's state read once (`selectors.table_state`: its game, the
round being played as the engine's object, who sits where, their links), and the
sockets themselves. A move that arrives on a player's socket is taken here, where the
socket is, with no request and no look-up: the socket knows its seat. Under the table's
lock in this node, the move is checked against the state held (the state number, whose
turn, the rules: the engine's), written in one statement (`play.moves`), published
once (`play.bus`), and every socket of this node at the table sent its own view, from
the state held. Each other node holding the table hears the publish and applies the
same move to the round it holds: one publish a move, however many phones.

What the node holds is a copy: the row is the truth. A write elsewhere (the deal, the
robots, a round stored, by the scheduler; a move over HTTP; the movement) publishes its
views with `views`, or `stale` for a change of seats, and the node reads the table again
before its next move there. A move made on a copy that was behind (a publish not heard
yet) finds the row at another state number and changes nothing: it is answered as
stale, with the view read again. Nothing the node holds is ever shown but through the
engine's views (a hand is a secret until its round ends).

The robot players' moves that follow a move are taken here too, each as a person's.
The round's end, a robot covering an absent player and the clocks are not a move's: the
move plans the table's deadline and asks a scheduler to look now (`play.scheduler.poke`:
this process's; or the scheduler processes of a deployment, on Redis, in the move's
publish's round trip: `Links.take`). The sockets here
are sent each state of the round once (`Held.sent`), whichever way it reached this node.

A change of seats reaches the node's sockets on the node's one channel of the channel
layer (`pushes`, `play.seat_push`); a socket has none of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from django.db import DatabaseError
from django.utils import timezone

from engine.online import MoveRefused
from play import bus, node_io, push, scheduler, seat_push, taking
from play.node_io import run
from play.phases import AT_ONCE, Phase, TablePhase, TableState, state_from
from play.selectors import mark_of, view_facts
from play.services import NO_GAME, STALE
from play.taking import Answer, check, later, mark_from, past, read_table, rewind, view_of
from scoring import engine_words

logger = logging.getLogger(__name__)


class Socket(Protocol):
    """A socket of the node at a table: a player's (`player_id` and `token`) or a
    watcher's (`player_id` None)."""

    player_id: int | None
    token: str

    async def deliver(self, text: str) -> None: ...


@dataclass
class Held:
    """A table this node holds: its state (None until read, or read again when
    `stale`) and its sockets here."""

    table_id: int
    sockets: set[Any] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    state: TableState | None = None
    stale: bool = True
    inbox: list[dict[str, Any]] = field(default_factory=list)
    draining: bool = False
    # Set once Redis has confirmed the table's subscription (at once without Redis): a
    # read before it could miss a change published in between, and hold it for good.
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    # The state of the live round last sent to the table's sockets here (`mark_of`): a
    # state heard twice (a deal's views, then a late move whose read already held it)
    # or one already passed is not sent again.
    sent: tuple[int, int] | None = None

    def passed(self, mark: tuple[int, int] | None) -> bool:
        """Whether the sockets here were sent this state of the round, or a later one."""
        sent = self.sent
        return mark is not None and sent is not None and sent[0] == mark[0] and mark[1] <= sent[1]


#: The most robot moves a move on the socket is followed by here (a trick's worth and
#: more: the rest is the scheduler's).
ROBOT_MOVES = 16
#: How long a socket's join waits for Redis to confirm its table's subscription.
SUBSCRIBE_SECONDS = 5


class Node:
    """The tables one event loop's sockets look at (the module's docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        # The node's name in the moves it publishes: hearing its own, it has sent their
        # views already and skips them unread.
        self.name = f"{os.getpid()}.{id(loop)}"
        self._own = '{"kind":"move","node":' + json.dumps(self.name) + ","
        self._own_bytes = self._own.encode()
        self.tables: dict[int, Held] = {}
        # The connections of its moves' I/O on this loop (`play.node_io`).
        self.links = node_io.Links()
        # The node's one channel of the channel layer, for its sockets' seat pushes.
        self.pushes = seat_push.SeatPushes(loop)
        self.url = bus.redis_url()
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        # One subscription change at a time: the pub/sub object opens its connection on
        # the first, and two at once would each open one, leaving one unread.
        self._subscribing = asyncio.Lock()
        if self.url is None:
            bus.listen(loop, self.heard)

    # Sockets come and go --------------------------------------------------------------

    async def join(self, table_id: int, socket: Any) -> bool:
        """An accepted socket looks at the table: held from now, heard from its channel,
        and sent its view of the table as held (read first when stale). The view is sent
        under the table's lock, so every change heard after it comes after it. Whether a
        view was sent (not when the player does not sit there)."""
        held = self.tables.get(table_id)
        if held is None:
            held = self.tables[table_id] = Held(table_id)
            await self._subscribe(held)
        try:
            await asyncio.wait_for(held.subscribed.wait(), SUBSCRIBE_SECONDS)
        except TimeoutError:
            logger.warning("table %s: Redis did not confirm the subscription", table_id)
        async with held.lock:
            state = held.state
            if (
                state is not None
                and socket.player_id is not None
                and all(s.player_id != socket.player_id for s in state.seated)
            ):
                held.stale = True  # seated there since it was read
            held.sockets.add(socket)
            state = await self._fresh(held)
            if state is not None and socket.player_id is not None:
                state.seen = {**state.seen, socket.token: timezone.now()}  # its connect
            view = view_of(state, socket) if state is not None else None
            if view is not None:
                await _deliver(socket, push.view_text(view))
            return view is not None

    async def leave(self, table_id: int | None, socket: Any) -> None:
        held = self.tables.get(table_id) if table_id is not None else None
        if held is None:
            return
        held.sockets.discard(socket)
        if not held.sockets:
            del self.tables[table_id]  # type: ignore[arg-type]
            await self._unsubscribe(table_id)  # type: ignore[arg-type]
            if not self.tables:
                await self.links.close()

    async def seen(self, table_id: int | None, token: str) -> None:
        """A socket's heartbeat: its player seen now, in the copy held here too."""
        now = timezone.now()
        held = self.tables.get(table_id) if table_id is not None else None
        if held is not None and held.state is not None:
            held.state.seen = {**held.state.seen, token: now}
        await self.links.seen(token, now)

    def mark_stale(self, table_id: int | None) -> None:
        held = self.tables.get(table_id) if table_id is not None else None
        if held is not None:
            held.stale = True

    async def _fresh(self, held: Held) -> TableState | None:
        """The held state, read again when stale (under the table's lock)."""
        if held.stale or held.state is None:
            held.state = await run(read_table, held.table_id)
            held.stale = False
        return held.state

    # A move ------------------------------------------------------------------------

    async def move(
        self, socket: Any, table_id: int, move: Any, action: Mapping[str, Any]
    ) -> Answer:
        """The move `action` of the socket's player, made in state `move` (the module's
        docstring). The views go to the table's sockets; the answer says what else the
        mover's socket is told."""
        held = self.tables.get(table_id)
        if held is None:
            return Answer("no_game", str(NO_GAME))
        async with held.lock:
            state = await self._fresh(held)
            answer, name = check(state, socket, move, action)
            if answer is not None:
                return answer
            assert state is not None
            assert state.live is not None
            assert state.round is not None
            live, rnd = state.live, state.round
            try:
                rnd.apply(name, dict(action))
            except MoveRefused as refused:
                return Answer(
                    refused.code, engine_words.move_message(refused.code, refused.message)
                )
            now = timezone.now()
            entry = {
                "move": live.move,
                "player": name,
                "action": dict(action),
                "robot": False,
                "reason": None,
                "at": now.isoformat(),
            }
            try:
                written, phase = await self.links.take(
                    state, socket.token, socket.player_id, entry, now, **self._after(held)
                )
            except Exception:
                held.stale = True
                raise
            if not written:
                held.stale = True
                state = await self._fresh(held)
                view = view_of(state, socket) if state is not None else None
                return Answer("stale_move", str(STALE), view)
            phase = await self._robots(held, phase)
        if phase.phase in AT_ONCE and not (node_io.on_loop() and scheduler.asked_with_move(phase)):
            scheduler.poke()  # not asked with the move's publish
        return Answer()

    async def _robots(self, held: Held, phase: TablePhase) -> TablePhase:
        """The robot players' moves that follow a move, taken here as a player's move is
        (the engine's choice for the robot, one write, one publish each), while a robot
        player is to act; the table's phase after them. A robot covering an absent
        player, or a move clock run out, stays the scheduler's (the cover is marked on
        the player's link): so does a robot's move this node could not write."""
        for _ in range(ROBOT_MOVES):
            state = held.state
            if (
                state is None
                or state.live is None
                or state.round is None
                or phase.phase != Phase.ROBOT_DUE
                or phase.reason != "robot"
                or phase.to_act is None
            ):
                break
            who = phase.to_act
            player_id = state.player_of(who)
            if player_id is None:
                break
            live, rnd = state.live, state.round
            action = dict(rnd.robot_move(who))
            try:
                rnd.apply(who, action)
            except MoveRefused:
                held.stale = True
                break
            now = timezone.now()
            entry = {
                "move": live.move,
                "player": who,
                "action": action,
                "robot": True,
                "reason": "robot",
                "at": now.isoformat(),
            }
            try:
                written, after = await self.links.take(
                    state, None, player_id, entry, now, **self._after(held)
                )
            except DatabaseError:
                held.stale = True
                logger.warning("table %s: a robot's move was not written", held.table_id)
                break
            if not written:
                held.stale = True
                break
            phase = after
        return phase

    def _after(self, held: Held) -> dict[str, Any]:
        """What `Links.take` is given for a move at the table: this node's name, its
        sockets' views to send once the move is written, and whether the phase the move
        leaves asks the schedulers to look now with its publish
        (`play.scheduler.asked_with_move`)."""
        return {
            "origin": self.name,
            "show": lambda: self._send_all(held),
            "wakes": scheduler.asked_with_move,
        }

    # What the table's channel says -----------------------------------------------------

    def heard(self, table_id: int, text: str | bytes) -> None:
        """A message on a table's channel (`play.bus`; bytes from Redis): kept in the
        table's inbox, read in order under its lock; this node's own moves skipped."""
        held = self.tables.get(table_id)
        if held is None:
            return
        if (
            text.startswith(self._own)
            if isinstance(text, str)
            else text.startswith(self._own_bytes)
        ):
            return
        try:
            held.inbox.append(bus.read(text))
        except ValueError:
            return
        if not held.draining:
            held.draining = True
            self.loop.create_task(self._drain(held))

    async def _drain(self, held: Held) -> None:
        try:
            while held.inbox:
                message = held.inbox.pop(0)
                async with held.lock:
                    try:
                        await self._apply(held, message)
                    except Exception:
                        held.stale = True
                        logger.exception("table %s: a message was not applied", held.table_id)
        finally:
            held.draining = False

    async def _apply(self, held: Held, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "stale":
            held.stale = True
            return
        if kind == "views":
            # The copy held was current before this change: the change's own state,
            # when it came with it and is later than the copy, replaces it. Otherwise
            # (the copy was behind already, or the state did not come) the rows are read
            # before the next move here.
            current = not held.stale and held.state is not None
            held.stale = True
            mark = mark_from(message.get("mark"))
            if held.passed(mark):
                return
            held.sent = mark or held.sent
            views, watch = message.get("views", {}), message.get("watch")
            for socket in list(held.sockets):
                text = watch if socket.player_id is None else views.get(socket.token)
                if text is not None:
                    await _deliver(socket, text)
            table = message.get("table")
            if current and isinstance(table, str) and later(mark, held.state):
                adopted = state_from(table, held.table_id)
                if adopted is not None and mark_of(adopted) == mark:
                    held.state, held.stale = taking.lean(adopted), False
            return
        if kind != "move":
            return
        state = held.state
        live = state.live if state is not None else None
        if held.stale or state is None or live is None or state.round is None:
            pass  # read below: the row has the move
        elif live.move > message["move"]:
            return  # this node's own move, or one already read from the row
        elif live.move == message["move"]:
            try:
                state.round.apply(message["player"], message["action"])
            except MoveRefused:
                held.stale = True
            else:
                at = datetime.fromtimestamp(message["at"], tz=timezone.get_current_timezone())
                live.move += 1
                live.turn_started_at = at
                live.history = [*live.history, message["entry"]]
                state.now = at
                state.seen = {
                    token: datetime.fromtimestamp(stamp, tz=timezone.get_current_timezone())
                    for token, stamp in message.get("seen", {}).items()
                }
        else:
            held.stale = True
        state = await self._fresh(held)
        if state is not None:
            # Set back on a database thread: across a round's end it reads a row.
            set_back = past(state, message) and await run(rewind, state, message)
            await self._send_all(held)
            # Behind the row now (its later states were sent, or are on their way, by
            # the change that made them): read again before a move is checked on it.
            held.stale = held.stale or set_back

    async def _send_all(self, held: Held) -> None:
        """Every socket of this node at the table, its own view of the held state."""
        state = held.state
        if state is None:
            return
        mark = mark_of(state)
        if held.passed(mark):
            return
        held.sent = mark or held.sent
        watch_text: str | None = None
        facts = view_facts(state)
        for socket in list(held.sockets):
            if socket.player_id is None:
                if watch_text is None:
                    view = view_of(state, socket, facts)
                    watch_text = push.view_text(view) if view is not None else ""
                if watch_text:
                    await _deliver(socket, watch_text)
                continue
            view = view_of(state, socket, facts)
            if view is not None:
                await _deliver(socket, push.view_text(view))

    # The table's channel on Redis ------------------------------------------------------

    async def _subscribe(self, held: Held) -> None:
        """The table's channel subscribed; `held.subscribed` is set when Redis confirms
        it (the reader sees the confirmation)."""
        if self.url is None:
            held.subscribed.set()
            return
        async with self._subscribing:
            if self._pubsub is None:
                import redis.asyncio

                client = redis.asyncio.Redis.from_url(self.url)
                self._pubsub = client.pubsub()
            await self._pubsub.subscribe(bus.channel(held.table_id))
            if self._reader is None or self._reader.done():
                self._reader = self.loop.create_task(self._read())

    async def _unsubscribe(self, table_id: int) -> None:
        if self._pubsub is not None:
            async with self._subscribing:
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(bus.channel(table_id))

    async def _read(self) -> None:
        """The node's one reader of its tables' channels."""
        pubsub = self._pubsub
        while self.tables:
            try:
                message = await pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("the node's subscription failed; subscribing again", exc_info=True)
                await asyncio.sleep(0.5)
                for held in self.tables.values():
                    held.stale = True
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(*(bus.channel(t) for t in self.tables))
                continue
            if message is None:
                continue
            table_id = bus.table_of(message["channel"])
            if message.get("type") == "subscribe":
                confirmed = self.tables.get(table_id)
                if confirmed is not None:
                    confirmed.subscribed.set()
            elif message.get("type") == "message":
                try:
                    self.heard(table_id, message["data"])
                except Exception:  # the reader lives on: it is every table's
                    logger.exception("table %s: a message was not heard", table_id)


async def _deliver(socket: Any, text: str) -> None:
    with contextlib.suppress(Exception):
        await socket.deliver(text)


_nodes: dict[asyncio.AbstractEventLoop, Node] = {}


def node() -> Node:
    """This event loop's node (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _nodes.get(loop)
    if found is None:
        for gone in [old for old in _nodes if old.is_closed()]:
            del _nodes[gone]
        found = _nodes[loop] = Node(loop)
    return found
