"""What a change of seats sends (`tournaments.signals.seats_changed`, docs/api.md,
"WebSocket"): each affected seat link's view of its player's place now, and each
affected table's watchers' view, read in a fixed number of queries per table.

Affected are the players named and everyone seated at the tables named, in the session's
current sitting; the tables named and the tables the players named sit at now (None:
every seat link, every table of the current sitting). A player who sits nowhere now (sat
out, withdrawn, the session over) gets the view of no seat. A table named of an earlier
sitting sends its watchers' view only: its players sit elsewhere now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from engine import online as engine_online
from engine.online import OnlineRound
from play import selectors
from play.models import LiveRound, SeatLink
from scoring.models import Game, GamePlayer
from scoring.tables import table_current_game
from tournaments.models import Table
from workflow.sittings import current_sittings


@dataclass(frozen=True)
class Seat:
    """One seat link's view now, and the table it sits at (None: no seat now)."""

    view: dict[str, Any]
    table_id: int | None


@dataclass(frozen=True)
class SeatsNow:
    """What a change of seats sends: each affected seat's view by its token, and each
    affected table's state (`selectors.TableNow`: its watchers' view and its phase) by
    its id."""

    seats: dict[str, Seat]
    tables: dict[int, selectors.TableNow]


def seats_now(
    session_id: int, player_ids: frozenset[int] | None, table_ids: frozenset[int] | None
) -> SeatsNow:
    """The views a change of seats sends (the module's docstring): three queries, then
    at most six per table (`selectors.table_state_of`); two and nothing to send in a
    session with no seat link and no online table (a night on paper: nobody follows it
    on a phone, and a movement of a hundred tables costs nothing more)."""
    links = list(SeatLink.objects.filter(session_id=session_id).select_related("session", "player"))
    if not links and not Table.objects.filter(sitting__session_id=session_id, online=True).exists():
        return SeatsNow(seats={}, tables={})
    known = {link.player_id: (link.token, link.away_since) for link in links}
    current = current_sittings(session_id).values_list("pk", flat=True).first()
    tables: dict[int, selectors.TableNow] = {}
    seated: dict[str, Seat] = {}
    for table in _tables(session_id, player_ids, table_ids):
        state = selectors.table_state_of(table, *_round_of(table), links=known)
        now = selectors.table_now_of(state)
        tables[table.pk] = now
        if table.sitting_id == current:
            seated |= {token: Seat(view, table.pk) for token, view in now.views.items()}
    seats: dict[str, Seat] = {}
    for link in links:
        if link.token in seated:
            seats[link.token] = seated[link.token]
        elif player_ids is None or link.player_id in player_ids:
            seats[link.token] = Seat(selectors.seat_view_at(link, None), None)
    return SeatsNow(seats=seats, tables=tables)


def _tables(
    session_id: int, player_ids: frozenset[int] | None, table_ids: frozenset[int] | None
) -> list[Table]:
    """The affected tables, with their sitting and session, in one query: every table
    of the current sitting when every seat or every table changed (every player's table
    is wanted), else the tables named and those the players named sit at now."""
    rows = Table.objects.select_related("sitting__session").filter(sitting__session_id=session_id)
    current = current_sittings(session_id)
    if player_ids is None or table_ids is None:
        where = Q(sitting__in=current)
        if table_ids:
            where |= Q(pk__in=table_ids)
    else:
        where = Q(pk__in=table_ids) | Q(
            sitting__in=current,
            seatings__player_id__in=player_ids,
            seatings__left_at__isnull=True,
        )
    return list(rows.filter(where).distinct().order_by("sitting__number", "rank"))


def _round_of(
    table: Table,
) -> tuple[Game | None, list[GamePlayer], LiveRound | None, OnlineRound | None]:
    """The table's current game, its players and the round being played, read as
    `selectors.table_state` reads them (three queries at most)."""
    game = table_current_game(table)
    if game is None:
        return None, [], None, None
    game.table = table  # with its sitting and session as read
    players = list(game.game_players.select_related("player").order_by("seat"))
    live = LiveRound.objects.filter(game=game).first()
    rnd = engine_online.restore(game.rules_id, live.state) if live is not None else None
    return game, players, live, rnd
