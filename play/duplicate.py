"""Duplicate deals: which deals of a sitting are still being played somewhere, so that
their cards stay hidden (docs/tournament.md, "Duplicate deals").

In a duplicate sitting every online table of the same size is dealt the same cards for
the same game and round (`play.services`): a *board*, named by the table size, the game's
number and the round's ("4/1/3"). A board is *open* while some online table of that size
may still play it: a table whose game of that number is not finished and has stored fewer
rounds, or has not started yet. Once the sitting has moved on, or the session is over,
none is. While a board is open its cards (the upcard, the hands, the tricks, the draws,
the discards: `scoring.records.without_cards`) are shown to its club's directors only:
a player at a table that finished it must not show a player still playing it its hands,
on the game page, in the API, in an export, or on the projector.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count

from scoring.models import Game
from scoring.records import without_cards
from tournaments.models import Session, Sitting


@dataclass(frozen=True)
class Boards:
    """The open boards of a sitting: for each table size and game number, the first round
    that some table may still play (every later round is open too)."""

    sitting_id: int
    open_from: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def is_open(self, size: int, game_number: int, round_number: int) -> bool:
        first = self.open_from.get((size, game_number))
        return first is not None and round_number >= first


NONE_OPEN = Boards(sitting_id=0)


def boards_of(sitting: Sitting) -> Boards:
    """The sitting's open boards, in one query (none for a sitting that is not duplicate,
    has moved on, or whose session is over)."""
    if not sitting.duplicate or sitting.moved_at is not None:
        return NONE_OPEN
    if sitting.session.status != Session.Status.RUNNING:
        return NONE_OPEN
    rows = (
        Game.objects.filter(table__sitting=sitting, table__online=True)
        .values("table_id", "number", "status", "round_count")
        .annotate(size=Count("game_players"))
    )
    tables: dict[int, dict[int, tuple[str, int]]] = {}
    sizes: dict[int, int] = {}
    for row in rows:
        tables.setdefault(row["table_id"], {})[row["number"]] = (row["status"], row["round_count"])
        sizes[row["table_id"]] = row["size"]
    open_from: dict[tuple[int, int], int] = {}
    for table_id, games in tables.items():
        for number in range(1, sitting.games_per_sitting + 1):
            status, played = games.get(number, (Game.Status.PLAYING, 0))
            if status == Game.Status.FINISHED:
                continue
            key = (sizes[table_id], number)
            open_from[key] = min(open_from.get(key, played + 1), played + 1)
    return Boards(sitting_id=sitting.pk, open_from=open_from)


def hidden_rounds(game: Game, boards: Boards | None = None) -> frozenset[int]:
    """The numbers of the game's stored rounds whose cards are hidden now. `boards` is its
    sitting's, when the caller has read them for several games."""
    sitting = game.table.sitting
    if not sitting.duplicate:
        return frozenset()
    if boards is None or boards.sitting_id != sitting.pk:
        boards = boards_of(sitting)
    size = len(game.game_players.all())
    return frozenset(
        n for n in range(1, game.round_count + 1) if boards.is_open(size, game.number, n)
    )


def hide(
    rounds: Iterable[tuple[int, Mapping[str, Any]]], hidden: frozenset[int]
) -> list[dict[str, Any]]:
    """The rounds' fields, those of the `hidden` numbers without their cards."""
    return [without_cards(data) if number in hidden else dict(data) for number, data in rounds]
