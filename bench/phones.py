"""The phones of the online play bench (bench/play.py, driven by bench/crowd.py): each a
player's WebSocket to an ASGI node, reading the views pushed to it and checking them
(lost, duplicated, out of order), and sending its moves as soon as its view says it is
its turn, on the socket itself or through gunicorn; the bare echo socket of each table;
what the phones of one table share, and the tally of a client process's phones."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

#: The refusals of a move that are not a fault of the bench: the table moved on, or the
#: turn passed, between the view the move was chosen in and the move reaching the server.
CONFLICTS = ("stale_move", "not_your_turn")


class Http:
    """A small HTTP/1.1 client for JSON posts: a connection per request, as gunicorn's
    sync workers close every connection after their answer."""

    def __init__(self, port: int) -> None:
        self.port = port  # the HTTP node's

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            data = json.dumps(body).encode()
            writer.write(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                + data
            )
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        head, _, payload = raw.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        return status, json.loads(payload or b"null")


def move_body(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal move of the view, chosen at random; a draw's discards picked from the
    hand."""
    choice = rng.choice(view["legal"])
    body: dict[str, Any] = (
        {"action": "play", "card": choice} if isinstance(choice, str) else dict(choice)
    )
    if "min_discard" in body:  # a draw that names its discards: pick them
        low, high = body.pop("min_discard"), body.pop("max_discard")
        body["discard"] = rng.sample(view["hand"], rng.randint(low, high))
    body["move"] = view["move"]
    return body


def key(view: dict[str, Any]) -> tuple[int, int, int]:
    """A view's place in its table's play: (game, round, move)."""
    return (view.get("game") or 0, view.get("round") or 0, view.get("move") or 0)


@dataclass
class Tally:
    """What a client process's phones measured and found; the processes' tallies are
    merged (`merge`) into the run's."""

    statuses: Counter[str] = field(default_factory=Counter)
    # s, a card to another phone of the table, and whether that phone's node is the mover's
    delivery: list[tuple[float, bool]] = field(default_factory=list)
    robots: list[float] = field(default_factory=list)  # s, a card to the robots' answers
    echo: list[float] = field(default_factory=list)  # s, a bare echo's round trip
    # s, the floor (bench/floor.py): a write, then to a socket on the same node or the other
    floor: list[float] = field(default_factory=list)
    floor_cross: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)  # s, a move to its answer
    lag: list[float] = field(default_factory=list)  # s, the client's loop late to wake
    last_answer: float = 0.0  # perf_counter of the last move taken
    duplicated: list[str] = field(default_factory=list)
    out_of_order: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    moves: int = 0

    def merge(self, other: dict[str, Any]) -> None:
        """Add another process's tally, as its JSON gives it."""
        self.statuses.update(other["statuses"])
        self.delivery += [(seconds, same) for seconds, same in other["delivery"]]
        for name in (
            *("robots", "echo", "floor", "floor_cross", "answered", "lag"),
            *("duplicated", "out_of_order", "lost"),
        ):
            getattr(self, name).extend(other[name])
        for name in ("server_errors", "refused", "failures"):
            getattr(self, name).extend(other[name])
        self.last_answer = max(self.last_answer, other["last_answer"])
        self.moves += other["moves"]


