"""The duplicate comparison page at festival size: what building it costs, and what each
visit costs once it is built.

Run: .venv/bin/python bench/duplicate.py  [--players 1000] [--repeat 50]
                                          [--postgres postgres://postgres@127.0.0.1:5432/huckley_bench_dup]

It creates, untimed, an online session of `--players` players (250 tables of 4 at 1000)
with duplicate deals (a fixed key, so that every run deals the same cards), through the
services a director's page calls, and has robots play
the whole first sitting at every table through `play.services.advance`: every round dealt
from the sitting's key, played card by card by the engine's robot and stored through the
engine as an online round is. The sitting is left unmoved, so every deal is closed and
the comparison shows them all: its largest size.

Then it times:
- build: `play.duplicate._deals`, the comparison built from the rows (an engine check of
  every game and a deal dealt again per board), median of 3;
- first visit: `GET /sessions/<id>/sittings/1/duplicate/` (the list of deals) after the
  process's and the shared cache are cleared (what the first phone after a deal closes
  pays: the build above and the page);
- list: the same page `--repeat` times after (what every other phone pays until the next
  deal closes: the key's two short queries, the kept deals, the rendering);
- deal, first: each deal's page (`?deal=4-1-3`) once, its part rendered and kept;
- deal: `--repeat` visits going round the deals, a different deal each time;
- tricks: the projector's `GET /sessions/<id>/screen/tricks/` for the sitting, built
  afresh (the cache cleared) 5 times: what each card played costs a wall that polls.

SQLite on a temporary file by default; `--postgres URL` uses that database, dropped and
created afresh. DEBUG is off. Served in-process by Django's test Client: the page's own
cost, not a server's (bench/load.py measures servers).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import tempfile
import time
from typing import Any

import benchdb


def build(players: int) -> Any:
    """A running duplicate session whose first sitting the robots have played out."""
    from datetime import date

    from django.contrib.auth import get_user_model

    from play import services as play_services
    from scoring.models import Game
    from tournaments.models import Club, Player, Season, Sitting, Table
    from workflow.session import services, start_finish
    from workflow.session.simulation import generated_names

    director = get_user_model().objects.create_user("bench-director", password="x")
    club = Club.objects.create(name="Bench club", slug="bench")
    club.directors.add(director)
    season = Season.objects.create(
        club=club, name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    session = services.session_create(
        club=club,
        season=season,
        name="Duplicate night",
        date=date(2026, 11, 26),
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=generated_names(players),
        seed=11,
        online=True,
        duplicate=True,
        user=director,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    # One key for every run, so that runs deal the same cards and are compared on the
    # same games (a real sitting's key is drawn from `secrets`).
    Sitting.objects.filter(session=session).update(deal_key="5eed" * 16)
    Player.objects.filter(club=club).update(is_robot=True)
    for table in Table.objects.filter(sitting__session=session):
        for _ in range(200):
            play_services.advance(table_id=table.pk)
            games = list(Game.objects.filter(table=table))
            if len(games) == 2 and all(g.status == Game.Status.FINISHED for g in games):
                break
        else:
            raise SystemExit(f"the robots did not finish table {table.number}")
    session.refresh_from_db()
    return session


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "median_ms": round(1000 * statistics.median(values), 2),
        "p95_ms": round(1000 * values[max(0, int(len(values) * 0.95) - 1)], 2),
    }


def measure(session: Any, repeat: int) -> dict[str, Any]:
    from django.core.cache import cache
    from django.test import Client

    from play import duplicate
    from tournaments import pagecache
    from tournaments.models import Sitting

    sitting = Sitting.objects.select_related("session").get(session=session, number=1)
    builds = []
    for _ in range(3):
        start = time.perf_counter()
        deals = duplicate._deals(sitting)
        builds.append(time.perf_counter() - start)
    url = f"/sessions/{session.pk}/sittings/1/duplicate/"
    client = Client()
    # The process warmed (templates compiled, URLs resolved) as a server's is; then the
    # caches emptied, as after a deal closes.
    client.get(url)
    client.get(f"{url}?deal={deals[0].slug}")
    pagecache.forget()
    pagecache.LOCAL.clear()
    cache.clear()
    start = time.perf_counter()
    first = client.get(url)
    first_s = time.perf_counter() - start
    assert first.status_code == 200, first.status_code
    visits = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = client.get(url)
        visits.append(time.perf_counter() - start)
        assert answer.status_code == 200
    firsts, deal_visits = [], []
    for deal in deals:
        start = time.perf_counter()
        answer = client.get(f"{url}?deal={deal.slug}")
        firsts.append(time.perf_counter() - start)
        assert answer.status_code == 200
    deal_bytes = len(answer.content)
    for k in range(repeat):
        start = time.perf_counter()
        answer = client.get(f"{url}?deal={deals[k % len(deals)].slug}")
        deal_visits.append(time.perf_counter() - start)
        assert answer.status_code == 200
    tricks = []
    for _ in range(5):
        cache.clear()
        start = time.perf_counter()
        answer = client.get(f"/sessions/{session.pk}/screen/tricks/")
        tricks.append(time.perf_counter() - start)
        assert answer.status_code == 200
    return {
        "tables": sitting.tables.count(),
        "deals": len(deals),
        "results": sum(len(d.results) for d in deals),
        "page_bytes": len(first.content),
        "build": _ms(builds),
        "first_visit_ms": round(1000 * first_s, 2),
        "list": _ms(visits),
        "deal_bytes": deal_bytes,
        "deal_first": _ms(firsts),
        "deal": _ms(deal_visits),
        "tricks": _ms(tricks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--postgres", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        benchdb.setup(args.postgres, tmp)
        # The eager Celery tasks' lines ("Task ... succeeded") and the robots' notes.
        logging.disable(logging.INFO)
        start = time.perf_counter()
        session = build(args.players)
        built_s = time.perf_counter() - start
        found = measure(session, args.repeat)
    found |= {
        "players": args.players,
        "database": "postgresql" if args.postgres else "sqlite",
        "setup_s": round(built_s, 1),
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}",
    }
    if args.json:
        print(json.dumps(found, indent=2))
        return
    print(f"{found['players']} players, {found['tables']} tables, {found['database']}")
    print(
        f"  {found['deals']} deals, {found['results']} table results; "
        f"list {found['page_bytes']} bytes, a deal {found['deal_bytes']} bytes"
    )
    print(f"  build (median of 3):     {found['build']['median_ms']} ms")
    print(f"  first visit of the list: {found['first_visit_ms']} ms")
    for name, label in (
        ("list", f"list ({args.repeat}x)"),
        ("deal_first", "each deal, first"),
        ("deal", f"deals ({args.repeat}x)"),
        ("tricks", "projector tricks (5x)"),
    ):
        print(
            f"  {label + ':':24} {found[name]['median_ms']} ms median, "
            f"{found[name]['p95_ms']} ms p95"
        )
    print(f"  (set-up, untimed: {found['setup_s']} s)")


if __name__ == "__main__":
    main()
