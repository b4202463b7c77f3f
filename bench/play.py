"""Online play under a crowd: phones at online tables, each on its own WebSocket, playing
as fast as the rules allow through the real ASGI server on PostgreSQL and the Redis
channel layer.

Run: .venv/bin/python bench/play.py  [--tables 250] [--rounds 2] [--robot-tables 10]
     [--workers 2] [--http-workers 3] [--think 0] [--postgres URL] [--redis URL]
     [--json FILE]

It builds an online Huckley Buck session on PostgreSQL (`--postgres`, default
postgres://postgres@127.0.0.1:5432/huckley_play, dropped and made afresh) of `--tables`
tables of four, started, with every player's seat link, plus `--robot-tables` tables
where three of the four seats are robots; it starts the ASGI server (`--workers`
processes, DEBUG off) with Redis (`--redis`, flushed first) as cache and channel layer.
Then, in one process of asyncio clients:

1. **The floor**: every phone opens a WebSocket to the bench's bare echo
   (`/ws/bench/echo/`, bench/asgi.py: no database, no channel layer) and sends a message
   and waits for it back, as many times as it will play cards, all phones at once: the
   round trip of a bare WebSocket on the same server, loaded the same way.
2. **The play**: every phone connects to `/ws/play/<token>/` and keeps it open; the
   seat whose turn it is sends a legal move (`POST /api/play/<token>/moves/`, chosen at
   random among `legal`) as soon as its view says so (or, with `--think S`, after
   thinking between half and one and a half times S seconds, as people do), until its
   table has played `--rounds` rounds. For each move, the time from sending it to each
   other phone of the table receiving the view it made; a robot table's time from the
   player's card to the three robots' cards reaching the player.

Every view a phone receives is checked: a move answered 200 whose view never reaches one
of the other phones is **lost**; a view pushed twice to a phone is **duplicated** (not the
push of the deal a phone read as it connected); a view older than one already received
is **out of order**. Memory: the server processes' resident memory before the phones
connect and once all are connected, per phone. At the end every
stored round is checked by the engine (the game records, as `python -m engine check`
reads them). The play's time runs from the first move to the last one answered; the
CPU time each part used meanwhile (the HTTP workers, the ASGI node, PostgreSQL, Redis,
the bench's own client) is given per move made: what a move costs the machine, so what
one node can carry. It prints a table and JSON, and exits 1 on any lost, duplicated or
out-of-order view, any 5xx, any refused record or a client failure. docs/performance.md
("Online play") has a run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.phones import Phone, Table, Tally
from bench.processes import cpu_seconds, database_cpu_seconds, rss_kib, tree
from bench.servers import (
    build_in_child,
    free_port,
    machine,
    server_env,
    start_asgi,
    start_server,
    stop,
)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_play"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"


def build(tables: int, robot_tables: int) -> dict[str, Any]:
    """Inside Django: a started online session, every seat's link, the robot tables."""
    import django

    django.setup()
    from bench.builds import bench_club
    from play import scheduler
    from play.models import SeatLink
    from play.services import seat_links_ensure
    from tournaments.models import Player, Seating, Session
    from tournaments.permissions import SYSTEM
    from workflow.session import services, start_finish
    from workflow.session.simulation import generated_names

    user, club, season = bench_club("play")
    total = tables + robot_tables
    session = services.session_create(
        club=club,
        season=season,
        name="Snowed-in night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=generated_names(total * 4),
        seed=11,
        is_public=True,
        double_entry=False,
        user=user,
    )
    Session.objects.filter(pk=session.pk).update(online=True)
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=user)
    seatings = list(
        Seating.objects.filter(sitting__session=session)
        .select_related("table", "player")
        .order_by("table__rank", "seat")
    )
    robot_ranks = set(range(tables + 1, total + 1))
    robots = [s.player_id for s in seatings if s.table.rank in robot_ranks and s.seat > 1]
    Player.objects.filter(pk__in=robots).update(is_robot=True)
    # The robots were marked after the start woke the tables: the scheduler looks again.
    scheduler.wake([s.table_id for s in seatings])
    seat_links_ensure(session_id=session.pk, user=SYSTEM)
    tokens = dict(SeatLink.objects.filter(session=session).values_list("player_id", "token"))
    phones = [
        {
            "token": tokens[s.player_id],
            "table": s.table_id,
            "name": s.player.name,
            "robot_table": s.table.rank in robot_ranks,
        }
        for s in seatings
        if s.player_id not in robots
    ]
    return {"session": session.pk, "phones": phones}


def verify(session_id: int) -> dict[str, Any]:
    """Inside Django: every stored round of the session, checked again by the engine."""
    import django

    django.setup()
    import engine
    from scoring.models import Game
    from scoring.records import game_record

    refused: list[str] = []
    rounds = 0
    for game in Game.objects.filter(table__sitting__session_id=session_id):
        record = game_record(game)
        rounds += len(record["rounds"])
        verdict = engine.check(record)
        if not verdict["valid"]:
            refused.append(f"game {game.pk}: {verdict['errors'][:1]}")
    return {"rounds": rounds, "refused": refused}


def p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


