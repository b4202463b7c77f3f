"""The crowd after a movement: public pages under real concurrency, as ratios to a bare view.

Run: .venv/bin/python bench/load.py  [--players 1000] [--duration 10] [--clients 50,200]
     [--runs 2] [--screens 1000] [--json FILE]

It builds a session of N players (default 1000: 250 tables of 4) on PostgreSQL
(`--postgres`, default postgres://postgres@127.0.0.1:5432/huckley_load, dropped and made
afresh), plays sitting 1 (scores written directly, untimed) and confirms the movement, so
sitting 2 is under way: the minute when every player refreshes. It then starts gunicorn
(3 sync workers, as deploy/huckley-web.service; DEBUG off) on 127.0.0.1 with the Redis
cache (`--redis`, default redis://127.0.0.1:6379/14) and drives it with wrk, a C load
generator (Debian's package, installed if missing and this runs as root):

- at each client count, in each run, interleaved: the bare view (`bench/urls.py`, "ok"
  through the same middleware: the floor), find my table as the crowd asks it (a wrk
  script draws a different seated player's name for each request, as typed or in lower
  case, and the session's generation is moved just before, as a movement moves it, so
  every name and the index start cold), find my table for one name over and over (the
  store's hit path), the session board,
  the public standings, the API sitting detail, and the projector's live part answered
  with a 304 (an unchanged screen's poll);
- `--screens` connections at once on the projector's live part (open screens polling);
- the director's pages (manage, movement preview, standings, the club's pages), one
  client, sequential requests (server time, p95), with their sizes; the movement
  preview and the standings are paged, and the first page of each is measured.

Each page's requests/s is divided by the bare view's from the same run and client count,
so a noisy shared machine moves both. It prints a table and, with --json, writes every
figure. docs/performance.md records the figures with the command and the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_report import print_table, summarise
from bench.loadgen import LUA, fetch, fetch_body, wrk
from bench.servers import build_in_child, free_port, machine, server_env, start_server, stop

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_load"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def build(players: int) -> dict[str, Any]:
    """Inside Django: the session after its first movement, and what the driver needs."""
    import random

    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from bench.builds import bench_club, running_session
    from tournaments.models import Seating
    from workflow.session import movements
    from workflow.session.simulation import finish_sitting_unplayed, generated_names

    user, club, season = bench_club("bench")
    session = running_session(
        user=user,
        club=club,
        season=season,
        name="Festival",
        names=generated_names(players),
        games=2,
        seed=7,
    )
    finish_sitting_unplayed(session.sittings.get(number=1), random.Random(7))
    sitting = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=user)
    # Sitting 2 finished too (its games written directly, as sitting 1's), so that the
    # director's movement preview has 250 tables to order; the public pages show the same
    # 250 tables either way.
    finish_sitting_unplayed(sitting, random.Random(8))
    seating = Seating.objects.filter(sitting=sitting).select_related("player").order_by("pk")
    names = [s.player.name for s in seating]
    name = names[len(names) // 2]
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return {
        "session": session.pk,
        "sitting": sitting.pk,
        "name": name,
        "names": names,
        "cookie": f"sessionid={store.session_key}",
    }


def crowd_script(paths: list[str], folder: Path) -> Path:
    """A wrk script that asks for a different path each request, drawn at random (each
    thread its own draw), with the report of `wrk_report.lua`: the crowd after a
    movement, each player looking up their own name."""
    listed = ",\n".join(json.dumps(p) for p in paths)
    script = folder / "wrk_crowd.lua"
    script.write_text(
        f"local paths = {{\n{listed}\n}}\n"
        + """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args)
  math.randomseed(os.time() * 100 + (id or 0))
