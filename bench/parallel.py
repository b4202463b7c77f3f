"""Rounds stored per second: 50 scorers at 50 tables of one session, against 50 scorers
at the tables of 50 sessions, through gunicorn on PostgreSQL and Redis.

Run: .venv/bin/python bench/parallel.py  [--tables 50] [--runs 2] [--workers 3]
     [--postgres URL] [--redis URL] [--json FILE]

A round takes a shared lock on its session and its own table's locks (scoring/locks.py),
so the tables of one session should be entered about as fast as the tables of as many
sessions; before the lock order, every round held its session's row exclusively and one
session's tables were entered one at a time. docs/performance.md ("Rounds at many
tables") records the figures.

It builds, untimed, in a fresh database (`--postgres`, default
postgres://postgres@127.0.0.1:5432/huckley_parallel, dropped and made afresh), for each
of `--runs` runs: one running session of `--tables` tables of four, and `--tables`
running sessions of one table each; two games a sitting, a scorer link per table. Then,
run by run, one layout after the other (one session, then many), one scorer per table
enters its table's two games round by round (the rounds of a game are the engine's own
simulation, so they are real hands, about nine a game) through the API without an
Idempotency-Key, and the clock runs from the first request to the last answer. Every
answer must be a 201; the rounds are read back and counted. It prints rounds/s for each
layout and their ratio (one session / many), and exits 1 on any other answer or any
round not stored.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_parallel"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"
GAMES = 2


def build(tables: int, runs: int) -> dict[str, Any]:
    """Inside Django: for each run, one session of `tables` tables and `tables` sessions
    of one table, each table with a scorer link."""
    import django

    django.setup()
    from rest_framework.authtoken.models import Token

    from bench.builds import bench_club, running_session
    from workflow.session.simulation import generated_names
    from workflow.tables import links as table_links

    user, club, season = bench_club("parallel")
    names = iter(generated_names(tables * 4 * 2 * runs))

    def session(size: int, seed: int) -> list[dict[str, Any]]:
        made = running_session(
            user=user,
            club=club,
            season=season,
            name=f"Night {seed}",
            names=[next(names) for _ in range(size * 4)],
            games=GAMES,
            seed=seed,
        )
        return [
            {"id": t.pk, "token": table_links.scorer_link_create(table_id=t.pk, user=user).token}
            for t in made.sittings.get(number=1).tables.order_by("rank")
        ]

    layouts = []
    for run in range(runs):
        one = session(tables, seed=1000 + run)
        many = [t for i in range(tables) for t in session(1, seed=2000 + run * tables + i)]
        layouts.append({"one session": one, f"{tables} sessions": many})
    return {"runs": layouts, "director_token": Token.objects.create(user=user).key}


def call(base: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read()[:300].decode(errors="replace")


def score_table(base: str, table: dict[str, Any], seed: int, out: dict[str, Any]) -> None:
    """One scorer: every game of the table's sitting, round by round."""
    import engine

    headers = {"X-Scorer-Token": table["token"]}
    stored = 0
    for _ in range(GAMES):
        status, detail = call(base, f"/api/tables/{table['id']}/", headers)
        open_games = [g for g in detail["games"] if g["status"] != "finished"]
        if status != 200 or not open_games:
            break
        game_id = open_games[0]["id"]
        _, game = call(base, f"/api/games/{game_id}/", headers)
        record = game["record"]
        played = engine.simulate(
            record["rules"], record["players"], seed=seed, first_dealer=record["first_dealer"]
        )
        for number, data in enumerate(played["rounds"], start=1):
            status, answer = call(
                base, f"/api/games/{game_id}/rounds/", headers, {"number": number, **data}
            )
            if status != 201:
                out["errors"].append(f"{status} {answer}")
                return
            stored += 1
    out["stored"] += stored


def run_layout(base: str, tables: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"stored": 0, "errors": []}
    lock = threading.Lock()

    def scorer(i: int, table: dict[str, Any]) -> None:
        mine: dict[str, Any] = {"stored": 0, "errors": []}
        try:
            score_table(base, table, seed * 1000 + i, mine)
        except Exception as exc:  # reported after the run
            mine["errors"].append(repr(exc))
        with lock:
            out["stored"] += mine["stored"]
            out["errors"] += mine["errors"]

    threads = [threading.Thread(target=scorer, args=(i, t)) for i, t in enumerate(tables)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.monotonic() - started
    return {
        "rounds": out["stored"],
        "seconds": round(seconds, 2),
        "rounds_per_s": round(out["stored"] / seconds, 1),
        "errors": out["errors"][:5],
        "error_count": len(out["errors"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        tables, runs = map(int, args.build.split(","))
        print(json.dumps(build(tables, runs)))
        return

    from bench.servers import build_in_child, free_port, machine, server_env, start_server

    env = server_env(args.postgres, args.redis, settings="huckley.settings", log_level="ERROR")
    began = time.monotonic()
    print(f"Building {args.runs} x (1 session of {args.tables} tables, {args.tables} sessions)")
    built = build_in_child(__file__, env, f"--build={args.tables},{args.runs}")
    print(f"built in {time.monotonic() - began:.0f} s", flush=True)
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"huckley-parallel-{port}.log"
    server = start_server(env, port, args.workers, log=log, ready_path="/api/rules/")
    base = f"http://127.0.0.1:{port}"
    results: list[dict[str, Any]] = []
    try:
        for run, layouts in enumerate(built["runs"], start=1):
            for name, tables in layouts.items():
                result = {"run": run, "layout": name, **run_layout(base, tables, seed=run)}
                results.append(result)
                print(
                    f"run {run}, {name:>12}: {result['rounds']} rounds in {result['seconds']} s,"
                    f" {result['rounds_per_s']} rounds/s, {result['error_count']} errors",
                    flush=True,
                )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    names = list(built["runs"][0])
    totals = {
        name: sum(r["rounds"] for r in results if r["layout"] == name)
        / sum(r["seconds"] for r in results if r["layout"] == name)
        for name in names
    }
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "tables": args.tables,
        "workers": args.workers,
        "results": results,
        "rounds_per_s": {name: round(v, 1) for name, v in totals.items()},
        "ratio_one_to_many": round(totals[names[0]] / totals[names[1]], 2),
    }
    print(f"\nrounds/s over all runs: {report['rounds_per_s']}")
    print(f"one session / {names[1]}: {report['ratio_one_to_many']}")
    print(f"the server's log: {log}")
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    raise SystemExit(1 if any(r["error_count"] for r in results) else 0)


if __name__ == "__main__":
    main()
