"""Online play under a crowd: phones at online tables, each on its own WebSocket, playing
as fast as the rules allow through the real ASGI server on PostgreSQL and the Redis
channel layer.

Run: .venv/bin/python bench/play.py  [--tables 250] [--rounds 2] [--robot-tables 10]
     [--moves socket|http] [--nodes 1] [--workers 2] [--route seat|table]
     [--http-workers 3] [--clients 1] [--think 0] [--scheduler apart|inside]
     [--scheduler-nice 10] [--heap] [--floor] [--postgres URL] [--redis URL] [--json FILE]

It builds an online Huckley Buck session on PostgreSQL (`--postgres`, default
postgres://postgres@127.0.0.1:5432/huckley_play, dropped and made afresh) of `--tables`
tables of four, started, with every player's seat link, plus `--robot-tables` tables
where three of the four seats are robots. It starts `--nodes` ASGI servers (each
`--workers` processes, DEBUG off, all on the same PostgreSQL and with Redis, `--redis`,
flushed first, as cache and channel layer), and with `--moves http` gunicorn's sync
workers (`--http-workers`) for the moves' POSTs, as deployed (deploy/); online play's
scheduler runs in a process of its own, as deployed (`--scheduler apart`, at niceness
`--scheduler-nice`), or in each ASGI process, as the embedded default runs it
(`--scheduler inside`). With `--route seat` the phones of a table alternate between the
nodes (with two, seats 1 and 3 on one and 2 and 4 on the other, the next table the other
way round). With `--route table` every phone of a table is on the table's node, as the
proxy sends them by the socket's `?table=` (deploy/nginx): a card crosses no node.
`--clients` processes of asyncio clients (bench/crowd.py) drive them, each a share of
the tables. Then:

1. Each table's **echo socket** opens: a WebSocket to the bench's bare echo
   (`/ws/bench/echo/`, bench/asgi.py: no database, no channel layer) on the table's
   node, one per table. It is open before the nodes' memory is read, so it is not
   counted in a phone's.
2. Every phone connects to `/ws/play/<token>/` (fifty at a time, as a room arrives) and
   reads its first view; it pings every 15 s as the seat page does. The phones of a
   tenth of the tables connect first, to warm the servers (the modules imported, the
   connections opened, the first tables read), then the others.
3. **The play**: the seat whose turn it is sends a legal move (chosen at random among
   `legal`; a draw's discards picked from the hand) as soon as its view says so (or, with
   `--think S`, after thinking between half and one and a half times S seconds, as
   people do), until its table has played `--rounds` rounds. With `--moves socket` (the
   default) the move is `{"type": "move", ...}` on the phone's own socket: it is taken
   when the phone receives a view past the one it moved in (the view it made, pushed to
   every phone of the table), or refused with `{"type": "refused"}`. With `--moves http`
   it is `POST /api/play/<token>/moves/`, answered with the view it made. Meanwhile
   each table's echo socket sends a short message once after each new view its table's
   phones receive (one at a time), and times its round trip: the floor, measured at the
   tables' own pace, on the same nodes, under the same load; with `--floor` one in four of
   its round trips is the floor's under a card (bench/floor.py: one row written, then
   sent to three sockets of the table on the same node, or through Redis to three on
   the other). A phone whose table has
   played its rounds stays connected and present, not moving, until every table has
   (gone, a robot would play for it after the session's grace time); then the phones
   leave fifty at a time, as they came.

What it measures: a card's **delivery**, from the mover sending it to each other phone of
the table receiving the view it made (the first view with a key at least that one's),
split into pairs of phones on the same node and on different nodes; a move's answer (the
mover's own view back, or the POST's answer); a robot table's time from the player's card
to the view in which it is the player's turn again (three robot moves); the echo's round
trip, and a card's p95 over the echo's. The play's time runs from the first move to the
last one taken; the moves taken a second. What a move costs, from the first move until
every table has played its rounds: the CPU time each part used (the ASGI nodes, each and
in all, the echo's bare round trips among it; the HTTP workers with `--moves http`; the
scheduler's process, apart;
PostgreSQL; Redis; the bench's own clients), per move taken, and all the servers'
together (`server_total`, everything but the clients); the Redis commands per move
(`INFO commandstats`, the total and the six most called: the whole Redis server's, so
anything else using it meanwhile counts too); the transactions committed in the bench's
database per move, and the connections opened to it (`pg_stat_database`: transactions,
not statements; a statement in autocommit is one). The nodes' resident memory once the
warming phones are connected and once all are, per phone of the others (what a phone
holds, not a process's first work); with `--heap` (one node of one process), what the
Python heap of that process holds for those phones once they are all connected, per
phone, by file and by the frame that asked for it (`tracemalloc`, started just before
they connect: the tracing slows the server, so take the other figures from a run
without it). How late the clients' event loops wake (`client_loop_lag_ms`).

Every view a phone receives is checked: a move taken whose view never reaches one of the
other phones is **lost**; a view pushed twice to a phone is **duplicated** (not the push
of the deal a phone read as it connected); a view older than one already received is
**out of order**. A refusal because the table moved on or the turn passed (`stale_move`,
`not_your_turn`) is counted; any other refusal of a move the view offered is a fault, and
so is a 5xx or a traceback in a server's log. At the end every stored round is checked
by the engine (the game records, as `python -m engine check` reads them). It prints a
table and JSON, and exits 1 on any fault or a client failure. docs/performance.md
("Online play") has runs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import floor
from bench.crowd import Clients
from bench.heap import Heap, per_phone
from bench.phones import Tally
from bench.processes import (
    cpu_seconds,
    database_cpu_seconds,
    postgres_counts,
    redis_calls,
    rss_kib,
    tree,
)
from bench.servers import (
    SCHEDULER_NICE,
    build_in_child,
    free_port,
    machine,
    server_env,
    start_asgi,
    start_scheduler,
    start_server,
    stop,
    tracebacks,
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
    floor.make_rows(sorted({s.table_id for s in seatings}))
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


def slices(built: dict[str, Any], args: argparse.Namespace, ports: list[int]) -> list[Any]:
    """Each client process's share: whole tables, dealt round; each table's phones
    alternating between the nodes from the table's own node (`--route seat`) or all on
    it (`--route table`), its echo socket on that node."""
    by_table: dict[int, list[dict[str, Any]]] = {}
    for phone in built["phones"]:
        by_table.setdefault(phone["table"], []).append(phone)
    parts = [
        {
            "phones": [],
            "echoes": [],
            "ports": ports,
            "http_port": args.http_port,
            "rounds": args.rounds,
            "think": args.think,
            "door": max(1, 50 // args.clients),
        }
        for _ in range(args.clients)
    ]
    k = int(args.route == "seat")  # 0: a table's phones all on its node
    for t, (table, phones) in enumerate(by_table.items()):
        part = parts[t % args.clients]
        node, other = t % args.nodes, ports[(t + 1) % args.nodes] if args.nodes > 1 else None
        part["echoes"].append((table, node, [table, other] if args.floor else None))
        part["phones"] += [ph | {"node": (t + k * s) % args.nodes} for s, ph in enumerate(phones)]
    return parts


def crowd(
    args: argparse.Namespace,
    built: dict[str, Any],
    servers: list[subprocess.Popen[bytes]],
    ports: list[int],
    http: subprocess.Popen[bytes] | None,
    scheduler: subprocess.Popen[bytes] | None,
) -> dict[str, Any]:
    """The client processes driven through the steps (bench/crowd.py), and between them
    the machine read: memory, CPU, Redis's commands, PostgreSQL's transactions."""
    clients = Clients(slices(built, args, ports))
    try:
        clients.answers()  # the echo sockets are open
        warmed = sum(a["phones"] for a in clients.step("warm"))
        heap = Heap(ports[0]) if args.heap else None
        if heap is not None:
            heap.ask("mark")
        before = sum(rss_kib(s.pid) for s in servers)
        connected = clients.step("connect")
        after = sum(rss_kib(s.pid) for s in servers)
        heaped = heap.ask("diff") if heap is not None else None
        processes = {f"asgi {n + 1}": tree(s.pid) for n, s in enumerate(servers)}
        if http is not None:
            processes["http"] = tree(http.pid)
        if scheduler is not None:
            processes["scheduler"] = tree(scheduler.pid)
        cpu_before = {name: cpu_seconds(pids) for name, pids in processes.items()}
        cpu_before |= database_cpu_seconds()
        redis_before, pg_before = redis_calls(args.redis), postgres_counts(args.postgres)
        started = time.perf_counter()
        clients.step("play")
        cpu = {name: cpu_seconds(pids) for name, pids in processes.items()}
        cpu |= database_cpu_seconds()
        redis_after, pg_after = redis_calls(args.redis), postgres_counts(args.postgres)
        done = clients.step("end")
    finally:
        clients.stop()
    cpu = {name: seconds - cpu_before[name] for name, seconds in cpu.items()}
    tally = Tally()
    for answer in done:
        tally.merge(answer["tally"])
    moves = max(1, tally.moves)
    calls = {name: n - redis_before.get(name, 0) for name, n in redis_after.items()}
    top = sorted(calls.items(), key=lambda c: -c[1])[:6]
    measured = len(built["phones"]) - warmed  # the phones the memory is measured over
    nodes = [cpu.pop(f"asgi {n + 1}") for n in range(len(servers))]
    cpu = {"asgi": sum(nodes), **cpu, "client": sum(a["cpu_seconds"] for a in done)}
    cpu["server_total"] = sum(s for name, s in cpu.items() if name != "client")
    play_seconds = tally.last_answer - started
    return {
        "tally": tally,
        "connect_seconds": round(max(a["seconds"] for a in connected), 1),
        "play_seconds": round(play_seconds, 1),
        "moves": tally.moves,
        "moves_per_second": round(tally.moves / max(play_seconds, 0.001), 1),
        "cpu_ms_per_move": {name: round(1000 * s / moves, 1) for name, s in cpu.items()},
        "asgi_cpu_ms_per_move_by_node": [round(1000 * s / moves, 1) for s in nodes],
        "redis_commands_per_move": {
            "total": round(sum(calls.values()) / moves, 1),
            **{name: round(n / moves, 2) for name, n in top},
        },
        "pg_transactions_per_move": round(
            (pg_after["transactions"] - pg_before["transactions"]) / moves, 1
        ),
        "pg_connections_per_move": round(
            (pg_after["connections"] - pg_before["connections"]) / moves, 1
        ),
        "memory_before_kib": before,
        "memory_connected_kib": after,
        "memory_per_phone_kib": round((after - before) / max(1, measured), 1),
        **({"heap_per_phone": per_phone(heaped, measured)} if heaped else {}),
    }


def delivery(tally: Tally) -> dict[str, Any]:
    """A card's delivery to the other phones, in all and by pairs of nodes."""
    every = [seconds for seconds, _ in tally.delivery]
    same = [seconds for seconds, same in tally.delivery if same]
    cross = [seconds for seconds, same in tally.delivery if not same]
    same95, cross95 = p(same, 0.95), p(cross, 0.95)
    return {
        "card_to_phones_ms": {
            "p50": p(every, 0.5),
            "p95": p(every, 0.95),
            "p99": p(every, 0.99),
            "n": len(every),
        },
        "card_p95_ms_by_nodes": {
            "same_node": same95,
            "cross_node": cross95,
            "cross_over_same": round(cross95 / same95, 2) if same95 and cross95 else None,
            "n_same": len(same),
            "n_cross": len(cross),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--robot-tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--moves",
        choices=("socket", "http"),
        default="socket",
        help="the moves on the phone's WebSocket, or POSTed to gunicorn",
    )
    parser.add_argument("--nodes", type=int, default=1, help="the ASGI servers")
    parser.add_argument("--workers", type=int, default=2, help="each ASGI node's processes")
    parser.add_argument(
        "--route", choices=("seat", "table"), default="seat", help="a table's phones' nodes"
    )
    parser.add_argument(
        "--http-workers", type=int, default=3, help="gunicorn's sync workers (--moves http)"
    )
    parser.add_argument("--clients", type=int, default=1, help="the client processes")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a player's mean seconds of thought before each move (0: as fast as the rules allow)",
    )
    parser.add_argument(
        "--heap",
        action="store_true",
        help="trace the ASGI processes' allocations and print what the phones' connect "
        "added, by where it was made (one node of one process: --workers 1)",
    )
    parser.add_argument(
        "--floor", action="store_true", help="time the floor's round trips (bench/floor.py)"
    )
    parser.add_argument("--scheduler", choices=("apart", "inside"), default="apart")
    parser.add_argument("--scheduler-nice", type=int, default=SCHEDULER_NICE)
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
    if args.floor and args.workers != 1:
        raise SystemExit("--floor's sockets meet in one process a node: --workers 1")
    if args.heap:
        if args.nodes != 1 or args.workers != 1:
            raise SystemExit("--heap reads one process: --nodes 1 --workers 1")
        env["BENCH_HEAP"] = "1"
    print(f"Building an online session of {args.tables}+{args.robot_tables} tables ...")
    built = build_in_child(__file__, env, f"--build={args.tables},{args.robot_tables}")
    logs: list[Path] = []
    http = None
    args.http_port = None
    if args.moves == "http":
        # As deployed (deploy/): the moves to gunicorn's sync workers, the sockets to the
        # ASGI nodes; all on the same PostgreSQL and the Redis channel layer.
        args.http_port = free_port()
        logs.append(Path(tempfile.gettempdir()) / f"huckley-play-{args.http_port}.log")
        http = start_server(env, args.http_port, args.http_workers, log=logs[-1])
    servers, ports = [], [free_port() for _ in range(args.nodes)]
    scheduler = None
    if args.scheduler == "apart":
        env["HUCKLEY_SCHEDULER"] = "false"
        logs.append(Path(tempfile.gettempdir()) / f"huckley-play-scheduler-{ports[0]}.log")
        scheduler = start_scheduler(env, logs[-1], args.scheduler_nice)
    try:
        for port in ports:
            logs.append(Path(tempfile.gettempdir()) / f"huckley-play-{port}.log")
            servers.append(start_asgi(env, port, args.workers, logs[-1]))
        print(
            f"{len(built['phones'])} phones, {args.rounds} rounds a table, moves on "
            f"{'the socket' if http is None else 'gunicorn'}, {args.nodes} node(s) ...",
            flush=True,
        )
        figures = crowd(args, built, servers, ports, http, scheduler)
        logged = [found for log in logs for found in tracebacks(log)]
    finally:
        for server in [*servers, *(s for s in (http, scheduler) if s is not None)]:
            stop(server)
    tally: Tally = figures.pop("tally")
    tally.server_errors += logged
    checked = build_in_child(__file__, env, f"--verify={built['session']}")
    echo95 = p(tally.echo, 0.95)
    delivered = delivery(tally)
    card95 = delivered["card_to_phones_ms"]["p95"]
    same95 = delivered["card_p95_ms_by_nodes"]["same_node"]
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "moves_through": args.moves,
        "nodes": args.nodes,
        "asgi_workers": args.workers,
        "route": args.route,
        "scheduler": args.scheduler,
        "http_workers": args.http_workers if http is not None else None,
        "clients": args.clients,
        "tables": args.tables,
        "robot_tables": args.robot_tables,
        "phones": len(built["phones"]),
        "rounds_per_table": args.rounds,
        "think_seconds": args.think,
        **figures,
        **delivered,
        "move_answered_ms": {"p50": p(tally.answered, 0.5), "p95": p(tally.answered, 0.95)},
        "echo_ms": {"p50": p(tally.echo, 0.5), "p95": echo95, "n": len(tally.echo)},
        "card_over_echo_p95": round(card95 / echo95, 2) if card95 and echo95 else None,
        **(floor.report(tally, echo95, same95, p) if args.floor else {}),
        "robot_answer_ms": {
            "p50": p(tally.robots, 0.5),
            "p95": p(tally.robots, 0.95),
            "max": p(tally.robots, 1.0),
            "n": len(tally.robots),
        },
        "client_loop_lag_ms": {
            "p50": p(tally.lag, 0.5),
            "p95": p(tally.lag, 0.95),
            "max": p(tally.lag, 1.0),
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
    }
    faults = (
        tally.lost
        + tally.duplicated
        + tally.out_of_order
        + tally.server_errors
        + tally.refused
        + checked["refused"]
        + tally.failures
    )
    report["examples"] = faults[:10]
    print()
    for label, value in report.items():
        if label not in ("command", "examples"):
            print(f"{label:<29}  {value}")
    for example in report["examples"]:
        print("  ", example)
    print(f"the servers' logs: {' '.join(str(log) for log in logs)}")
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    raise SystemExit(1 if faults else 0)


if __name__ == "__main__":
    main()
