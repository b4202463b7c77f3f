"""Plays whole sessions through the real services with the engine's simulator: the demo
data, `manage.py play_session`, and the benchmarks use it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

import engine
from scoring import records
from scoring import services as scoring
from scoring.models import Game, GamePlayer
from scoring.tables import table_start_game
from tournaments import format as fmt
from tournaments.models import BigLoserAward, Club, Placing, Player, Season, Session, Sitting
from tournaments.permissions import SYSTEM, Caller
from workflow.session import movements, services, start_finish

FIRST_NAMES = [
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max",
    "Ned", "Oda", "Pat", "Quin", "Ray", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe",
]  # fmt: skip


def generated_names(count: int) -> list[str]:
    """Distinct short names: Ann, Bob, … then Ann 2, Bob 2, …"""
    return [
        FIRST_NAMES[i % len(FIRST_NAMES)]
        + (f" {i // len(FIRST_NAMES) + 1}" if i >= len(FIRST_NAMES) else "")
        for i in range(count)
    ]


@dataclass
class PlayOptions:
    rules_id: str = "huckley-buck"
    games_per_sitting: int = 2
    sittings: int = 2
    seed: int = 1
    finish: bool = True
    public: bool = True
    # Stop after this many games of the last sitting have been played at each table, to
    # leave a session in progress (None plays everything).
    stop_after_games: int | None = None
    stop_after_rounds: int | None = None
    # Who plays it: the machine itself unless told (the demo plays as its director).
    user: Caller = SYSTEM
    names: list[str] = field(default_factory=list)


def play_game(game: Game, *, seed: int, rounds: int | None = None, user: Caller = SYSTEM) -> None:
    """Enter a simulated game round by round through the result-entry service."""
    record = records.game_record(game)
    played = engine.simulate(
        record["rules"], record["players"], seed=seed, first_dealer=record["first_dealer"]
    )
    for number, data in enumerate(played["rounds"], start=1):
        if rounds is not None and number > rounds:
            break
        scoring.round_submit(game_id=game.pk, number=number, data=data, actor=user)


def play_sitting(
    sitting: Sitting,
    *,
    seed: int,
    games: int | None = None,
    rounds: int | None = None,
    user: Caller = SYSTEM,
) -> None:
    for table in sitting.tables.order_by("rank"):
        for number in range(1, sitting.games_per_sitting + 1):
            if games is not None and number > games:
                break
            game = Game.objects.filter(table=table, number=number).first()
            if game is None:
                break
            last = games is not None and number == games
            play_game(
                game,
                seed=fmt.make_rng(seed, "play", sitting.number, table.rank, number).getrandbits(32),
                rounds=rounds if last else None,
                user=user,
            )


def finish_sitting_unplayed(sitting: Sitting, rng: random.Random) -> None:
    """Finish every game of a sitting with arbitrary results, bypassing the engine: the
    movement can then be tried against any outcome (tests) or at festival size without
    playing 500 games first (bench/tournament.py). Game 2 starts without a winner."""
    for table in sitting.tables.all():
        for number in range(1, sitting.games_per_sitting + 1):
            game = Game.objects.filter(table=table, number=number).first()
            if game is None:
                game = table_start_game(table=table, number=number)
            players = list(game.game_players.all())
            winner = rng.choice(players)
            for gp in players:
                gp.score = 11 + rng.randrange(5) if gp is winner else rng.randrange(11)
                gp.won = gp is winner
                gp.hooks = rng.randrange(4)
            GamePlayer.objects.bulk_update(players, ["score", "won", "hooks"])
            game.status = Game.Status.FINISHED
            game.round_count = 1
            game.save()


def ensure_season(club: Club, year: int) -> Season:
    season, _ = Season.objects.get_or_create(
        club=club,
        name=str(year),
        defaults={"starts_on": Date(year, 1, 1), "ends_on": Date(year, 12, 31)},
    )
    return season


def award_previous_big_loser(club: Club, season: Season, name: str) -> Player:
    previous = ensure_season(club, season.starts_on.year - 1)
    (player,) = services.players_get_or_create(club=club, names=[name])
    BigLoserAward.objects.update_or_create(season=previous, defaults={"player": player})
    return player


def play_session(
    *,
    club: Club,
    season: Season,
    name: str,
    day: Date,
    players: Sequence[str],
    options: PlayOptions,
) -> Session:
    session = services.session_create(
        club=club,
        season=season,
        name=name,
        date=day,
        rules_id=options.rules_id,
        games_per_sitting=options.games_per_sitting,
        new_names=players,
        seed=options.seed,
        is_public=options.public,
        user=options.user,
    )
    session.entries.update(checked_in=True)
    sitting = start_finish.session_start(session_id=session.pk, user=options.user)
    for number in range(1, options.sittings + 1):
        last = number == options.sittings
        play_sitting(
            sitting,
            seed=options.seed,
            games=options.stop_after_games if last else None,
            rounds=options.stop_after_rounds if last else None,
            user=options.user,
        )
        if not last:
            sitting = movements.sitting_move_players(
                session_id=session.pk, sitting_number=number, user=options.user
            )
    if options.finish and options.stop_after_games is None:
        start_finish.session_finish(session_id=session.pk, user=options.user)
    session.refresh_from_db()
    return session


def session_as_json(session: Session) -> dict[str, Any]:
    """The shape `play_session --json` prints."""
    sittings = []
    for sitting in session.sittings.order_by("number"):
        placings: dict[int, list[dict[str, Any]]] = {}
        if sitting.moved_at is not None:
            for p in Placing.objects.filter(sitting=sitting).select_related("player", "table"):
                placings.setdefault(p.table.rank, []).append(
                    {
                        "player": p.player.name,
                        "score": p.score,
                        "games_won": p.games_won,
                        "hooks": p.hooks,
                        "move": p.direction,
                        "reason": p.reason,
                    }
                )
        else:
            try:
                preview = movements.movement_preview(sitting=sitting)
            except Exception:  # an unfinished sitting has no standings yet
                preview = None
            if preview is not None:
                moves = {m.player: m for m in preview.moves}
                for table, rows in preview.tables:
                    placings[table.rank] = [
                        {
                            "player": preview.names[p.player],
                            "score": p.result.score,
                            "games_won": p.result.games_won,
                            "hooks": p.result.hooks,
                            "move": moves[p.player].direction,
                            "reason": moves[p.player].reason,
                        }
                        for p in rows
                    ]
        tables = []
        for table in sitting.tables.order_by("rank").prefetch_related("seatings__player"):
            games = [records.game_record(g) for g in table.games.order_by("number")]
            tables.append(
                {
                    "rank": table.rank,
                    "seats": [
                        s.player.name for s in sorted(table.seatings.all(), key=lambda s: s.seat)
                    ],
                    "games": games,
                    "standings": placings.get(table.rank, []),
                }
            )
        sittings.append({"number": sitting.number, "tables": tables})
    return {
        "session": {
            "id": session.pk,
            "name": session.name,
            "rules": session.rules_id,
            "games_per_sitting": session.games_per_sitting,
            "seed": session.seed,
            "status": session.status,
            "big_loser": session.big_loser.name if session.big_loser else None,
        },
        "sittings": sittings,
    }
