"""What one move costs, by kind: an ordinary move, and a round's end (the last card, then
the round stored and the next one dealt by the scheduler), all server work included.

Run: .venv/bin/python bench/move.py [--tables 20] [--rounds 2] [--ordinary 10]
     [--postgres URL] [--redis URL] [--profile FILE]

In one process, as the ASGI node runs it: Django with `HUCKLEY_ASGI` (the psycopg pool),
PostgreSQL (`--postgres`, dropped and made afresh) and Redis (`--redis`, flushed: cache,
channel layer and the tables' channels), the ASGI application with its scheduler running
on the loop. Every seat of `--tables` online Huckley Buck tables is a phone: Channels'
test communicator against the whole application (the consumer, the node, the engine,
the write, the publish heard back on the node's subscription, every phone's view), so
what is left out is only the server's WebSocket framing (bench/play.py measures the
servers whole, with uvicorn and real sockets; its echo's figure is that framing's).

For each of `--rounds` rounds, once every table has its deal:
1. **Ordinary moves**: every table plays its first `--ordinary` moves of the round (none
   of which can end it), all tables at once, each move sent when the phone whose turn it
   is has its view and answered when all four phones have the view it made.
2. **The round's end**: every table plays on until its next round is dealt. The CPU of
   this part less its ordinary moves at the ordinary moves' rate is the cost of a round's
   end: the last card, the scheduler storing the round (the standings, the ratings' and
   pages' work queued) and dealing the next one.

CPU is read before and after each part: this process's (every thread: the loop, the
node's threads, the scheduler; the phones' own work is in it too, a few JSON decodes a
move), PostgreSQL's (every backend's) and Redis's. Also counted: the SQL statements and
Redis commands of the ordinary moves (the whole process's). `--profile FILE` writes a
cProfile of the ordinary moves (CPU clock). docs/performance.md has runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.processes import database_cpu_seconds  # noqa: E402

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_move"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"


def setup(postgres: str, redis_url: str) -> None:
    os.environ.update(
        DEBUG="0",
        DATABASE_URL=postgres,
        REDIS_URL=redis_url,
        HUCKLEY_ASGI="true",
        DJANGO_SETTINGS_MODULE="huckley.settings",
        CELERY_TASK_ALWAYS_EAGER="false",
    )
    import psycopg
    import redis

    base, _, name = postgres.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(redis_url).flushdb()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Phone:
    """One seat's socket: its newest view, kept by a reader task."""

    def __init__(self, token: str, name: str) -> None:
        from channels.testing import WebsocketCommunicator

        from huckley.asgi import application

        self.name = name
        self.socket = WebsocketCommunicator(
            application, f"/ws/play/{token}/", headers=[(b"origin", b"http://127.0.0.1")]
        )
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.refused: list[dict[str, Any]] = []

    async def open(self) -> None:
        connected, _ = await self.socket.connect(timeout=30)
        assert connected, self.name
        self.reader = asyncio.ensure_future(self.read())

    async def read(self) -> None:
        while True:
            message = json.loads(await self.socket.receive_from(timeout=3600))
            if message.get("type") == "view":
                self.view = message["view"]
                self.changed.set()
            elif message.get("type") == "refused":
                self.refused.append(message)
                self.changed.set()


def key(view: dict[str, Any]) -> tuple[int, int, int]:
    return (view.get("game") or 0, view.get("round") or 0, view.get("move") or 0)


class Table:
    def __init__(self, phones: list[Phone], seed: int) -> None:
        import random

        self.phones = phones
        self.rng = random.Random(seed)
        self.moves = 0

    async def until(self, ready: Any) -> None:
        """Until `ready(views)` holds for the four phones' newest views."""
        while not ready([p.view for p in self.phones]):
            waits = [asyncio.ensure_future(p.changed.wait()) for p in self.phones]
            for p in self.phones:
                p.changed.clear()
            if ready([p.view for p in self.phones]):
                for w in waits:
                    w.cancel()
                return
            _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for w in pending:
                w.cancel()

    def mover(self) -> Phone | None:
        for p in self.phones:
            v = p.view
            if v.get("to_act") == p.name and v.get("legal") and v.get("status") == "playing":
                return p
        return None

    def body(self, view: dict[str, Any]) -> dict[str, Any]:
        choice = self.rng.choice(view["legal"])
        body: dict[str, Any] = (
            {"action": "play", "card": choice} if isinstance(choice, str) else dict(choice)
        )
        if "min_discard" in body:
            low, high = body.pop("min_discard"), body.pop("max_discard")
            body["discard"] = self.rng.sample(view["hand"], self.rng.randint(low, high))
        body["move"] = view["move"]
        return body

    async def dealt(self, round_number: int) -> None:
        await self.until(
            lambda views: (
                all(v.get("round") == round_number for v in views)
                and any(
                    v.get("to_act") == p.name and v.get("legal")
                    for v, p in zip(views, self.phones, strict=True)
                )
            )
        )

    async def one_move(self) -> dict[str, Any]:
        phone = self.mover()
        assert phone is not None, [p.view.get("phase") for p in self.phones]
        before = key(phone.view)
        await phone.socket.send_to(text_data=json.dumps({"type": "move", **self.body(phone.view)}))
        await self.until(lambda views: all(key(v) > before for v in views))
        self.moves += 1
        return phone.view

    async def ordinary(self, count: int, round_number: int) -> None:
        for _ in range(count):
            view = await self.one_move()
            assert view.get("round") == round_number, view
            assert view.get("phase") != "end", view

    async def to_next_round(self, round_number: int) -> int:
        """Play until round `round_number + 1` is dealt; the moves it took."""
        made = 0
        while True:
            views = [p.view for p in self.phones]
            if all(v.get("round") == round_number + 1 for v in views) and self.mover():
                return made
            if self.mover() and all(v.get("round") == round_number for v in views):
                await self.one_move()
                made += 1
            else:
                await self.until(
                    lambda vs: (
                        self.mover() is not None
                        and all(v.get("round") in (round_number, round_number + 1) for v in vs)
                        and len({v.get("round") for v in vs}) == 1
                    )
                )


