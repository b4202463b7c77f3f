"""The room races: scorers entering rounds while directors confirm the movement, undo it,
correct rounds and restore the corrections, all at once, through gunicorn on PostgreSQL
and Redis. Nothing may answer 5xx, nothing answered 201 may be lost, nothing stored twice.

Run: .venv/bin/python bench/room.py  [--scorers 20] [--directors 2] [--seconds 25]
     [--workers 3] [--postgres URL] [--redis URL] [--json FILE]

It builds a running session on PostgreSQL (`--postgres`, default
postgres://postgres@127.0.0.1:5432/huckley_room, dropped and made afresh) of one table
for every two scorers, two games a sitting, and starts gunicorn (3 sync workers, DEBUG
off) with Redis (`--redis`, default redis://127.0.0.1:6379/15, flushed first). For
`--seconds`:

- each scorer plays at the table of its rank in the current sitting (the two scorers of a
  table race for every round), with a scorer link for that table (handed out through the
  API as a director would when the tables change); it enters the next round of the
  table's game under way with a new Idempotency-Key, and when its table has played its
  sitting it waits for the movement;
- each director, at random, confirms the movement of the current sitting (and half the
  time undoes it at once), undoes the last one, corrects a round (another player takes
  the tricks, without confirming), or restores a correction, with a short pause between.

Every answer is counted by status. At the end it reads the rows back and counts rounds
**lost** (answered 201 and neither in the game's history as entered with those numbers
nor among the rounds a correction took off with the next game) and **duplicated** (a
round number entered twice in a game, or stored numbers with a gap). It prints a table
and JSON and exits 1 on any 5xx, lost or duplicated round, or a client failure.
docs/performance.md ("The room races") has a run; `.ci/run` runs a small one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_room"
DEFAULT_REDIS = "redis://127.0.0.1:6379/15"
DIRECTOR_ACTIONS = (("movement", 35), ("undo", 15), ("correct", 25), ("restore", 25))


def build(tables: int) -> dict[str, Any]:
    """Inside Django: a running session of `tables` tables of four."""
    import django

    django.setup()
    from rest_framework.authtoken.models import Token

    from bench.builds import bench_club, running_session
    from workflow.session.simulation import generated_names

    user, club, season = bench_club("room")
    session = running_session(
        user=user,
        club=club,
        season=season,
        name="Racing night",
        names=generated_names(tables * 4),
        games=2,
        seed=13,
    )
    return {"session": session.pk, "director_token": Token.objects.create(user=user).key}


def verify(accepted_file: str) -> dict[str, Any]:
    """Inside Django: every round answered 201 is kept (or was taken off by a correction
    with its game, and kept in that correction's history), and none is stored twice."""
    import django

    django.setup()
    from scoring.models import Game, RoundChange

    accepted = json.loads(Path(accepted_file).read_text())
    lost: list[str] = []
    duplicated: list[str] = []
    games = {g.pk: g for g in Game.objects.all()}
    entered: dict[tuple[int, int], list[Any]] = {}
    for change in RoundChange.objects.filter(action=RoundChange.Action.ENTER):
        entered.setdefault((change.game_id, change.round_number), []).append(change.after)
    taken_off: dict[tuple[int, int], list[Any]] = {}
    for change in RoundChange.objects.filter(removed__isnull=False).select_related("game"):
        removed = change.removed or {}
        key = (change.game.table_id, removed.get("game"))
        taken_off.setdefault(key, []).extend(removed.get("rounds") or [])
    for (game_id, number), afters in entered.items():
        if len(afters) > 1:
            duplicated.append(f"game {game_id} round {number} entered {len(afters)} times")
    for game in games.values():
        numbers = list(game.rounds.order_by("number").values_list("number", flat=True))
        if numbers != list(range(1, len(numbers) + 1)) or len(numbers) != game.round_count:
            duplicated.append(f"game {game.pk}: rounds {numbers}, round_count {game.round_count}")
    for item in accepted:
        data = item["data"]
        if item["game"] in games:
            if data not in entered.get((item["game"], item["number"]), []):
                lost.append(f"game {item['game']} round {item['number']}: {data}")
        elif data not in taken_off.get((item["table"], item["game_number"]), []):
            lost.append(f"game {item['game']} (gone) round {item['number']}: {data}")
    return {
        "lost": lost,
        "duplicated": duplicated,
        "stored_rounds": sum(g.round_count for g in games.values()),
    }


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    accepted: list[dict[str, Any]] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def count(self, what: str, status: int, body: Any) -> None:
        with self.lock:
            self.statuses[f"{what} {status}"] += 1
            if status >= 500:
                self.server_errors.append(f"{what} {status} {str(body)[:200]}")


def call(
    base: str, method: str, path: str, headers: dict[str, str], body: Any = None
) -> tuple[int, Any]:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw or b"null")
        except ValueError:
            return error.code, raw[:200].decode(errors="replace")


