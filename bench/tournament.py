"""Tournament throughput at club-festival size: seating, movement and the public pages.

Run: .venv/bin/python bench/tournament.py  [--players 1000] [--repeat 200] [--runs 5]

For N players (default 1000, which makes 250 tables of 4) on SQLite and on PostgreSQL,
each in its own subprocess and database, it times:

- create + seat: `services.session_create` (roster of N new players), checking everyone
  in, and `start_finish.session_start` (the split, 250 tables, seatings, and game 1 with its
  first-dealer draw at every table);
- one movement: `movements.sitting_move_players` after sitting 1 (preview, placings,
  sitting 2 with its tables, seatings and first games). The sitting's games are finished
  beforehand, untimed, by writing scores directly
  (`workflow.session.simulation.finish_sitting_unplayed`), not by playing them through the
  engine;
- the public pages "all tables" (`/sessions/<pk>/`) and "find my table"
  (`/sessions/<pk>/?name=<full name>`), served in-process by Django's test Client after
  the movement (sitting 2 under way): median, p95 and min over `--repeat` requests.

Create+seat and movement run `--runs` times, each on a fresh club (so every run creates
its N players), after one untimed warm-up run whose queries are counted; the figure is
the median. Pages get 5 warm-up requests, then `--repeat` timed ones, then one counted
one. Beside wall-clock time it reports the CPU time of the benchmark process ("CPU med"),
which other load on the machine inflates much less; for PostgreSQL it leaves out the
server's own work.

Each backend runs with DEBUG=0, so Django keeps no query log; statements are counted
with a `connection.execute_wrapper` in the counted runs only. SQLite uses a temporary
file; PostgreSQL uses `--postgres` (default
postgres://postgres@127.0.0.1:5432/huckley_bench), dropped and created afresh each run, and
is skipped with the reason printed when the server cannot be reached.
`--profile` adds the top functions of a cProfile run of each measured step to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_bench"
TARGETS = {"seat_s": 1.0, "move_s": 1.0, "page_ms": 50.0}


# Worker: one backend, in a subprocess whose environment picks the database ------------


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def _profile(label: str, work: Any) -> Any:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    result = profiler.runcall(work)
    print(f"\n--- cProfile: {label} ---", file=sys.stderr)
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    return result


def worker(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")
    import django

    django.setup()

    import random
    from datetime import date

    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from tournaments.models import Club, Season, Seating, Session
    from tournaments.permissions import SYSTEM
    from workflow.session import movements, services, start_finish
    from workflow.session.simulation import finish_sitting_unplayed as fake_results
    from workflow.session.simulation import generated_names

    assert not settings.DEBUG, "run the worker with DEBUG=0"

    class CountQueries:
        """Counts every statement sent to the database (no cap, unlike the debug log)."""

        def __init__(self) -> None:
            self.count = 0

        def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            self.count += 1
            return execute(sql, params, many, context)

        def __enter__(self) -> CountQueries:
            self._cm = connection.execute_wrapper(self)
            self._cm.__enter__()
            return self

        def __exit__(self, *exc: Any) -> None:
            self._cm.__exit__(*exc)

    call_command("migrate", verbosity=0)

    names = generated_names(args.players)
    # The pages are for anonymous visitors, so the session is public where the app knows
    # the setting (sessions are private by default since scorer links and roles).
    visibility = (
        {"is_public": True}
        if "is_public" in inspect.signature(services.session_create).parameters
        else {}
    )
    made = {"clubs": 0}

    def new_club() -> tuple[Club, Season]:
        made["clubs"] += 1
        n = made["clubs"]
        club = Club.objects.create(name=f"Bench club {n}", slug=f"bench-{n}")
        season = Season.objects.create(
            club=club, name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
        )
        return club, season

    def create_and_seat(
        club: Club, season: Season, queries: dict[str, int] | None = None
    ) -> tuple[Session, dict[str, float]]:
        """Times (and, given `queries`, counts the statements of) each step."""
        counters = {k: CountQueries() for k in ("create", "check_in", "start")}
        spans: dict[str, float] = {}
        cpu0 = time.process_time()

        def step(key: str, work: Any) -> Any:
            counter = counters[key] if queries is not None else contextlib.nullcontext()
            with counter:
                t0 = time.perf_counter()
                result = work()
                spans[key] = time.perf_counter() - t0
            return result

        session = step(
            "create",
            lambda: services.session_create(
                club=club,
                season=season,
                name="Festival",
                date=date(2026, 6, 1),
                rules_id="huckley-buck",
                games_per_sitting=2,
                new_names=names,
                seed=1234,
                user=SYSTEM,
                **visibility,
            ),
        )
        step("check_in", lambda: session.entries.update(checked_in=True))
        step("start", lambda: start_finish.session_start(session_id=session.pk, user=SYSTEM))
        spans["total"] = sum(spans.values())
        spans["cpu"] = time.process_time() - cpu0
        if queries is not None:
            queries.update({k: c.count for k, c in counters.items()})
        return session, spans

    def move(session: Session) -> tuple[float, float]:
        """(wall seconds, CPU seconds of this process) of one movement."""
        t0, c0 = time.perf_counter(), time.process_time()
        movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
        return time.perf_counter() - t0, time.process_time() - c0

    # Warm-up run, with its queries counted (not part of the timed figures).
    club, season = new_club()
    seat_q: dict[str, int] = {}
    session, _ = create_and_seat(club, season, seat_q)
    fake_results(session.sittings.get(number=1), random.Random(1))
    with CountQueries() as move_q:
        move(session)

    seat_runs: list[dict[str, float]] = []
    move_runs: list[tuple[float, float]] = []
    for run in range(args.runs):
        club, season = new_club()
        session, phases = create_and_seat(club, season)
        seat_runs.append(phases)
        fake_results(session.sittings.get(number=1), random.Random(run + 2))
        move_runs.append(move(session))

    if args.profile:
        club, season = new_club()
        session, _ = _profile("create + seat", lambda: create_and_seat(club, season))
        fake_results(session.sittings.get(number=1), random.Random(99))
        _profile("movement", lambda: move(session))

    # Pages on the last session, now in sitting 2 (game 1 under way at every table).
    tables = session.sittings.get(number=2).tables.count()
    seated = Seating.objects.filter(sitting__session=session, sitting__number=2).count()
    client = Client()
    url = f"/sessions/{session.pk}/"
    rng = random.Random(5)
    pages: dict[str, Any] = {}
    for page, make_url in (
        ("all_tables", lambda: url),
        ("find_my_table", lambda: f"{url}?name={rng.choice(names).replace(' ', '+')}"),
    ):
        for _ in range(5):
            assert client.get(make_url()).status_code == 200
        times, cpu = [], []
        size = 0
        for _ in range(args.repeat):
            target = make_url()
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(target)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            assert response.status_code == 200, response.status_code
            size = len(response.content)
        with CountQueries() as page_q:
            client.get(make_url())
        if args.profile:
            probe = make_url()
            _profile(f"page {page} {probe}", lambda probe=probe: client.get(probe))
        pages[page] = {
            "median_ms": _median(times) * 1000,
            "p95_ms": _p95(times) * 1000,
            "min_ms": min(times) * 1000,
            "cpu_median_ms": _median(cpu) * 1000,
            "queries": page_q.count,
            "bytes": size,
        }

    vendor = connection.vendor
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            version = f"PostgreSQL {cursor.fetchone()[0]}"
    else:
        import sqlite3

        version = f"SQLite {sqlite3.sqlite_version}"
    return {
        "backend": vendor,
        "version": version,
        "players": args.players,
        "tables": tables,
        "seated": seated,
        "runs": args.runs,
        "repeat": args.repeat,
        "seat_s": _median([r["total"] for r in seat_runs]),
        "seat_phases_s": {
            k: _median([r[k] for r in seat_runs]) for k in ("create", "check_in", "start")
        },
        "seat_cpu_s": _median([r["cpu"] for r in seat_runs]),
        "seat_queries": sum(seat_q.values()),
        "seat_phase_queries": seat_q,
        "seat_runs_s": [r["total"] for r in seat_runs],
        "move_s": _median([wall for wall, _ in move_runs]),
        "move_cpu_s": _median([c for _, c in move_runs]),
        "move_queries": move_q.count,
        "move_runs_s": move_runs,
        "pages": pages,
    }


# Parent: prepares the databases, runs one worker per backend, prints the table ---------


def prepare_postgres(url: str) -> str | None:
    """Drop and create the bench database; the reason it cannot be used, or None."""
    try:
        import dj_database_url
        import psycopg
        from psycopg import sql
    except ImportError as e:
        return f"psycopg or dj-database-url missing ({e})"
    cfg = dj_database_url.parse(url)
    name = cfg["NAME"]
    try:
        with psycopg.connect(
            host=cfg.get("HOST") or None,
            port=cfg.get("PORT") or None,
            user=cfg.get("USER") or None,
            password=cfg.get("PASSWORD") or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=5,
        ) as conn:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            conn.execute(drop.format(sql.Identifier(name)))
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.Error as e:
        return f"cannot reach or prepare PostgreSQL at {url}: {str(e).strip().splitlines()[0]}"
    return None


def run_worker(args: argparse.Namespace, env_overrides: dict[str, str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SQLITE_PATH"}}
    env.update({"DJANGO_SETTINGS_MODULE": "huckley.settings", "DEBUG": "0", "LOG_LEVEL": "WARNING"})
    env.pop("REDIS_URL", None)
    env.update(env_overrides)
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        f"--players={args.players}",
        f"--repeat={args.repeat}",
        f"--runs={args.runs}",
    ] + (["--profile"] if args.profile else [])
    proc = subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"worker failed ({proc.returncode}) with {env_overrides}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def ram_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def code_version() -> str:
    """The commit the measured code is at, and whether app code differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "status",
                "--porcelain",
                "--",
                "tournaments",
                "scoring",
                "huckley",
                "engine",
                "templates",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown (no git)"
    if not head:
        return "unknown (not a git checkout)"
    return f"{head}{' with uncommitted app changes' if dirty else ''}"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def verdict(value: float, target: float) -> str:
    return "meets" if value < target else "MISSES"