def cpu() -> dict[str, float]:
    db = database_cpu_seconds()
    return {"node": time.process_time(), "postgres": db["postgres"], "redis": db["redis"]}


def per(after: dict[str, float], before: dict[str, float], count: float) -> dict[str, float]:
    parts = {k: (after[k] - before[k]) * 1000 / count for k in after}
    parts["total"] = sum(parts.values())
    return {k: round(v, 3) for k, v in parts.items()}


async def play(args: argparse.Namespace, built: dict[str, Any]) -> dict[str, Any]:
    from django.db.backends.utils import CursorWrapper

    from play import scheduler

    stop = asyncio.Event()
    runner = asyncio.ensure_future(scheduler.run_forever(stop))
    by_table: dict[int, list[Phone]] = {}
    for seat in built["phones"]:
        by_table.setdefault(seat["table"], []).append(Phone(seat["token"], seat["name"]))
    tables = [Table(phones, seed=i) for i, phones in enumerate(by_table.values())]
    for table in tables:
        for p in table.phones:
            await p.open()
    results: list[dict[str, Any]] = []
    statements = [0]
    execute = CursorWrapper.execute

    def counted(self: Any, sql: str, params: Any = None) -> Any:
        statements[0] += 1
        return execute(self, sql, params)

    import redis

    commands = [0]
    redis_execute = redis.Redis.execute_command

    def redis_counted(self: Any, *a: Any, **kw: Any) -> Any:
        commands[0] += 1
        return redis_execute(self, *a, **kw)

    profiler = cProfile.Profile(time.process_time) if args.profile else None
    for number in range(1, args.rounds + 1):
        await asyncio.gather(*(t.dealt(number) for t in tables))
        await asyncio.sleep(0.5)  # the deal's own work settles
        CursorWrapper.execute = counted  # type: ignore[method-assign]
        redis.Redis.execute_command = redis_counted  # type: ignore[method-assign]
        statements[0] = commands[0] = 0
        if profiler:
            profiler.enable()
        before, started = cpu(), time.perf_counter()
        await asyncio.gather(*(t.ordinary(args.ordinary, number) for t in tables))
        after, seconds = cpu(), time.perf_counter() - started
        if profiler:
            profiler.disable()
        CursorWrapper.execute = execute  # type: ignore[method-assign]
        redis.Redis.execute_command = redis_execute  # type: ignore[method-assign]
        count = args.ordinary * len(tables)
        ordinary = per(after, before, count)
        sql, cmds = statements[0] / count, commands[0] / count

        before = cpu()
        made = await asyncio.gather(*(t.to_next_round(number) for t in tables))
        after = cpu()
        rest = sum(made)
        whole = per(after, before, len(tables))  # a round's rest, per table
        ending = {k: round(whole[k] - ordinary[k] * (rest / len(tables) - 1), 3) for k in ordinary}
        results.append(
            {
                "round": number,
                "ordinary_moves": count,
                "ordinary_ms": ordinary,
                "ordinary_moves_per_s": round(count / seconds, 1),
                "sql_per_ordinary_move": round(sql, 2),
                "redis_commands_per_ordinary_move": round(cmds, 2),
                "rest_moves_per_table": round(rest / len(tables), 1),
                "round_end_ms": ending,
            }
        )
        print(json.dumps(results[-1]), flush=True)
    if profiler:
        profiler.dump_stats(args.profile)
    stop.set()
    await runner
    for table in tables:
        for p in table.phones:
            p.reader.cancel()
            await p.socket.disconnect()
    return {"rounds": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--ordinary", type=int, default=10)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--profile", default="")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    setup(args.postgres, args.redis)
    from asgiref.sync import async_to_sync, sync_to_async

    from bench.play import build

    built = build(args.tables, 0)

    async def whole() -> dict[str, Any]:
        await sync_to_async(lambda: None)()
        return await play(args, built)

    out = async_to_sync(whole)()
    out["machine"] = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    out["command"] = " ".join(sys.argv)
    rounds = out["rounds"]
    for name in ("ordinary_ms", "round_end_ms"):
        out[name] = {
            k: round(sum(r[name][k] for r in rounds) / len(rounds), 3) for k in rounds[0][name]
        }
    print(json.dumps({k: v for k, v in out.items() if k != "rounds"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