class Room:
    def __init__(self, base: str, built: dict[str, Any], tally: Tally, deadline: float):
        self.base = base
        self.session = built["session"]
        self.director = {"Authorization": f"Token {built['director_token']}"}
        self.tally = tally
        self.deadline = deadline
        self.links: dict[int, str] = {}
        self.links_lock = threading.Lock()

    def get(self, path: str, *, gone_ok: bool = False) -> Any:
        """The director's GET; with `gone_ok`, None for a 404 (the other director's undo
        took that sitting's table or game away meanwhile)."""
        status, body = call(self.base, "GET", path, self.director)
        if status == 404 and gone_ok:
            return None
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body}")
        return body

    def current_tables(self) -> tuple[int, list[dict[str, Any]]]:
        while True:
            sitting = self.get(f"/api/sessions/{self.session}/")["current_sitting"]
            path = f"/api/sittings/{sitting['id']}/"
            status, detail = call(self.base, "GET", path, self.director)
            if status == 200:
                return detail["number"], detail["tables"]
            if status != 404:  # 404: an undo took that sitting away meanwhile; look again
                raise RuntimeError(f"GET {path}: {status} {detail}")

    def link(self, table_id: int) -> str:
        """The table's scorer link, handed out once, as the director would."""
        with self.links_lock:
            if table_id not in self.links:
                status, body = call(
                    self.base, "POST", f"/api/tables/{table_id}/scorer-links/", self.director, {}
                )
                if status != 201:
                    raise LookupError(f"{status} {body}")
                self.links[table_id] = body["token"]
            return self.links[table_id]

    def scorer(self, rank: int, rng: random.Random) -> None:
        game: dict[str, Any] | None = None  # the game under way, as the last answer left it
        while time.monotonic() < self.deadline:
            if game is None:
                game = self.find_game(rank)
                if game is None:  # the table has played its sitting: the movement is next
                    time.sleep(0.2)
                    continue
            players = game["record"]["players"]
            # One of two players takes every trick: a game is over in three to five rounds,
            # so the tables reach the movement within the run.
            taker = rng.choice(players[:2])
            data = {"dealer": game["verdict"]["next_dealer"], "tricks": {taker: 5}}
            number = game["round_count"] + 1
            key = {"Idempotency-Key": uuid.uuid4().hex}
            status, body = call(
                self.base,
                "POST",
                f"/api/games/{game['id']}/rounds/",
                {**game["headers"], **key},
                {"number": number, **data},
            )
            self.tally.count("round", status, body)
            if status == 201:
                with self.tally.lock:
                    self.tally.accepted.append(
                        {
                            "game": game["id"],
                            "game_number": game["number"],
                            "table": game["table"],
                            "number": number,
                            "data": data,
                        }
                    )
                if body["verdict"]["finished"]:
                    game = None
                else:
                    game["round_count"], game["verdict"] = number, body["verdict"]
            else:  # another scorer was first, or the game or the sitting changed: look again
                game = None

    def find_game(self, rank: int) -> dict[str, Any] | None:
        """The game under way at the table of this rank in the current sitting."""
        _, tables = self.current_tables()
        table = next((t for t in tables if t["rank"] == rank), None)
        if table is None or table["current_game"] is None:
            return None
        try:
            headers = {"X-Scorer-Token": self.link(table["id"])}
        except LookupError:  # the sitting moved on meanwhile
            return None
        status, game = call(self.base, "GET", f"/api/games/{table['current_game']}/", headers)
        if status != 200 or game["status"] == "finished":
            return None
        return {**game, "headers": headers, "table": table["id"]}

    def director_loop(self, rng: random.Random) -> None:
        names = [n for n, _ in DIRECTOR_ACTIONS]
        weights = [w for _, w in DIRECTOR_ACTIONS]
        while time.monotonic() < self.deadline:
            action = rng.choices(names, weights)[0]
            getattr(self, action)(rng)
            time.sleep(rng.uniform(0.1, 0.4))

    def post(self, what: str, path: str, body: Any = None, method: str = "POST") -> int:
        key = {"Idempotency-Key": uuid.uuid4().hex}
        status, answer = call(self.base, method, path, {**self.director, **key}, body or {})
        self.tally.count(what, status, answer)
        return status

    def movement(self, rng: random.Random) -> None:
        number, _ = self.current_tables()
        path = f"/api/sessions/{self.session}/movement/"
        if self.post("movement", path, {"sitting": number}) == 201 and rng.random() < 0.5:
            # A director who confirmed too soon takes it back at once, while the scorers
            # start on the new sitting's first rounds.
            self.undo(rng)

    def undo(self, rng: random.Random) -> None:
        self.post("undo", f"/api/sessions/{self.session}/movement/undo/")

    def _a_game(self, rng: random.Random) -> dict[str, Any] | None:
        _, tables = self.current_tables()
        table = self.get(f"/api/tables/{rng.choice(tables)['id']}/", gone_ok=True)
        games = [g for g in table["games"] if g["round_count"]] if table else []
        return self.get(f"/api/games/{rng.choice(games)['id']}/", gone_ok=True) if games else None

    def correct(self, rng: random.Random) -> None:
        game = self._a_game(rng)
        if game is None:
            return
        number = rng.randrange(1, game["round_count"] + 1)
        stored = game["record"]["rounds"][number - 1]
        data = {**stored, "tricks": {rng.choice(game["record"]["players"]): 5}}
        self.post("correct", f"/api/games/{game['id']}/rounds/{number}/", data, method="PUT")

    def restore(self, rng: random.Random) -> None:
        game = self._a_game(rng)
        if game is None:
            return
        changes = self.get(f"/api/games/{game['id']}/changes/", gone_ok=True) or []
        open_ = [c for c in changes if c["action"] in ("edit", "delete") and not c["restored_at"]]
        if open_:
            change = rng.choice(open_)["id"]
            self.post("restore", f"/api/games/{game['id']}/changes/{change}/restore/")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scorers", type=int, default=20)
    parser.add_argument("--directors", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=25)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--verify", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        print(json.dumps(build(args.build)))
        return
    if args.verify:
        print(json.dumps(verify(args.verify)))
        return

    from bench.servers import build_in_child, free_port, machine, server_env, start_server

    env = server_env(args.postgres, args.redis, settings="huckley.settings", log_level="ERROR")
    tables = (args.scorers + 1) // 2
    print(f"Building a session of {tables} tables on PostgreSQL ...", flush=True)
    built = build_in_child(__file__, env, f"--build={tables}")
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"huckley-room-{port}.log"
    server = start_server(env, port, args.workers, log=log, ready_path="/api/rules/")
    tally = Tally()
    room = Room(f"http://127.0.0.1:{port}", built, tally, time.monotonic() + args.seconds)
    print(f"{args.scorers} scorers and {args.directors} directors for {args.seconds} s ...")

    def guarded(work: Any, *work_args: Any) -> None:
        try:
            work(*work_args)
        except Exception as exc:  # reported after the run
            with tally.lock:
                tally.failures.append(repr(exc))

    threads = [
        threading.Thread(
            target=guarded, args=(room.scorer, i // 2 + 1, random.Random(args.seed * 100 + i))
        )
        for i in range(args.scorers)
    ] + [
        threading.Thread(
            target=guarded, args=(room.director_loop, random.Random(args.seed * 1000 + i))
        )
        for i in range(args.directors)
    ]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(0.5)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as accepted:
        json.dump(tally.accepted, accepted)
    checked = build_in_child(__file__, env, f"--verify={accepted.name}")
    os.unlink(accepted.name)
    statuses = dict(sorted(tally.statuses.items()))
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "scorers": args.scorers,
        "directors": args.directors,
        "tables": tables,
        "seconds": args.seconds,
        "answers": statuses,
        "entries": sum(v for k, v in statuses.items() if k.startswith("round ")),
        "rounds_accepted": len(tally.accepted),
        "stored_rounds": checked["stored_rounds"],
        "conflicts": sum(v for k, v in statuses.items() if k.endswith(" 409")),
        "server_errors": len(tally.server_errors),
        "lost": len(checked["lost"]),
        "duplicated": len(checked["duplicated"]),
        "client_failures": tally.failures[:5],
        "examples": (tally.server_errors + checked["lost"] + checked["duplicated"])[:10],
    }
    rows = [
        ("entries sent", report["entries"]),
        ("entries stored (201)", report["rounds_accepted"]),
        ("rounds stored at the end", report["stored_rounds"]),
        ("conflicts (409)", report["conflicts"]),
        ("5xx", report["server_errors"]),
        ("lost", report["lost"]),
        ("duplicated", report["duplicated"]),
        ("answers", ", ".join(f"{k}: {v}" for k, v in statuses.items())),
    ]
    print()
    for label, value in rows:
        print(f"{label:<26}  {value}")
    for example in report["examples"] + report["client_failures"]:
        print("  ", example)
    print(f"the server's log: {log}")
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    bad = report["server_errors"] or report["lost"] or report["duplicated"] or tally.failures
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
