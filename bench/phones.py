"""The phones of the online play bench (bench/play.py): each a player's WebSocket to the
ASGI node, reading the views pushed to it and checking them (lost, duplicated, out of
order), and sending its moves through gunicorn as soon as its view says it is its turn;
what the phones of one table share, and the tally of the whole crowd."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


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


def key(view: dict[str, Any]) -> tuple[int, int, int]:
    """A view's place in its table's play: (game, round, move)."""
    return (view.get("game") or 0, view.get("round") or 0, view.get("move") or 0)


@dataclass
class Tally:
    statuses: Counter[str] = field(default_factory=Counter)
    delivery: list[float] = field(default_factory=list)  # s, a card to another phone
    robots: list[float] = field(default_factory=list)  # s, a card to the robots' answers
    echo: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)  # s, a move's POST answered
    last_answer: float = 0.0  # perf_counter of the last move answered 200
    think: float = 0.0  # s, a player's mean thinking time before a move
    duplicated: list[str] = field(default_factory=list)
    out_of_order: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    moves: int = 0


class Table:
    """What the phones of one table share: when each move was sent and by whom, and which
    views each phone received."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int, int], tuple[float, str]] = {}  # view made -> sent
        self.seen: dict[str, dict[tuple[int, int, int], float]] = {}  # phone -> view -> at
        self.rounds_done = 0

    def finished(self, rounds: int) -> bool:
        return self.rounds_done >= rounds


class Phone:
    def __init__(
        self,
        ports: tuple[int, int],
        phone: dict[str, Any],
        table: Table,
        tally: Tally,
        rounds: int,
        door: asyncio.Semaphore,
    ) -> None:
        self.port, http_port = ports  # the WebSocket node's, the HTTP node's
        self.token = phone["token"]
        self.name = phone["name"]
        self.robot_table = phone["robot_table"]
        self.table = table
        self.tally = tally
        self.rounds = rounds
        self.http = Http(http_port)
        self.rng = random.Random(self.token)
        self.last: tuple[int, int, int] | None = None
        self.pushed: set[tuple[int, int, int]] = set()  # the views pushed to this phone
        self.sending = False
        self.waiting_since: float | None = None  # a robot table: my card sent, at
        self.door = door
        self.tasks: set[asyncio.Task[None]] = set()
        self.latest: tuple[tuple[int, int, int], dict[str, Any]] = ((0, 0, 0), {})
        self.played: tuple[int, int, int] = (-1, -1, -1)  # the view I last moved in

    async def echo(self, times: int) -> None:
        import websockets

        async with websockets.connect(f"ws://127.0.0.1:{self.port}/ws/bench/echo/") as ws:
            for n in range(times):
                started = time.perf_counter()
                await ws.send(str(n))
                await ws.recv()
                self.tally.echo.append(time.perf_counter() - started)

    async def play(self, connected: asyncio.Event, everyone: asyncio.Event) -> None:
        import websockets

        url = f"ws://127.0.0.1:{self.port}/ws/play/{self.token}/"
        async with self.door:  # the phones arrive a few dozen at a time, as a room does
            ws = await websockets.connect(url, max_size=2**20, open_timeout=120)
            first = json.loads(await ws.recv())
        async with ws:
            connected.set()
            await everyone.wait()
            self.receive(first["view"], initial=True)
            pinging = asyncio.get_running_loop().create_task(self.ping(ws))
            try:
                await self.listen(ws)
            finally:
                pinging.cancel()

    async def ping(self, ws: Any) -> None:
        """Say "still here" as the seat page does, so the player is never taken for absent
        (a robot would play for them after the session's grace time)."""
        while True:
            await asyncio.sleep(15)
            await ws.send(json.dumps({"type": "ping"}))

    async def listen(self, ws: Any) -> None:
        while True:
            # Once the table has played its rounds, the last views still arrive: read them
            # for ten seconds, then stop.
            wait = 10 if self.table.finished(self.rounds) else 60
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=wait))
            except TimeoutError:
                if not self.table.finished(self.rounds):
                    self.tally.failures.append(f"{self.name}: no view for 60 s at {self.last}")
                return
            if message.get("type") == "view":
                self.receive(message["view"])

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
        if not initial:
            self.pushed.add(at)
        seen.setdefault(at, now)
        if self.last is None or at > self.last:
            self.last = at
        mine = view.get("to_act") == self.name and bool(view.get("legal"))
        if self.waiting_since is not None and (mine or self.table.finished(self.rounds)):
            self.tally.robots.append(now - self.waiting_since)
            self.waiting_since = None
        if at >= self.latest[0]:
            self.latest = (at, view)
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

    async def move(self, view: dict[str, Any]) -> None:
        try:
            if self.tally.think:  # a person thinks (between half and one and a half times)
                await asyncio.sleep(self.tally.think * self.rng.uniform(0.5, 1.5))
            choice = self.rng.choice(view["legal"])
            body = {"action": "play", "card": choice} if isinstance(choice, str) else dict(choice)
            if "min_discard" in body:  # a draw that names its discards: pick them
                low, high = body.pop("min_discard"), body.pop("max_discard")
                body["discard"] = self.rng.sample(view["hand"], self.rng.randint(low, high))
            body["move"] = view["move"]
            started = time.perf_counter()
            if self.robot_table:
                self.waiting_since = started
            status, answer = await self.http.post(f"/api/play/{self.token}/moves/", body)
            self.tally.posts.append(time.perf_counter() - started)
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
                if made[:2] != key(view)[:2]:
                    self.table.rounds_done += 1
            elif self.robot_table:
                self.waiting_since = None
            if status in (200, 409) and isinstance(answer, dict):
                view_now = answer.get("view", answer)
                if key(view_now) >= self.latest[0]:
                    self.latest = (key(view_now), view_now)
        except Exception as exc:  # counted, reported after the run
            self.tally.failures.append(f"{self.name}: {exc!r}")
        finally:
            self.sending = False
        self.maybe_move()
