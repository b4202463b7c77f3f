"""The nights of the seat push tests (test_seat_pushes.py in process,
test_seat_pushes_nodes.py across nodes): where each seat link's player sits now, as the
rows say, and the writes' preparations (a sitting played out, a round played on the
phones, a bottom table left short)."""

from __future__ import annotations

import random
from typing import Any

from play import selectors, services
from play.models import SeatLink
from scoring.models import Game
from tests.play.helpers import choice_body
from tournaments.models import Seating, Session, Sitting, Table
from tournaments.permissions import SYSTEM
from workflow.session import withdrawals
from workflow.session.simulation import finish_sitting_unplayed


def place_of(token: str) -> tuple[int, int, int] | None:
    """Where the player of `token` sits in their session's current sitting, by the rows:
    (sitting number, table rank, seat), or None."""
    link = SeatLink.objects.get(token=token)
    current = Sitting.objects.filter(session_id=link.session_id).order_by("-number").first()
    seat = (
        Seating.objects.filter(sitting=current, player_id=link.player_id, left_at__isnull=True)
        .select_related("table")
        .first()
    )
    if current is None or seat is None:
        return None
    return current.number, seat.table.rank, seat.seat


def shown_place(view: dict[str, Any]) -> tuple[int, int, int] | None:
    """The place a view shows (None: no seat)."""
    if view["table"] is None:
        return None
    return view["sitting"], view["table"], view["seat"]


def at_table(tokens: dict[str, str], rank: int) -> dict[str, str]:
    """The tokens (by name) of the players seated at the table of `rank` now."""
    return {
        name: token
        for name, token in tokens.items()
        if (place := place_of(token)) is not None and place[1] == rank
    }


def table_id(session: Session, rank: int, sitting: int | None = None) -> int:
    """The id of the table of `rank` in the session's sitting (its current one)."""
    tables = Table.objects.filter(sitting__session=session, rank=rank)
    if sitting is not None:
        return tables.get(sitting__number=sitting).pk
    found = tables.order_by("-sitting__number").first()
    assert found is not None
    return found.pk


def sitting_played(session: Session) -> None:
    """Every game of the current sitting finished (arbitrary results), so that the
    movement can be confirmed."""
    sitting = session.sittings.order_by("-number").first()
    assert sitting is not None
    finish_sitting_unplayed(sitting, random.Random(3))


def round_played(tokens: dict[str, str], rank: int = 1) -> Game:
    """The first round at the online table of `rank` dealt and played on its phones (the
    seats to act send their first legal move, through the service as the POST does),
    so that it is stored; the game."""
    session_id = SeatLink.objects.filter(token=next(iter(tokens.values()))).get().session_id
    game = Game.objects.get(
        table__sitting__session_id=session_id, table__rank=rank, table__sitting__number=1, number=1
    )
    seated = at_table(tokens, rank)
    services.advance(table_id=game.table_id)
    for _ in range(200):
        game.refresh_from_db()
        if game.round_count >= 1:
            return game
        views = [selectors.seat_view(token) for token in seated.values()]
        token, view = next(
            (t, v)
            for t, v in zip(seated.values(), views, strict=True)
            if v["to_act"] == v["player"]
        )
        body = choice_body(view, view["legal"][0])
        services.move_make(token=token, move=body.pop("move"), action=body)
    raise AssertionError("the round never ended")


def bottom_table_short(session: Session, tokens: dict[str, str], rank: int) -> list[str]:
    """Two players of the table of `rank` withdraw (before any phone opens): the
    rebalance then has a move to propose. The names of those who withdrew."""
    gone = sorted(at_table(tokens, rank))[:2]
    for name in gone:
        player_id = SeatLink.objects.get(token=tokens[name]).player_id
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    return gone