async def crowd(
    ports: tuple[int, int],
    built: dict[str, Any],
    rounds: int,
    tally: Tally,
    server: int,
    http: int,
) -> dict[str, Any]:
    tables: dict[int, Table] = {}
    door = asyncio.Semaphore(50)
    phones = [
        Phone(ports, ph, tables.setdefault(ph["table"], Table()), tally, rounds, door)
        for ph in built["phones"]
    ]
    # The floor: a bare echo, as many round trips per phone as cards it will play.
    echoes = max(1, rounds * 5)
    started = time.perf_counter()
    await asyncio.gather(*(ph.echo(echoes) for ph in phones))
    echo_seconds = time.perf_counter() - started
    before = rss_kib(server)
    everyone = asyncio.Event()
    connected = [asyncio.Event() for _ in phones]
    tasks = [
        asyncio.create_task(ph.play(c, everyone)) for ph, c in zip(phones, connected, strict=True)
    ]
    connect_started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(c.wait() for c in connected)), timeout=600)
    connect_seconds = time.perf_counter() - connect_started
    after = rss_kib(server)
    processes = {"http": tree(http), "asgi": tree(server)}
    cpu_before = {name: cpu_seconds(pids) for name, pids in processes.items()}
    cpu_before |= database_cpu_seconds()
    client_before = sum(os.times()[:2])
    started = time.perf_counter()
    everyone.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=1800)
    play_seconds = tally.last_answer - started
    cpu = {name: cpu_seconds(pids) for name, pids in processes.items()} | database_cpu_seconds()
    cpu = {name: seconds - cpu_before[name] for name, seconds in cpu.items()}
    cpu["client"] = sum(os.times()[:2]) - client_before
    for table in tables.values():
        for made, (at, mover) in table.sent.items():
            for name, seen in table.seen.items():
                if name == mover:
                    continue
                if made in seen:
                    tally.delivery.append(seen[made] - at)
                else:
                    tally.lost.append(f"{name} never received the view of move {made}")
    return {
        "echo_seconds": round(echo_seconds, 1),
        "connect_seconds": round(connect_seconds, 1),
        "play_seconds": round(play_seconds, 1),
        "cpu_ms_per_move": {
            name: round(1000 * seconds / max(1, tally.moves), 1) for name, seconds in cpu.items()
        },
        "memory_before_kib": before,
        "memory_connected_kib": after,
        "memory_per_phone_kib": round((after - before) / max(1, len(phones)), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--robot-tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="the ASGI node's processes")
    parser.add_argument("--http-workers", type=int, default=3, help="gunicorn's sync workers")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a player's mean seconds of thought before each move (0: as fast as the rules allow)",
    )
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", help=argparse.SUPPRESS)
    parser.add_argument("--verify", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        tables, robot_tables = (int(n) for n in args.build.split(","))
        print(json.dumps(build(tables, robot_tables)))
        return
    if args.verify:
        print(json.dumps(verify(args.verify)))
        return

    env = server_env(args.postgres, args.redis, settings="bench.settings", log_level="ERROR")
    print(f"Building an online session of {args.tables}+{args.robot_tables} tables ...")
    built = build_in_child(__file__, env, f"--build={args.tables},{args.robot_tables}")
    ws_port, http_port = free_port(), free_port()
    log = Path(tempfile.gettempdir()) / f"huckley-play-{ws_port}.log"
    http_log = Path(tempfile.gettempdir()) / f"huckley-play-{http_port}.log"
    # As deployed (deploy/): the moves to gunicorn's sync workers, the sockets to the
    # ASGI node; both on the same PostgreSQL and the Redis channel layer.
    http = start_server(env, http_port, args.http_workers, log=http_log)
    server = start_asgi(env, ws_port, args.workers, log)
    tally = Tally(think=args.think)
    print(f"{len(built['phones'])} phones, {args.rounds} rounds a table ...", flush=True)
    try:
        figures = asyncio.run(
            crowd((ws_port, http_port), built, args.rounds, tally, server.pid, http.pid)
        )
    finally:
        stop(server)
        stop(http)
    checked = build_in_child(__file__, env, f"--verify={built['session']}")
    echo95 = p(tally.echo, 0.95)
    card95 = p(tally.delivery, 0.95)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "asgi_workers": args.workers,
        "http_workers": args.http_workers,
        "tables": args.tables,
        "robot_tables": args.robot_tables,
        "phones": len(built["phones"]),
        "rounds_per_table": args.rounds,
        "think_seconds": args.think,
        **figures,
        "moves": tally.moves,
        "moves_per_second": round(tally.moves / max(figures["play_seconds"], 0.001), 1),
        "card_to_phones_ms": {
            "p50": p(tally.delivery, 0.5),
            "p95": card95,
            "p99": p(tally.delivery, 0.99),
            "n": len(tally.delivery),
        },
        "move_post_ms": {"p50": p(tally.posts, 0.5), "p95": p(tally.posts, 0.95)},
        "echo_ms": {"p50": p(tally.echo, 0.5), "p95": echo95, "n": len(tally.echo)},
        "card_over_echo_p95": round(card95 / echo95, 2) if card95 and echo95 else None,
        "robot_answer_ms": {
            "p50": p(tally.robots, 0.5),
            "p95": p(tally.robots, 0.95),
            "max": p(tally.robots, 1.0),
            "n": len(tally.robots),
        },
        "answers": dict(sorted(tally.statuses.items())),
        "lost": len(tally.lost),
        "duplicated": len(tally.duplicated),
        "out_of_order": len(tally.out_of_order),
        "server_errors": len(tally.server_errors),
        "legal_moves_refused": len(tally.refused),
        "stored_rounds": checked["rounds"],
        "records_refused": len(checked["refused"]),
        "client_failures": tally.failures[:5],
        "examples": (
            tally.lost
            + tally.duplicated
            + tally.out_of_order
            + tally.server_errors
            + tally.refused
            + checked["refused"]
        )[:10],
    }
    print()
    for label, value in report.items():
        if label not in ("command", "examples"):
            print(f"{label:<24}  {value}")
    for example in report["examples"]:
        print("  ", example)
    print(f"the servers' logs: {log} {http_log}")
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    bad = (
        tally.lost
        or tally.duplicated
        or tally.out_of_order
        or tally.server_errors
        or tally.refused
        or checked["refused"]
        or tally.failures
    )
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
