"""What one move costs, by kind: an ordinary move, and a round's end (the last card, then
the round stored and the next one dealt by the scheduler), all server work included.

Run: .venv/bin/python bench/move.py [--tables 20] [--rounds 2] [--ordinary 10]
     [--postgres URL] [--redis URL] [--json FILE]

One ASGI node as deploy/huckley-ws@.service runs it (gunicorn, one uvicorn worker, DEBUG
off) and the scheduler in its own process (deploy/huckley-scheduler.service), on
PostgreSQL (`--postgres`, dropped and made afresh) and Redis (`--redis`, flushed: cache,
channel layer and the tables' channels). Every seat of
`--tables` online Huckley Buck tables is a phone on its own WebSocket, driven from this
process. For each of `--rounds` rounds, once every table has its deal:

1. **Ordinary moves**: every table plays its first `--ordinary` moves of the round (none
   of which can end it), all tables at once; a move is sent when the phone whose turn it
   is has its view, and is done when all four phones have the view it made.
2. **The rest of the round**: every table plays on until its next move is the round's
   last card (one card left in all the hands), all tables at once: the later moves,
   whose views carry more of the round (`late_ms`, a move).
3. **The round's end**: every table plays its last card and waits until its next round
   is dealt: the last card, the scheduler storing the round (standings, the ratings'
   and pages' work queued) and dealing the next one (`round_end_ms`, a table).

CPU is read before and after each part, for the ASGI server (its processes), the
scheduler, PostgreSQL
(every backend) and Redis; the clients are not counted. Also: PostgreSQL's transactions
in the database and Redis's commands per ordinary move (the whole server's).
docs/performance.md has runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.phones import key, move_body  # noqa: E402
from bench.processes import (  # noqa: E402
    cpu_seconds,
    database_cpu_seconds,
    postgres_counts,
    redis_calls,
    tree,
)
from bench.servers import (  # noqa: E402
    build_in_child,
    free_port,
    machine,
    server_env,
    start_asgi,
    start_scheduler,
    stop,
)
from engine.online_round import PLAY  # noqa: E402

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_move"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"


class Phone:
    """One seat's socket: its newest view, kept by a reader task."""

    def __init__(self, port: int, token: str, name: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/play/{token}/"
        self.name = name
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.refused: list[dict[str, Any]] = []

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(self.url, max_size=2**20, open_timeout=60)
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message.get("type") == "view":
                self.view = message["view"]
                self.changed.set()
            elif message.get("type") == "refused":
                self.refused.append(message)
                self.changed.set()


class Table:
    def __init__(self, phones: list[Phone], seed: int) -> None:
        self.phones = phones
        self.rng = random.Random(seed)

    async def until(self, ready: Any) -> None:
        """Until `ready(views)` holds for the four phones' newest views."""
        while True:
            for p in self.phones:
                p.changed.clear()
            if ready([p.view for p in self.phones]):
                return
            waits = [asyncio.ensure_future(p.changed.wait()) for p in self.phones]
            _, pending = await asyncio.wait(waits, timeout=60, return_when=asyncio.FIRST_COMPLETED)
            for w in pending:
                w.cancel()
            if len(pending) == len(waits):
                raise TimeoutError([p.view.get("phase") for p in self.phones])

    def mover(self, views: list[dict[str, Any]] | None = None) -> Phone | None:
        for p, v in zip(self.phones, views or [p.view for p in self.phones], strict=True):
            if v.get("to_act") == p.name and v.get("legal") and v.get("status") == "playing":
                return p
        return None

    async def dealt(self, number: int) -> None:
        await self.until(
            lambda views: (
                all(v.get("round") == number for v in views) and self.mover(views) is not None
            )
        )

    async def one_move(self) -> dict[str, Any]:
        phone = self.mover()
        assert phone is not None
        before = key(phone.view)
        await phone.ws.send(json.dumps({"type": "move", **move_body(phone.view, self.rng)}))
        await self.until(lambda views: all(key(v) > before for v in views))
        return phone.view

    async def ordinary(self, count: int, number: int) -> None:
        for _ in range(count):
            view = await self.one_move()
            assert view.get("round") == number, view
            assert view.get("phase") != "end", view

    @staticmethod
    def last_card(views: list[dict[str, Any]]) -> bool:
        """The next move is the round's last card: in the play, one card left in all
        the hands."""
        counts = views[0].get("counts") or {}
        return views[0].get("phase") == PLAY and sum(counts.values()) == 1

    async def to_last_card(self, number: int) -> int:
        """Play round `number` on until its next move is its last card; the moves it
        took."""
        made = 0
        while True:
            views = [p.view for p in self.phones]
            assert {v.get("round") for v in views} == {number}, views
            if self.last_card(views):
                return made
            await self.one_move()
            made += 1

    async def round_end(self, number: int) -> None:
        """The last card of round `number`, then its next round dealt."""
        await self.one_move()
        await self.dealt(number + 1)


def cpu(server: int, scheduler: int) -> dict[str, float]:
    db = database_cpu_seconds()
    return {
        "asgi": cpu_seconds(tree(server)),
        "scheduler": cpu_seconds(tree(scheduler)),
        "postgres": db["postgres"],
        "redis": db["redis"],
    }


def per(after: dict[str, float], before: dict[str, float], count: float) -> dict[str, float]:
    parts = {k: (after[k] - before[k]) * 1000 / count for k in after}
    parts["total"] = sum(parts.values())
    return {k: round(v, 2) for k, v in parts.items()}


async def play(
    args: argparse.Namespace, built: dict[str, Any], port: int, server: int, scheduler: int
) -> Any:
    by_table: dict[int, list[Phone]] = {}
    for seat in built["phones"]:
        by_table.setdefault(seat["table"], []).append(Phone(port, seat["token"], seat["name"]))
    tables = [Table(phones, seed=i) for i, phones in enumerate(by_table.values())]
    for table in tables:
        for p in table.phones:
            await p.open()
    results = []
    for number in range(1, args.rounds + 1):
        await asyncio.gather(*(t.dealt(number) for t in tables))
        await asyncio.sleep(1.0)  # the deal's own work settles
        count = args.ordinary * len(tables)
        calls, txs = redis_calls(args.redis), postgres_counts(args.postgres)
        before, started = cpu(server, scheduler), asyncio.get_running_loop().time()
        await asyncio.gather(*(t.ordinary(args.ordinary, number) for t in tables))
        after, seconds = cpu(server, scheduler), asyncio.get_running_loop().time() - started
        calls_after, txs_after = redis_calls(args.redis), postgres_counts(args.postgres)
        ordinary = per(after, before, count)

        before = cpu(server, scheduler)
        made = await asyncio.gather(*(t.to_last_card(number) for t in tables))
        after = cpu(server, scheduler)
        late = per(after, before, max(1, sum(made)))
        await asyncio.sleep(1.0)  # the last of their work settles
        before = cpu(server, scheduler)
        await asyncio.gather(*(t.round_end(number) for t in tables))
        after = cpu(server, scheduler)
        ending = per(after, before, len(tables))
        results.append(
            {
                "round": number,
                "ordinary_moves": count,
                "ordinary_ms": ordinary,
                "ordinary_moves_per_s": round(count / seconds, 1),
                "redis_commands_per_ordinary_move": round(
                    sum(n - calls.get(c, 0) for c, n in calls_after.items() if c != "info") / count,
                    2,
                ),
                "postgres_transactions_per_ordinary_move": round(
                    (txs_after["transactions"] - txs["transactions"]) / count, 2
                ),
                "moves_to_the_next_deal": round(sum(made) / len(tables) + 1, 1),
                "late_ms": late,
                "round_end_ms": ending,
            }
        )
        print(json.dumps(results[-1]), flush=True)
    for table in tables:
        for p in table.phones:
            await p.ws.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--ordinary", type=int, default=10)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    env = server_env(args.postgres, args.redis, settings="bench.settings", log_level="ERROR")
    built = build_in_child(str(ROOT / "bench" / "play.py"), env, f"--build={args.tables},0")
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"huckley-move-{port}.log"
    env["HUCKLEY_SCHEDULER"] = "false"
    scheduler = start_scheduler(env, log.with_suffix(".scheduler.log"))
    try:
        server = start_asgi(env, port, 1, log)
        try:
            results = asyncio.run(play(args, built, port, server.pid, scheduler.pid))
        finally:
            stop(server)
    finally:
        stop(scheduler)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "tables": args.tables,
        "rounds": results,
    }
    for name in ("ordinary_ms", "late_ms", "round_end_ms"):
        report[name] = {
            k: round(sum(r[name][k] for r in results) / len(results), 2) for k in results[0][name]
        }
    print(json.dumps({k: v for k, v in report.items() if k != "rounds"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
