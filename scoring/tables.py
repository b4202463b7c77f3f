"""Games at a table: starting them (game 1 of a new sitting at every table at once, the
next game when one ends, a game not yet begun seated again) and the game under way.

The first dealer of a game is the winner of the previous one (ruling 7), or a high-card
draw from the session's seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

import engine
from common.errors import ConflictError
from scoring.models import Game, GamePlayer
from scoring.records import game_check
from tournaments.format import make_rng
from tournaments.models import Seating, Session, Table


def _new_game(
    *,
    table: Table,
    session: Session,
    number: int,
    seated: Sequence[tuple[int, str]],
    winner: str | None = None,
) -> tuple[Game, list[GamePlayer]]:
    """Game `number` at a table, unsaved, for the players `seated` (id, name) in seat order.

    The winner of the previous game deals first (ruling 7); the first game of a sitting,
    or one after a game with no single winner at the table, draws high card from the
    session's seed.
    """
    ids = dict((name, pid) for pid, name in seated)
    game = Game(
        table=table, number=number, rules_id=session.rules_id, options={}, first_dealer_draw={}
    )
    if winner in ids:
        game.first_dealer_id = ids[winner]
        game.first_dealer_source = Game.DealerSource.PREVIOUS_WINNER
    else:
        seed = make_rng(session.seed, "draw", table.sitting.number, table.rank, number)
        dealer, cards = engine.draw_first_dealer(list(ids), seed=seed.getrandbits(32))
        game.first_dealer_id = ids[dealer]
        game.first_dealer_source = Game.DealerSource.DRAW
        game.first_dealer_draw = cards
    players = [
        GamePlayer(game=game, player_id=pid, seat=i, name=name)
        for i, (pid, name) in enumerate(seated, start=1)
    ]
    return game, players


def _seated(tables: Sequence[Table]) -> dict[int, list[tuple[int, str]]]:
    rows = (
        Seating.objects.filter(table__in=tables, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "player_id", "player__name")
    )
    seated: dict[int, list[tuple[int, str]]] = {t.pk: [] for t in tables}
    for table_id, player_id, name in rows:
        seated[table_id].append((player_id, name))
    return seated


def table_start_game(
    *,
    table: Table,
    number: int,
    previous: Game | None = None,
    verdict: engine.Verdict | None = None,
) -> Game:
    """Start game `number` at a table with the players seated there now; `previous` is
    the game before it, and `verdict` the engine's on it when the caller has it."""
    winner = None
    if previous is not None:
        winner = engine.next_game_first_dealer(verdict or game_check(previous))
    game, players = _new_game(
        table=table,
        session=table.sitting.session,
        number=number,
        seated=_seated([table])[table.pk],
        winner=winner,
    )
    game.save()
    GamePlayer.objects.bulk_create(players)
    return game


def tables_start_first_games(*, tables: Sequence[Table], session: Session) -> None:
    """Game 1 at every table of a new sitting, in a fixed number of queries whatever the
    number of tables (a festival seats 250 at once)."""
    seated = _seated(tables)
    made = [
        _new_game(table=t, session=session, number=1, seated=seated[t.pk])
        for t in tables
        if seated[t.pk]
    ]
    Game.objects.bulk_create([game for game, _ in made])
    GamePlayer.objects.bulk_create([gp for _, players in made for gp in players])


def game_refresh_players(*, game: Game) -> None:
    """Re-seat a game that has no round yet after an arrival, withdrawal or move."""
    if game.round_count:
        raise ConflictError(
            "game_in_progress",
            gettext("Game %(game_number)s has rounds entered; its players are fixed.")
            % {"game_number": game.number},
        )
    table, number = game.table, game.number
    game.delete()
    if Seating.objects.filter(table=table, left_at__isnull=True).exists():
        table_start_game(table=table, number=number)


def table_current_game(table: Table | int) -> Game | None:
    """The table's game of the highest number: the one being played or about to be, or
    the last one played when the table has played them all; None before its first."""
    return Game.objects.filter(table=table).order_by("-number").first()
