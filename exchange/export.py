"""Reads that leave the site: a session's games (JSON and CSV) and a season's ladder (CSV).

The JSON export carries every game's record exactly as the engine reads it
(`scoring.records.game_record`, format `buck-game/1`, docs/game-record.md), so that any
outside tool, the engine's own command line included, can check and score it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import QuerySet

from play import duplicate
from scoring.models import Game
from scoring.records import game_record
from tournaments.models import Season, Session
from workflow.club import selectors as club_selectors

SESSION_FORMAT = "huckley-session/1"

SESSION_CSV_COLUMNS = (
    "session_id",
    "session",
    "date",
    "rules_id",
    "sitting_id",
    "sitting",
    "table_id",
    "table",
    "game_id",
    "game",
    "game_status",
    "seat",
    "player_id",
    "player",
    "score",
    "hooks",
    "won",
)

LADDER_CSV_COLUMNS = (
    "position",
    "player_id",
    "player",
    "sessions",
    "counted",
    "ladder_score",
    "games_won",
    "points",
    "hooks",
    "average_finish",
)


def session_games(session: Session) -> QuerySet[Game]:
    """Every game of the session, in play order, with its players (whether each is a
    robot: `game_record`) and rounds loaded."""
    return (
        Game.objects.filter(table__sitting__session=session)
        .select_related("table__sitting")
        .prefetch_related("game_players__player", "rounds")
        .order_by("table__sitting__number", "table__rank", "number")
    )


def session_export(session: Session, *, directing: bool) -> dict[str, Any]:
    """The session's games as records; for a caller not `directing` its club, without the
    cards of a duplicate deal another table may still play (`play.duplicate`), whose
    numbers each game lists in `cards_hidden`."""
    games = []
    boards: dict[int, duplicate.Boards] = {}
    for game in session_games(session):
        table = game.table
        hidden: frozenset[int] = frozenset()
        if not directing and table.sitting.duplicate:
            table.sitting.session = session
            if table.sitting_id not in boards:
                boards[table.sitting_id] = duplicate.boards_of(table.sitting)
            hidden = duplicate.hidden_rounds(game, boards[table.sitting_id])
        rounds = duplicate.hide(game, hidden)
        games.append(
            {
                "session_id": session.pk,
                "sitting_id": table.sitting_id,
                "sitting": table.sitting.number,
                "table_id": table.pk,
                "table": table.rank,
                "game_id": game.pk,
                "game": game.number,
                "status": game.status,
                "record": game_record(game, rounds=rounds),
                "cards_hidden": sorted(hidden),
            }
        )
    return {
        "format": SESSION_FORMAT,
        "session": {
            "id": session.pk,
            "club": session.club.slug,
            "season_id": session.season_id,
            "season": session.season.name,
            "name": session.name,
            "date": session.date.isoformat(),
            "rules_id": session.rules_id,
            "status": session.status,
        },
        "games": games,
    }


def _text(value: str) -> str:
    """A name as a spreadsheet cell: one that starts like a formula is shown as text,
    never run (a player called "=1+1" stays a name)."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _csv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


def session_csv(session: Session) -> str:
    """One row per player per game."""
    rows = []
    for game in session_games(session):
        table = game.table
        for gp in game.game_players.all():
            rows.append(
                (
                    session.pk,
                    _text(session.name),
                    session.date.isoformat(),
                    session.rules_id,
                    table.sitting_id,
                    table.sitting.number,
                    table.pk,
                    table.rank,
                    game.pk,
                    game.number,
                    game.status,
                    gp.seat,
                    gp.player_id,
                    _text(gp.name),
                    gp.score,
                    gp.hooks,
                    "yes" if gp.won else "no",
                )
            )
    return _csv(SESSION_CSV_COLUMNS, rows)


def ladder_csv(season: Season) -> str:
    rows = club_selectors.season_standings(season.pk)
    return _csv(
        LADDER_CSV_COLUMNS,
        (
            (
                position,
                r.player.pk,
                _text(r.player.name),
                r.sessions,
                r.counted,
                f"{r.score:g}",
                r.games_won,
                r.points,
                r.hooks,
                f"{r.average_finish:.2f}",
            )
            for position, r in enumerate(rows, start=1)
        ),
    )


def csv_filename(*parts: object) -> str:
    """A download name from plain parts (slugs and ids): no quote or path can get in."""
    safe = "-".join(str(p) for p in parts)
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in safe)