end
function request()
  return wrk.format(nil, paths[math.random(#paths)])
end
"""
        + LUA.read_text()
    )
    return script


def crowd_paths(pk: int, names: list[str]) -> list[str]:
    """Each seated player's own name, as typed and in lower case (as half a crowd types
    it): 2,000 different requests for 1,000 players."""
    typed = [*names, *(n.lower() for n in names)]
    return [f"/sessions/{pk}/?name={urllib.parse.quote_plus(n)}" for n in dict.fromkeys(typed)]


def new_generation(redis: str, pk: int) -> None:
    """What a movement does to the session's pages: its generation moves, so nothing kept
    of it is served again (every name is cold again, and the index is built anew)."""
    key = f"{os.environ.get('CACHE_KEY_PREFIX', 'huckley')}:1:generation:{pk}"
    subprocess.run(["redis-cli", "-u", redis, "INCR", key], check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--clients", default="50,200")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--screens", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        print(json.dumps(build(args.players)))
        return

    load_at_start = os.getloadavg()
    env = server_env(args.postgres, args.redis, settings="bench.settings", log_level="WARNING")
    print(f"Building a session of {args.players} players on PostgreSQL ...", flush=True)
    built = build_in_child(__file__, env, "--build", f"--players={args.players}")
    port = free_port()
    server = start_server(env, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    pk = built["session"]
    live_url = f"{base}/sessions/{pk}/screen/live/"
    try:
        _, live_headers = fetch(live_url)
        etag = live_headers["ETag"]
        # Every phone and browser asks for gzip; so does every request here, the bare
        # view's too (its two bytes are never compressed).
        gz = GZIP
        crowd = crowd_script(crowd_paths(pk, built["names"]), Path(tempfile.mkdtemp()))
        targets = {
            "bare view": (f"{base}/bench/ok/", gz),
            # The crowd: a different player's name each request, the session's generation
            # moved just before (a movement), so every name starts cold.
            CROWD: (f"{base}/sessions/{pk}/", gz),
            "find my table (one name)": (
                f"{base}/sessions/{pk}/?name={urllib.parse.quote(built['name'])}",
                gz,
            ),
            "session board": (f"{base}/sessions/{pk}/", gz),
            "public standings": (f"{base}/sessions/{pk}/standings/", gz),
            "API sitting detail": (f"{base}/api/sittings/{built['sitting']}/", gz),
            POLL: (live_url, {**gz, "If-None-Match": etag}),
        }
        for url, headers in targets.values():  # warm every cache once, untimed
            for _ in range(3):
                fetch(url, headers)
        if fetch(live_url, {"If-None-Match": etag})[0] != 304:
            raise SystemExit("the projector's poll did not answer 304 to its own ETag")
        clients = [int(c) for c in args.clients.split(",")]
        runs: list[dict[str, Any]] = []
        for run in range(1, args.runs + 1):
            for count in clients:
                for label, (url, headers) in targets.items():
                    print(f"run {run}, {count} clients: {label}", flush=True)
                    if label == CROWD:
                        new_generation(args.redis, pk)
                    result = wrk(
                        url,
                        clients=count,
                        seconds=args.duration,
                        headers=headers,
                        script=crowd if label == CROWD else LUA,
                    )
                    if label == CROWD:
                        # The other pages are measured warm, as before: build them again
                        # at the new generation, untimed.
                        for other, (page_url, page_headers) in targets.items():
                            if other != CROWD:
                                fetch(page_url, page_headers)
                        # The projector's poll asks with the ETag of the new generation,
                        # so that it is answered 304, as an open screen's is.
                        _, live_headers = fetch(live_url)
                        etag = live_headers["ETag"]
                        targets[POLL] = (live_url, {**gz, "If-None-Match": etag})
                        if fetch(live_url, {"If-None-Match": etag})[0] != 304:
                            raise SystemExit("the projector's poll did not answer 304")
                    runs.append({"run": run, "clients": count, "page": label, **result})
        print(f"{args.screens} open screens polling the projector ...", flush=True)
        screens = wrk(
            live_url, clients=args.screens, seconds=args.duration, headers={"If-None-Match": etag}
        )
        director = directors_pages(base, pk, built["cookie"], seconds=min(args.duration, 8))
    finally:
        stop(server)

    summary = summarise(runs)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "load_average_at_start": load_at_start,
        "load_average": os.getloadavg(),
        "players": args.players,
        "duration_s": args.duration,
        "summary": summary,
        "screens": {"connections": args.screens, **screens},
        "director_sequential": director,
        "runs": runs,
    }
    print_table(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


GZIP = {"Accept-Encoding": "gzip"}
CROWD = "find my table (a different name each request)"
POLL = "projector poll (304)"

DIRECTOR_PAGES = {
    "manage": "/director/sessions/{pk}/",
    # Their first page (25 of the 250 tables, 100 of the 1,000 rows); every page costs
    # the same, joined from rows rendered once per change of the session.
    "movement preview (page 1)": "/director/sessions/{pk}/movement/",
    "standings (signed in, page 1)": "/sessions/{pk}/standings/",
    "tables (signed in)": "/sessions/{pk}/",
    "club home": "/director/clubs/bench/",
    "club players": "/director/clubs/bench/players/",
    "club sessions": "/director/clubs/bench/sessions/",
    "club season page": "/clubs/bench/",
}


def directors_pages(base: str, pk: int, cookie: str, *, seconds: int) -> list[dict[str, Any]]:
    """Each director's page at 1,000 players: one client, one request after another (the
    p95 of sequential requests is the server's time plus a local round trip)."""
    rows = []
    for label, path in DIRECTOR_PAGES.items():
        url = base + path.format(pk=pk)
        print(f"director, sequential: {label}", flush=True)
        # As a browser asks: the page's size, and the bytes it costs on the wire.
        plain = fetch_body(url, {"Cookie": cookie})
        status, _, sent = fetch_body(url, {"Cookie": cookie, **GZIP})
        result = wrk(url, clients=1, seconds=seconds, headers={"Cookie": cookie, **GZIP})
        rows.append(
            {
                "page": label,
                "status": status,
                "kib": round(len(plain[2]) / 1024),
                "sent_kib": round(len(sent) / 1024),
                **result,
            }
        )
    return rows


if __name__ == "__main__":
    main()