class Table:
    """What the phones of one table share: when each move was sent and by whom, which
    views each phone received, each phone's node, and the newest view any of them has
    received (the table's echo socket sends once after each)."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int, int], tuple[float, str]] = {}  # view made -> sent
        self.seen: dict[str, dict[tuple[int, int, int], float]] = {}  # phone -> view -> at
        self.nodes: dict[str, int] = {}  # phone -> the node its socket is on
        self.ended: set[tuple[int, int]] = set()  # the rounds seen over: (game, round)
        self.newest: tuple[int, int, int] = (0, 0, 0)
        self.changed = asyncio.Event()
        self.changed_at = time.perf_counter()  # when `newest` last moved on
        self.over = False  # the play has ended: the echo socket stops

    def finished(self, rounds: int) -> bool:
        return len(self.ended) >= rounds

    def received(self, at: tuple[int, int, int], view: dict[str, Any]) -> None:
        """A view one of the table's phones received: a round is over when a view shows
        its last card played (the scheduler stores it and deals the next just after) or
        a later round (not the first deal, which a phone connected before it waits
        for)."""
        if view.get("phase") in ("end", "done") and at[1]:
            self.ended.add(at[:2])
        elif self.newest[1] and at[:2] > self.newest[:2]:  # not the wait for the first deal
            self.ended.add(self.newest[:2])
        if at > self.newest:
            self.newest = at
            self.changed_at = time.perf_counter()
            self.changed.set()

    def deliveries(self, tally: Tally) -> None:
        """Each move's delivery to each other phone of the table: from its sending to the
        first view that phone received with a key at least the made view's. A made view
        the phone never received is lost, even if a later one reached it."""
        for made, (at, mover) in self.sent.items():
            for name, seen in self.seen.items():
                if name == mover:
                    continue
                if made not in seen:
                    before = max((k for k in seen if k < made), default=None)
                    after = min((k for k in seen if k > made), default=None)
                    tally.lost.append(
                        f"{name} never received the view of move {made} (it had {before}, "
                        f"then {after}; same node as the mover: "
                        f"{self.nodes[name] == self.nodes[mover]})"
                    )
                    continue
                first = min(t for k, t in seen.items() if k >= made)
                tally.delivery.append((first - at, self.nodes[name] == self.nodes[mover]))


#: With the floor timed, one of a table's round trips in this many is the floor's.
FLOOR_SHARE = 4
#: The floor's sockets that hear each of its messages, on each node: a card's other phones.
FLOOR_FAN = 3


class Echo:
    """A table's bare echo socket (`/ws/bench/echo/`, bench/asgi.py: no database, no
    channel layer), on the same nodes as the phones and under the same load: once after
    each new view its table's phones receive, it sends a short message and times its
    round trip. One round trip at a time: the views that arrive meanwhile are answered
    by one more. With `floor` (the table's id, and the other node's port or None), one
    round trip in `FLOOR_SHARE` is the floor's (bench/floor.py): a message written and
    sent to `FLOOR_FAN` sockets of the table on the same node, or through Redis to as
    many on the other, each timed as it arrives (each in a task of its own, as a phone
    reads its socket)."""

    def __init__(
        self, port: int, table: Table, tally: Tally, floor: tuple[int, int | None] | None = None
    ) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/bench/echo/"
        self.port = port
        self.table = table
        self.tally = tally
        self.floor = floor
        self.ws: Any = None
        self.sender: Any = None  # the floor's socket that sends, on this node
        self.hearers: dict[str, list[Any]] = {}  # same, cross: the sockets that hear it
        self.sent_at = 0.0
        self.heard = 0
        self.all_heard = asyncio.Event()

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(self.url, open_timeout=120)
        if self.floor is None:
            return
        table, other = self.floor
        url = f"ws://127.0.0.1:{{}}/ws/bench/floor/?table={table}"
        self.sender = await websockets.connect(url.format(self.port), open_timeout=120)
        for kind, port in (("same", self.port), ("cross", other)):
            if port is not None:
                self.hearers[kind] = [
                    await websockets.connect(url.format(port) + "&hear=1", open_timeout=120)
                    for _ in range(FLOOR_FAN)
                ]

    async def hear(self, kind: str, ws: Any) -> None:
        """A floor's socket: each message timed from its sending."""
        found = self.tally.floor if kind == "same" else self.tally.floor_cross
        async for _ in ws:
            found.append(time.perf_counter() - self.sent_at)
            self.heard += 1
            if self.heard == FLOOR_FAN:
                self.all_heard.set()

    async def trip(self, kind: str, n: int) -> None:
        """One round trip of `kind` (echo, same, cross), timed."""
        if kind == "echo":
            started = time.perf_counter()
            await self.ws.send(f"echo {n}")
            await self.ws.recv()
            self.tally.echo.append(time.perf_counter() - started)
            return
        self.heard = 0
        self.all_heard.clear()
        self.sent_at = time.perf_counter()
        await self.sender.send(f"{kind} {n}")
        async with asyncio.timeout(30):
            await self.all_heard.wait()

    async def run(self) -> None:
        # One trip in FLOOR_SHARE a floor's: its writes load the machine a little.
        kinds = [k for f in self.hearers for k in [*["echo"] * (FLOOR_SHARE - 1), f]] or ["echo"]
        hearing = [
            asyncio.create_task(self.hear(kind, ws))
            for kind, sockets in self.hearers.items()
            for ws in sockets
        ]
        n = 0
        try:
            while True:
                await self.table.changed.wait()
                self.table.changed.clear()
                if self.table.over:
                    return
                await self.trip(kinds[n % len(kinds)], n)
                n += 1
        except Exception as exc:  # counted, reported after the run
            self.tally.failures.append(f"echo: {exc!r}")
        finally:
            for ws in [self.ws, self.sender, *(ws for s in self.hearers.values() for ws in s)]:
                if ws is not None:
                    await ws.close()
            for ended in await asyncio.gather(*hearing, return_exceptions=True):
                if isinstance(ended, Exception):
                    self.tally.failures.append(f"floor: {ended!r}")


