"""A player at an online table calls the director from their seat link
(play/seat_calls.py): the call goes to the table they sit at now, under the rules of every
call (one open call per table, none once the sitting has moved on); the seat link lets
its player call for their own table and nothing more."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from common.errors import ConflictError, NotFoundError, UserError
from play.seat_calls import seat_call_make
from tests.play.conftest import tokens_of
from tournaments.models import DirectorCall, Seating, Session, Table
from tournaments.permissions import SYSTEM, Actor, can_call_director
from workflow.front import calls
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def _seat(session: Session, name: str) -> Seating:
    """Where `name` sits in the session's latest sitting."""
    seat = (
        Seating.objects.select_related("table__sitting")
        .filter(sitting__session=session, player__name=name, left_at__isnull=True)
        .order_by("-sitting__number")
        .first()
    )
    assert seat is not None
    return seat


def test_a_seated_player_calls_the_director_to_their_own_table(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    name, token = next(iter(tokens.items()))
    table = _seat(session, name).table
    call = seat_call_make(token=token, reason="question", text="Is the 5 of trumps high?")
    assert (call.table_id, call.reason, call.text) == (
        table.pk,
        "question",
        "Is the 5 of trumps high?",
    )
    assert call.is_open
    row = calls.call_row(call.pk)
    assert row.who == "the table"  # nothing more about who called is kept
    assert name in row.players
    # The other table has no call: only the caller's own table was called for.
    assert DirectorCall.objects.filter(session=session).count() == 1


def test_a_second_call_from_the_table_is_refused_and_the_first_kept(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(4)
    tokens = list(tokens_of(session, director).values())
    first = seat_call_make(token=tokens[0], reason="dispute", text="")
    with pytest.raises(ConflictError) as refused:
        seat_call_make(token=tokens[1], reason="misdeal", text="")
    assert refused.value.code == "director_already_called"
    assert list(DirectorCall.objects.values_list("pk", "reason")) == [(first.pk, "dispute")]


def test_the_call_s_reason_and_text_are_checked_as_every_call_s(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(4)
    token = next(iter(tokens_of(session, director).values()))
    with pytest.raises(UserError) as unknown:
        seat_call_make(token=token, reason="bored", text="")
    assert unknown.value.code == "call_reason_unknown"
    with pytest.raises(UserError) as empty:
        seat_call_make(token=token, reason="other", text="  ")
    assert empty.value.code == "call_text_required"
    assert not DirectorCall.objects.exists()


def test_an_unknown_token_is_no_such_seat(online_session: Callable[..., Session]) -> None:
    online_session(4)
    with pytest.raises(NotFoundError) as refused:
        seat_call_make(token="no-such-token", reason="dispute", text="")
    assert refused.value.code == "no_such_seat"


def test_once_the_sitting_has_moved_on_the_player_calls_to_their_new_table(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    name, token = next(iter(tokens.items()))
    finish_sitting_unplayed(session.sittings.get(number=1), random.Random(5))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    now = _seat(session, name).table
    assert now.sitting.number == 2
    call = seat_call_make(token=token, reason="question", text="")
    assert call.table_id == now.pk


def test_a_player_not_seated_now_has_no_table_to_call_to(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(4)
    name, token = next(iter(tokens_of(session, director).items()))
    Seating.objects.filter(sitting__session=session, player__name=name).update(
        left_at="2026-01-01T20:00Z"
    )
    with pytest.raises(ConflictError) as refused:
        seat_call_make(token=token, reason="dispute", text="")
    assert refused.value.code == "not_seated"
    assert not DirectorCall.objects.exists()


def test_a_seat_lets_its_player_call_to_their_own_table_only(
    online_session: Callable[..., Session], director: Any
) -> None:
    session = online_session(8)
    tables = list(Table.objects.filter(sitting__session=session).order_by("rank"))
    seated = _seat(session, Seating.objects.filter(table=tables[0]).first().player.name)
    player = Actor(seat_player_id=seated.player_id)
    assert can_call_director(player, tables[0])
    assert not can_call_director(player, tables[1])
    assert not can_call_director(Actor(), tables[0])  # the public
    with pytest.raises(PermissionDenied):
        calls.director_call_make(table_id=tables[1].pk, reason="dispute", text="", user=player)
