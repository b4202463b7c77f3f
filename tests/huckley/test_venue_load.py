"""SQLite in venue mode under 20 concurrent scorers (docs/operations.md, "Venue backups and
restore"): the venue's production server (the ASGI application under gunicorn's uvicorn
workers, huckley/venue.py, DEBUG off)
on a SQLite file in WAL mode, and 20 scorers entering the rounds of their own tables
through the API at once, each retrying some rounds with the same Idempotency-Key (a
phone whose answer was lost) and re-sending some without one (a double tap). No scorer
may see a 5xx or "database is locked"; every round stored exactly once.

Needs only Python, so it runs under `make test`: about 20 s on a busy 2-core machine, half
of it preparing the SQLite file (copied from the suite's migrated test database on
SQLite, migrated afresh when the suite runs on PostgreSQL) and starting gunicorn.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

import engine
from huckley.venue import _server_command
from tests.servers import free_ports, serving, venue_env

ROOT = Path(__file__).resolve().parents[2]
SCORERS = 20
SECONDS = 6.0

# Run in a subprocess on the fresh SQLite file: migrate it and start a session of 80
# players (20 tables of four), with a scorer link per table.
SETUP = """
import json
from datetime import date
from django.contrib.auth import get_user_model
from django.core.management import call_command
from workflow.session import services
from workflow.tables import links as table_links
from workflow.session import start_finish
from tournaments.models import Club
from workflow.session.simulation import ensure_season, generated_names
call_command("migrate", verbosity=0)
user = get_user_model().objects.create_user("dee")
club = Club.objects.create(name="Hall", slug="hall")
club.directors.add(user)
session = services.session_create(
    club=club, season=ensure_season(club, 2026), name="Load night", date=date(2026, 11, 23),
    rules_id="huckley-buck", games_per_sitting=3, new_names=generated_names(PLAYERS), seed=3,
    is_public=True, double_entry=False, user=user,
)
session.entries.update(checked_in=True)
sitting = start_finish.session_start(session_id=session.pk, user=user)
links = [
    {"table": t.pk, "token": table_links.scorer_link_create(table_id=t.pk, user=user).token}
    for t in sitting.tables.order_by("rank")
]
print(json.dumps(links))
""".replace("PLAYERS", str(SCORERS * 4))


@pytest.fixture(scope="module")
def venue(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None
) -> Iterator[tuple[str, Path, list[Any]]]:
    home = tmp_path_factory.mktemp("venue-load")
    (port,) = free_ports(1)
    env = venue_env(home, port, HUCKLEY_VENUE="1")
    database = Path(env["SQLITE_PATH"])
    if connection.vendor == "sqlite":
        # The suite's own test database is migrated and empty between tests: copying it
        # spares the setup ten seconds of migrating a new file.
        source = sqlite3.connect(connection.settings_dict["NAME"])
        with sqlite3.connect(database) as target:
            source.backup(target)
        source.close()
    setup = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SETUP],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert setup.returncode == 0, setup.stderr
    links = json.loads(setup.stdout.strip().splitlines()[-1])
    base = f"http://127.0.0.1:{port}"
    server = _server_command(port, workers=3)
    # SIGINT: gunicorn's quick shutdown, the test is over.
    with serving(server, env, f"{base}/api/rules/", stop_signal=signal.SIGINT):
        yield base, database, links


class Scorer:
    """One phone at one table: enters its games' rounds, one after the other."""

    def __init__(self, base: str, table: int, token: str, seed: int) -> None:
        self.base, self.table, self.token = base, table, token
        self.rng = random.Random(seed)
        self.stored: dict[int, list[dict[str, Any]]] = {}  # game id -> rounds given a 201
        self.replays = self.double_taps = 0
        self.failures: list[str] = []
        self.latencies: list[float] = []

    def call(self, method: str, path: str, body: Any = None, key: str = "") -> tuple[int, Any]:
        headers = {"X-Scorer-Token": self.token, "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read().decode()
                replayed = response.headers.get("Idempotent-Replayed") == "true"
        except urllib.error.HTTPError as error:
            status, text, replayed = error.code, error.read().decode(), False
        self.latencies.append(time.monotonic() - started)
        if status >= 500 or "database is locked" in text:
            self.failures.append(f"{method} {path}: {status} {text[:200]}")
        return status, {"replayed": replayed, **json.loads(text)} if text else {}

    def play(self, until: float) -> None:
        while time.monotonic() < until:
            _, table = self.call("GET", f"/api/tables/{self.table}/")
            playing = [g for g in table["games"] if g["status"] == "playing"]
            if not playing:
                return
            game = playing[-1]["id"]
            _, detail = self.call("GET", f"/api/games/{game}/")
            record = detail["record"]
            played = engine.simulate(
                record["rules"],
                record["players"],
                seed=self.rng.getrandbits(32),
                first_dealer=record["first_dealer"],
            )
            for number, fields in enumerate(played["rounds"], start=1):
                if time.monotonic() >= until:
                    return
                self.enter(game, number, fields)

    def enter(self, game: int, number: int, fields: dict[str, Any]) -> None:
        body = {"number": number, **fields}
        path = f"/api/games/{game}/rounds/"
        key = str(uuid.uuid4())
        status, answer = self.call("POST", path, body, key)
        if status != 201 or answer["replayed"]:
            self.failures.append(f"round {number} of game {game}: {status} {answer}")
            return
        self.stored.setdefault(game, []).append(body)
        roll = self.rng.random()
        if roll < 0.2:  # the answer was lost: the phone sends the same request again
            status, answer = self.call("POST", path, body, key)
            if (status, answer["replayed"]) != (201, True):
                self.failures.append(f"retry of round {number}: {status} {answer}")
            self.replays += 1
        elif roll < 0.3:  # a double tap without a key: the round is already in
            status, answer = self.call("POST", path, body)
            if (status, answer.get("code")) != (409, "round_number_taken"):
                self.failures.append(f"double tap on round {number}: {status} {answer}")
            self.double_taps += 1


def test_twenty_scorers_at_once_on_sqlite_lose_nothing_and_never_see_locked(
    venue: tuple[str, Path, list[Any]],
) -> None:
    base, database, links = venue
    scorers = [Scorer(base, link["table"], link["token"], seed=i) for i, link in enumerate(links)]
    assert len(scorers) == SCORERS
    start = threading.Barrier(SCORERS)
    errors: list[BaseException] = []

    def run(scorer: Scorer) -> None:
        try:
            start.wait(timeout=30)
            scorer.play(until=time.monotonic() + SECONDS)
        except BaseException as error:  # reported on the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(s,)) for s in scorers]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 60)
    elapsed = time.monotonic() - began
    assert not errors, errors
    failures = [f for s in scorers for f in s.failures]
    assert failures == []

    # Nothing lost, nothing twice: the file holds exactly the rounds that got a 201.
    with sqlite3.connect(database) as db:
        stored = db.execute("SELECT game_id, number, data FROM scoring_round").fetchall()
    in_file: dict[int, dict[int, Any]] = {}
    for game, number, data in stored:
        assert number not in in_file.setdefault(game, {}), (game, number)
        in_file[game][number] = json.loads(data)
    sent = {game: rounds for s in scorers for game, rounds in s.stored.items()}
    assert sorted(in_file) == sorted(sent)
    for game, rounds in sent.items():
        assert sorted(in_file[game]) == list(range(1, len(rounds) + 1))
    rounds = sum(len(r) for r in sent.values())
    writes = rounds + sum(s.replays + s.double_taps for s in scorers)
    latencies = sorted(t for s in scorers for t in s.latencies)
    assert all(s.stored for s in scorers), "a scorer never got a round in"
    p95 = latencies[int(len(latencies) * 0.95)]
    print(
        f"\n{SCORERS} scorers, {elapsed:.1f} s: {rounds} rounds stored, {writes} writes, "
        f"{len(latencies)} requests ({len(latencies) / elapsed:.0f}/s), "
        f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms, 0 errors"
    )