def report(results: list[dict[str, Any]]) -> None:
    head = f"  {'':15}{'median':>10}{'p95':>10}{'min':>10}{'CPU med':>10}{'queries':>9}  target"
    for r in results:
        print(
            f"\n{r['version']}: {r['players']} players, {r['tables']} tables "
            f"({r['seated']} seated in sitting 2); writes: median of {r['runs']} runs; "
            f"pages: {r['repeat']} requests"
        )
        print(head)
        for label, wall, cpu, queries, key in (
            ("create + seat", r["seat_s"], r["seat_cpu_s"], r["seat_queries"], "seat_s"),
            ("one movement", r["move_s"], r["move_cpu_s"], r["move_queries"], "move_s"),
        ):
            target = TARGETS[key]
            print(
                f"  {label:15}{wall:>8.3f} s{'':20}{cpu:>8.3f} s{queries:>9}  "
                f"< {target:.0f} s: {verdict(wall, target)}"
            )
        ph, pq = r["seat_phases_s"], r["seat_phase_queries"]
        print(
            f"  {'':15}(create {ph['create']:.3f} s / {pq['create']} queries, "
            f"check-in {ph['check_in']:.3f} s / {pq['check_in']}, "
            f"start {ph['start']:.3f} s / {pq['start']})"
        )
        target = TARGETS["page_ms"]
        for key, label in (("all_tables", "all tables"), ("find_my_table", "find my table")):
            p = r["pages"][key]
            print(
                f"  {label:15}{p['median_ms']:>7.1f} ms{p['p95_ms']:>7.1f} ms{p['min_ms']:>7.1f} ms"
                f"{p['cpu_median_ms']:>7.1f} ms{p['queries']:>9}  < {target:.0f} ms: "
                f"median {verdict(p['median_ms'], target)}, "
                f"p95 {verdict(p['p95_ms'], target)} ({p['bytes'] / 1024:.0f} KiB page)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per page")
    parser.add_argument("--runs", type=int, default=5, help="timed create+seat+move runs")
    parser.add_argument("--postgres", default=DEFAULT_PG, help="PostgreSQL URL for the bench")
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--profile", action="store_true", help="cProfile each step to stderr")
    parser.add_argument("--json", action="store_true", help="also print the raw results")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(worker(args)))
        return

    print(
        f"python {platform.python_version()}, nproc {os.cpu_count()}, cpu {cpu_model()}, "
        f"RAM {ram_gib()}, load average {load()}"
    )
    print(f"code {code_version()} in {ROOT}")
    results = []
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if "sqlite" in backends:
        tmp = tempfile.mkdtemp(prefix="huckley-bench-")
        try:
            results.append(run_worker(args, {"SQLITE_PATH": str(Path(tmp) / "bench.sqlite3")}))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if "postgres" in backends:
        reason = prepare_postgres(args.postgres)
        if reason:
            print(f"\nPostgreSQL skipped: {reason}")
        else:
            results.append(run_worker(args, {"DATABASE_URL": args.postgres}))
    report(results)
    print(f"\nload average at the end {load()}")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
