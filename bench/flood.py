"""A flood of round submissions through HTTP: nothing lost, nothing twice, no 5xx.

Run: .venv/bin/python bench/flood.py  [--scorers 50] [--submissions 1000] [--workers 3]
     [--postgres URL] [--redis URL] [--json FILE]

It builds a session on PostgreSQL (`--postgres`, default
postgres://postgres@127.0.0.1:5432/huckley_flood, dropped and made afresh) with one
table for every two scorers, three games a sitting, a scorer link per table; starts
gunicorn (3 sync workers, as deploy/huckley-web.service; DEBUG off) with Redis
(`--redis`, default redis://127.0.0.1:6379/13, flushed first); then `--scorers` threads
send `--submissions` round submissions in all (not each) through the API. The two
scorers of a table race for every round, and each submission is, at random:

- a plain entry with a new Idempotency-Key (60 %);
- a duplicate: the same request twice with the same key (15 %);
- a retry after a timeout: sent with a 5 ms timeout the client gives up on, then again
  with the same key (10 %);
- a conflicting entry: other numbers for a round already stored, without a key (15 %).

At the end it reads every game back through the API and counts: rounds lost (answered
201 but not stored with those numbers), rounds duplicated (a number entered twice in a
game's change history, or stored numbers with a gap), 5xx answers, and conflicts not
answered 409 with the game's state (`game` with its round count). It prints a table
and JSON (`--json FILE` writes it too) and exits 1 on any loss, duplicate or 5xx.
docs/performance.md ("Flood") records the figures with the command and the machine.

One module on purpose: the session it builds, the scorers that drive it and the check
that reads it back are one script, run as one command; what it shares with the other
server benches (the club, the servers, their environment) is in bench/builds.py and
bench/servers.py.
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
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/huckley_flood"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
KINDS = (("plain", 60), ("duplicate", 15), ("retry", 10), ("conflict", 15))


def build(tables: int) -> dict[str, Any]:
    """Inside Django: a running session of `tables` tables of four and a scorer link each."""
    import django

    django.setup()
    from bench.builds import bench_club, running_session
    from workflow.session.simulation import generated_names
    from workflow.tables import links as table_links

    user, club, season = bench_club("flood")
    session = running_session(
        user=user,
        club=club,
        season=season,
        name="Flood night",
        names=generated_names(tables * 4),
        games=3,
        seed=11,
    )
    sitting = session.sittings.get(number=1)
    links = [
        table_links.scorer_link_create(table_id=table.pk, user=user)
        for table in sitting.tables.order_by("rank")
    ]
    from rest_framework.authtoken.models import Token

    return {
        "tables": [{"id": link.table_id, "token": link.token} for link in links],
        "director_token": Token.objects.create(user=user).key,
    }


@dataclass
class Answer:
    status: int  # 0: the client timed out
    body: dict[str, Any]
    replayed: bool = False


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    kinds: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    accepted: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    conflicts_not_409: list[str] = field(default_factory=list)
    timeouts: int = 0
    sent: int = 0


def post(base: str, path: str, body: Any, headers: dict[str, str], timeout: float) -> Answer:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            replayed = response.headers.get("Idempotent-Replayed") == "true"
            return Answer(response.status, json.loads(response.read() or b"{}"), replayed)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"raw": raw[:200].decode(errors="replace")}
        return Answer(error.code, body)
    except TimeoutError:
        return Answer(0, {})
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            return Answer(0, {})
        raise


def get(base: str, path: str, headers: dict[str, str]) -> Any:
    request = urllib.request.Request(base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class Scorer:
    """One phone at a table: learns the game from the answers and enters its rounds."""

    def __init__(self, base: str, table: dict[str, Any], share: int, seed: int, tally: Tally):
        self.base = base
        self.table_id = table["id"]
        self.headers = {"X-Scorer-Token": table["token"]}
        self.share = share
        self.rng = random.Random(seed)
        self.tally = tally
        self.game: dict[str, Any] = {}

    def load_game(self) -> bool:
        """The table's game under way; False once the sitting's games are all played."""
        table = get(self.base, f"/api/tables/{self.table_id}/", self.headers)
        open_games = [g for g in table["games"] if g["status"] != "finished"]
        if not open_games:
            return False
        self.game = get(self.base, f"/api/games/{open_games[0]['id']}/", self.headers)
        return True

    def round(self, number: int, taker: str | None = None) -> dict[str, Any]:
        players = self.game["record"]["players"]
        dealer = self.game["verdict"]["next_dealer"]
        return {
            "number": number,
            "dealer": dealer,
            "tricks": {taker or self.rng.choice(players): 5},
        }

    def send(self, body: dict[str, Any], key: str | None, timeout: float = 60) -> Answer:
        headers = dict(self.headers)
        if key:
            headers["Idempotency-Key"] = key
        answer = post(self.base, f"/api/games/{self.game['id']}/rounds/", body, headers, timeout)
        with self.tally.lock:
            self.tally.sent += 1
            self.tally.statuses[answer.status] += 1
            if answer.status >= 500:
                self.tally.server_errors.append(f"{answer.status} {answer.body}")
            if answer.status == 0:
                self.tally.timeouts += 1
            if answer.status == 201:
                where = (self.game["id"], body["number"])
                entry = {k: v for k, v in body.items() if k != "number"}
                self.tally.accepted.setdefault(where, []).append(entry)
        return answer

    def learn(self, answer: Answer) -> None:
        """Keep the game as the server last described it."""
        game = answer.body.get("game")
        if answer.status == 201 and game:
            self.game = {**self.game, **game, "verdict": answer.body["verdict"]}
        elif answer.status == 409 and game and "record" in game:
            self.game = {**self.game, **game}

    def conflict_not_409(self, answer: Answer, why: str) -> None:
        fine = answer.status == 409 and isinstance(answer.body.get("game"), dict)
        fine = fine and "round_count" in answer.body["game"]
        if not fine:
            with self.tally.lock:
                self.tally.conflicts_not_409.append(f"{why}: {answer.status} {answer.body}")

    def run(self) -> None:
        if not self.load_game():
            return
        for _ in range(self.share):
            if self.game["verdict"]["finished"] and not self.load_game():
                return
            kind = self.rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
            number = self.game["round_count"] + 1
            with self.tally.lock:
                self.tally.kinds[kind] += 1
            if kind == "conflict" and number > 1:
                # Numbers for a round already stored: the game's state, as a 409.
                answer = self.send(self.round(number - 1), None)
                self.conflict_not_409(answer, f"round {number - 1} entered again")
                self.learn(answer)
                continue
            body = self.round(number)
            key = uuid.uuid4().hex
            if kind == "retry":
                self.send(body, key, timeout=0.005)  # gives up; the server may go on
            answer = self.send(body, key)
            if kind == "duplicate":
                again = self.send(body, key)
                if again.status != answer.status or again.body != answer.body:
                    with self.tally.lock:
                        self.tally.conflicts_not_409.append(
                            f"a replay differs: {answer.status} then {again.status}"
                        )
            if answer.status == 409:
                # The other scorer at the table was first: the answer says where it stands.
                self.conflict_not_409(answer, "a race for one round")
            elif answer.status not in (201, 409):
                raise SystemExit(f"unexpected answer {answer.status}: {answer.body}")
            self.learn(answer)


def verify(base: str, built: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """Read every game back as the director: what was answered 201 is stored, once."""
    lost: list[str] = []
    duplicated: list[str] = []
    stored_rounds = 0
    headers = {"Authorization": f"Token {built['director_token']}"}
    for table in built["tables"]:
        for summary in get(base, f"/api/tables/{table['id']}/", headers)["games"]:
            game_id = summary["id"]
            rounds = get(base, f"/api/games/{game_id}/rounds/", headers)
            stored_rounds += len(rounds)
            numbers = [r["number"] for r in rounds]
            if numbers != list(range(1, len(rounds) + 1)):
                duplicated.append(f"game {game_id}: rounds {numbers}")
            changes = get(base, f"/api/games/{game_id}/changes/", headers)
            entered = Counter(c["round_number"] for c in changes if c["action"] == "enter")
            duplicated += [
                f"game {game_id} round {n} entered {k} times" for n, k in entered.items() if k > 1
            ]
            by_number = {r["number"]: {k: v for k, v in r.items() if k != "number"} for r in rounds}
            for (g, number), bodies in tally.accepted.items():
                if g != game_id:
                    continue
                for body in bodies:
                    kept = by_number.get(number)
                    if kept is None or any(kept.get(k) != v for k, v in body.items()):
                        lost.append(f"game {g} round {number}: {body} answered 201, stored {kept}")
    return {"lost": lost, "duplicated": duplicated, "stored_rounds": stored_rounds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scorers", type=int, default=50)
    parser.add_argument("--submissions", type=int, default=1000, help="in all, not each")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--redis", default=DEFAULT_REDIS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--build", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        print(json.dumps(build(args.build)))
        return

    from bench.servers import build_in_child, free_port, machine, server_env, start_server

    # LOG_LEVEL: not a line for every 409.
    env = server_env(args.postgres, args.redis, settings="huckley.settings", log_level="ERROR")
    tables = (args.scorers + 1) // 2
    began = time.monotonic()
    print(f"Building a session of {tables} tables on PostgreSQL ...", flush=True)
    built = build_in_child(__file__, env, f"--build={tables}")
    print(f"built in {time.monotonic() - began:.0f} s", flush=True)
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"huckley-flood-{port}.log"
    server = start_server(env, port, args.workers, log=log, ready_path="/api/rules/")
    base = f"http://127.0.0.1:{port}"
    tally = Tally()
    share, extra = divmod(args.submissions, args.scorers)
    scorers = [
        Scorer(base, built["tables"][i // 2], share + (i < extra), args.seed * 1000 + i, tally)
        for i in range(args.scorers)
    ]
    print(f"{args.scorers} scorers, {args.submissions} submissions ...", flush=True)
    failures: list[BaseException] = []

    def run(scorer: Scorer) -> None:
        try:
            scorer.run()
        except BaseException as exc:  # reported after the run
            failures.append(exc)

    started = time.monotonic()
    try:
        threads = [threading.Thread(target=run, args=(s,)) for s in scorers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        time.sleep(0.5)  # a request whose client gave up may still be finishing
        checked = verify(base, built, tally)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    report = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "scorers": args.scorers,
        "tables": tables,
        "submissions_planned": args.submissions,
        # Fewer when a table has played all the games of its sitting first.
        "submissions": sum(tally.kinds.values()),
        "requests_sent": tally.sent,
        "seconds": round(elapsed, 1),
        "requests_per_s": round(tally.sent / elapsed, 1),
        "kinds": dict(tally.kinds),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "client_timeouts": tally.timeouts,
        "stored_rounds": checked["stored_rounds"],
        "lost": len(checked["lost"]),
        "duplicated": len(checked["duplicated"]),
        "server_errors": len(tally.server_errors),
        "conflicts_not_409": len(tally.conflicts_not_409),
        "scorer_failures": [repr(f) for f in failures],
        "examples": (
            checked["lost"] + checked["duplicated"] + tally.server_errors + tally.conflicts_not_409
        )[:10],
    }
    print_table(report)
    print(f"the server's log: {log}")
    print(json.dumps(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    bad = report["lost"] or report["duplicated"] or report["server_errors"]
    bad = bad or report["conflicts_not_409"] or failures
    raise SystemExit(1 if bad else 0)


def print_table(report: dict[str, Any]) -> None:
    rows = [
        ("scorers x submissions", f"{report['scorers']} x {report['submissions_planned']}"),
        ("submissions made", f"{report['submissions']} ({report['kinds']})"),
        ("requests sent", report["requests_sent"]),
        ("seconds, requests/s", f"{report['seconds']}, {report['requests_per_s']}"),
        ("answers", ", ".join(f"{k}: {v}" for k, v in report["statuses"].items())),
        ("client timeouts (on purpose)", report["client_timeouts"]),
        ("rounds stored", report["stored_rounds"]),
        ("lost", report["lost"]),
        ("duplicated", report["duplicated"]),
        ("5xx", report["server_errors"]),
        ("conflicts not a 409 with the game", report["conflicts_not_409"]),
    ]
    width = max(len(label) for label, _ in rows)
    print()
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    for example in report["examples"]:
        print("  ", example)


if __name__ == "__main__":
    main()
