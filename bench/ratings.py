"""Ratings at club size: the rebuild from scratch, and a recompute after a correction.

Run: .venv/bin/python bench/ratings.py  [--players 1000] [--sessions 50] [--runs 3]
                                        [--per-session 200] [--sittings 3] [--json]
                                        [--postgres postgres://postgres@127.0.0.1:5432/huckley_bench_ratings]

It builds, untimed, one club of `--players` players and `--sessions` finished sessions
(one a week), each with 200 of the players (`--per-session`, drawn at random) at 50
tables of 4, playing 3 sittings (`--sittings`) of 2 games: 300 finished games a session,
15,000 in all for 50 sessions, with random scores and one winner a game. The rows are
written directly (bulk_create), not played through the engine: the ratings read only
each player's final score and win.

Then it times, as the median of `--runs` runs:
- rebuild: `ratings.services.ratings_rebuild` (what `manage.py rebuild_ratings` does);
- last game: the recompute after a correction to a game of the last session (the usual
  case: a result changes on the night);
- first game: the recompute after a correction to the very first game (the worst case:
  every game is replayed).

SQLite on a temporary file by default; `--postgres URL` uses that database instead,
dropped and created afresh. DEBUG is off, so Django keeps no query log.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from typing import Any

import benchdb

TARGET_S = 10.0


def build(
    players: int, sessions: int, seed: int, per_session: int = 200, sittings: int = 3
) -> tuple[int, list[int]]:
    """The club's id and its game ids in the order the ratings apply them."""
    import random
    from datetime import UTC, date, datetime, timedelta

    from scoring.models import Game, GamePlayer
    from tournaments.models import Club, Player, Season, Session, Sitting, Table

    rng = random.Random(seed)
    club = Club.objects.create(name="Bench club", slug="bench")
    season = Season.objects.create(
        club=club, name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    roster = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {i}") for i in range(players)]
    )
    ordered: list[int] = []
    for s in range(sessions):
        day = date(2026, 1, 5) + timedelta(days=7 * s)
        session = Session.objects.create(
            club=club,
            season=season,
            name=f"Night {s + 1}",
            date=day,
            seed=s + 1,
            status=Session.Status.FINISHED,
            started_at=datetime(day.year, day.month, day.day, 19, tzinfo=UTC),
        )
        present = rng.sample(roster, min(per_session, len(roster)) // 4 * 4)
        for number in range(1, sittings + 1):
            sitting = Sitting.objects.create(session=session, number=number, games_per_sitting=2)
            rng.shuffle(present)
            tables = Table.objects.bulk_create(
                [Table(sitting=sitting, rank=r) for r in range(1, len(present) // 4 + 1)]
            )
            games = Game.objects.bulk_create(
                [
                    Game(
                        table=t,
                        number=g,
                        rules_id="huckley-buck",
                        first_dealer=present[4 * (t.rank - 1)],
                        first_dealer_source=Game.DealerSource.DRAW,
                        status=Game.Status.FINISHED,
                        round_count=8,
                    )
                    for t in tables
                    for g in (1, 2)
                ]
            )
            seats = []
            for game in games:
                four = present[4 * (game.table.rank - 1) : 4 * game.table.rank]
                winner = rng.randrange(4)
                for seat, p in enumerate(four, start=1):
                    won = seat - 1 == winner
                    score = 15 + rng.randrange(4) if won else rng.randrange(-5, 15)
                    seats.append(
                        GamePlayer(
                            game=game, player=p, seat=seat, name=p.name, score=score, won=won
                        )
                    )
            GamePlayer.objects.bulk_create(seats, batch_size=2000)
            ordered += [g.pk for g in sorted(games, key=lambda g: (g.number, g.table.rank))]
    return club.pk, ordered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--per-session", type=int, default=200, help="players at each session")
    parser.add_argument("--sittings", type=int, default=3, help="sittings of 2 games a session")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", default="")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        benchdb.setup(args.postgres, tmp)
        from django.db import connection

        from ratings import services
        from ratings.models import Rating, RatingHistory
        from tournaments.permissions import SYSTEM

        t0 = time.perf_counter()
        club_id, games = build(
            args.players, args.sessions, args.seed, args.per_session, args.sittings
        )
        built = time.perf_counter() - t0

        def timed(work: Any) -> tuple[float, float]:
            w0, c0 = time.perf_counter(), time.process_time()
            work()
            return time.perf_counter() - w0, time.process_time() - c0

        rebuild = [
            timed(lambda: services.ratings_rebuild(club_id=club_id, user=SYSTEM))
            for _ in range(args.runs)
        ]
        rated = Rating.objects.filter(club_id=club_id).count()
        rows = RatingHistory.objects.filter(club_id=club_id).count()

        def recompute(game_id: int) -> None:
            services.ratings_game_changed(
                club_id=club_id, rules_id="huckley-buck", game_id=game_id, user=SYSTEM
            )

        last = [timed(lambda: recompute(games[-1])) for _ in range(args.runs)]
        first = [timed(lambda: recompute(games[0])) for _ in range(args.runs)]

        def med(runs: list[tuple[float, float]], i: int) -> float:
            return round(statistics.median(r[i] for r in runs), 3)

        result = {
            "backend": connection.vendor,
            "players": args.players,
            "sessions": args.sessions,
            "per_session": args.per_session,
            "games": len(games),
            "rated_players": rated,
            "history_rows": rows,
            "build_s": round(built, 1),
            "rebuild_s": med(rebuild, 0),
            "rebuild_cpu_s": med(rebuild, 1),
            "last_game_s": med(last, 0),
            "first_game_s": med(first, 0),
            "target_s": TARGET_S,
            "met": med(rebuild, 0) < TARGET_S,
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['backend']}: {result['players']} players, {result['sessions']} sessions, "
        f"{result['games']} games ({result['history_rows']} rating updates), built in "
        f"{result['build_s']} s"
    )
    print(
        f"  rebuild from scratch   {result['rebuild_s']:7.3f} s  (CPU {result['rebuild_cpu_s']} s; "
        f"target < {TARGET_S:.0f} s: {'met' if result['met'] else 'MISSED'})"
    )
    print(f"  correct the last game  {result['last_game_s']:7.3f} s")
    print(f"  correct the first game {result['first_game_s']:7.3f} s  (replays every game)")
    print(f"  median of {args.runs} runs; Python {result['python']}, {result['machine']}")
    if not result["met"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