class Phone:
    def __init__(
        self,
        phone: dict[str, Any],
        port: int,
        table: Table,
        tally: Tally,
        *,
        rounds: int,
        think: float,
        http_port: int | None,
        door: asyncio.Semaphore,
    ) -> None:
        self.port = port  # its node's
        self.token = phone["token"]
        self.name = phone["name"]
        self.robot_table = phone["robot_table"]
        self.table = table
        self.tally = tally
        self.rounds = rounds
        self.think = think  # s, a player's mean thinking time before a move
        # Moves through gunicorn with --moves http, else on the socket.
        self.http = Http(http_port) if http_port is not None else None
        self.ws: Any = None
        self.rng = random.Random(self.token)
        self.last: tuple[int, int, int] | None = None
        self.pushed: set[tuple[int, int, int]] = set()  # the views pushed to this phone
        self.sending = False
        # A move sent on the socket and not answered yet: when, and the view it was made in
        self.pending: tuple[float, tuple[int, int, int]] | None = None
        self.waiting_since: float | None = None  # a robot table: my card sent, at
        self.door = door
        self.tasks: set[asyncio.Task[None]] = set()
        self.latest: tuple[tuple[int, int, int], dict[str, Any]] = ((0, 0, 0), {})
        self.played: tuple[int, int, int] = (-1, -1, -1)  # the view I last moved in
        table.nodes[self.name] = phone["node"]

    async def play(
        self, connected: asyncio.Event, everyone: asyncio.Event, leave: asyncio.Event
    ) -> None:
        import websockets

        url = f"ws://127.0.0.1:{self.port}/ws/play/{self.token}/"
        try:
            async with self.door:  # the phones arrive a few dozen at a time, as a room does
                self.ws = await websockets.connect(url, max_size=2**20, open_timeout=120)
                first = json.loads(await self.ws.recv())
        except Exception as exc:  # counted, reported after the run
            self.tally.failures.append(f"{self.name}: could not connect: {exc!r}")
            connected.set()
            return
        connected.set()
        try:
            await everyone.wait()
            self.receive(first["view"], initial=True)
            pinging = asyncio.get_running_loop().create_task(self.ping())
            try:
                await self.listen(leave)
            finally:
                pinging.cancel()
        finally:
            async with self.door:  # and leave a few dozen at a time, as they came
                await self.ws.close()

    async def ping(self) -> None:
        """Say "still here" as the seat page does, so the player is never taken for absent
        (a robot would play for them after the session's grace time)."""
        while True:
            await asyncio.sleep(15)
            await self.ws.send(json.dumps({"type": "ping"}))

    async def listen(self, leave: asyncio.Event) -> None:
        """Read what the server sends until the play ends everywhere: a phone whose table
        has played its rounds stays, present and not moving, as a player waits for the
        other tables (gone, a robot would play for them after the grace time, and the
        play's cost would count its moves). A message is awaited under `asyncio.timeout`,
        not `wait_for`, which on Python 3.11 wraps each wait in a task of its own: one more
        turn of the client's loop before each view is timed, which the echo's round trips
        do not take. It is read with orjson, as a phone reads its views on a CPU of its
        own: the clients share the servers' cores (docs/performance.md)."""
        heard = time.perf_counter()
        while not leave.is_set():
            try:
                async with asyncio.timeout(1):
                    message = orjson.loads(await self.ws.recv())
            except TimeoutError:
                if not self.table.finished(self.rounds) and time.perf_counter() - heard > 60:
                    self.tally.failures.append(f"{self.name}: no view for 60 s at {self.last}")
                    return
                continue
            heard = time.perf_counter()
            kind = message.get("type")
            if kind == "view":
                self.receive(message["view"])
            elif kind == "refused":
                self.refused(message)
            elif kind != "pong":
                self.tally.failures.append(f"{self.name}: {str(message)[:200]}")

    def receive(self, view: dict[str, Any], *, initial: bool = False) -> None:
        now = time.perf_counter()
        at = key(view)
        seen = self.table.seen.setdefault(self.name, {})
        if not initial:
            # A push of the state the phone read on connecting is not a duplicate: a
            # phone that connects while its table is being dealt reads the deal and then
            # gets its push. The same push twice is.
            if at in self.pushed:
                self.tally.duplicated.append(f"{self.name} {at}")
            elif self.last is not None and at < self.last:
                self.tally.out_of_order.append(f"{self.name} {at} after {self.last}")
            self.pushed.add(at)
        seen.setdefault(at, now)
        self.table.received(at, view)
        if self.last is None or at > self.last:
            self.last = at
        if self.pending is not None and at > self.pending[1]:
            self.taken(at, now)
        mine = view.get("to_act") == self.name and bool(view.get("legal"))
        if self.waiting_since is not None and (mine or self.table.finished(self.rounds)):
            self.tally.robots.append(now - self.waiting_since)
            self.waiting_since = None
        if at >= self.latest[0]:
            self.latest = (at, view)
        self.maybe_move()

    def taken(self, made: tuple[int, int, int], now: float) -> None:
        """My move on the socket was taken: the first view I received after sending it
        with a key past the one I moved in is the view it made."""
        assert self.pending is not None
        started = self.pending[0]
        self.pending = None
        self.sending = False
        self.tally.statuses["move taken"] += 1
        self.tally.moves += 1
        self.tally.last_answer = now
        self.tally.answered.append(now - started)
        self.table.sent.setdefault(made, (started, self.name))

    def refused(self, message: dict[str, Any]) -> None:
        """My move on the socket was not taken. The table having moved on or the turn
        having passed is counted; any other refusal of a move my view offered is a fault.
        A refusal's view is the seat's current one: I move from it, but it is no push."""
        code = message.get("code")
        self.tally.statuses[f"refused {code}"] += 1
        if self.pending is None:
            self.tally.failures.append(f"{self.name}: {code} with no move of mine on its way")
        elif code not in CONFLICTS:
            self.tally.refused.append(f"{self.name} at {self.pending[1]}: {str(message)[:200]}")
        self.pending = None
        self.sending = False
        self.waiting_since = None
        view = message.get("view")
        if isinstance(view, dict) and key(view) >= self.latest[0]:
            self.latest = (key(view), view)
        self.maybe_move()

    def maybe_move(self) -> None:
        """Play when the newest view says it is my turn and no move of mine is on its way
        (a view pushed while my last move was still being answered waits for it)."""
        at, view = self.latest
        if self.sending or self.table.finished(self.rounds):
            return
        if view.get("status") not in (None, "playing"):
            return
        if view.get("to_act") == self.name and view.get("legal") and at > self.played:
            self.sending = True
            self.played = at
            task = asyncio.get_running_loop().create_task(self.move(view))
            # The loop keeps only a weak reference to a task: hold it until it is done.
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def body(self, view: dict[str, Any]) -> dict[str, Any]:
        return move_body(view, self.rng)

    async def move(self, view: dict[str, Any]) -> None:
        try:
            if self.think:  # a person thinks (between half and one and a half times)
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            body = self.body(view)
            started = time.perf_counter()
            if self.robot_table:
                self.waiting_since = started
            if self.http is None:
                # Its answer is the view it made, pushed to this socket as to the others
                # (`taken`), or a refusal (`refused`): until then, no other move.
                self.pending = (started, key(view))
                await self.ws.send(json.dumps({"type": "move", **body}))
                return
            await self.post(view, body, started)
        except Exception as exc:  # counted, reported after the run
            self.tally.failures.append(f"{self.name}: {exc!r}")
            self.pending = None
        self.sending = False
        self.maybe_move()

    async def post(self, view: dict[str, Any], body: dict[str, Any], started: float) -> None:
        """The move through gunicorn (`--moves http`): the answer is the view it made."""
        assert self.http is not None
        status, answer = await self.http.post(f"/api/play/{self.token}/moves/", body)
        self.tally.answered.append(time.perf_counter() - started)
        self.tally.statuses[f"move {status}"] += 1
        if status >= 500:
            self.tally.server_errors.append(f"{status} {str(answer)[:200]}")
        elif status == 400:  # a move the view offered, refused: a fault
            self.tally.refused.append(f"{body} -> {str(answer)[:200]}")
        if status == 200:
            self.tally.moves += 1
            self.tally.last_answer = time.perf_counter()
            made = key(answer)
            self.table.sent.setdefault(made, (started, self.name))
        elif self.robot_table:
            self.waiting_since = None
        if status in (200, 409) and isinstance(answer, dict):
            view_now = answer.get("view", answer)
            if key(view_now) >= self.latest[0]:
                self.latest = (key(view_now), view_now)
