"""The locks of a change at an online table (`play.rounds.lock`): the current game and
its live round taken in one statement on PostgreSQL, each row locked as the lock order
says (docs/architecture.md, "Lock order")."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection, transaction

from play import rounds
from play.models import LiveRound
from scoring.models import Game
from tests.postgres import other_connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _locked_elsewhere(sql: str, pk: int) -> bool:
    """Whether another connection finds the row locked (`NOWAIT` refuses at once)."""
    with other_connection() as other:
        try:
            other.execute(sql + " NOWAIT", [pk])
        except psycopg.errors.LockNotAvailable:
            return True
        return False


GAME_ROW = f"SELECT 1 FROM {Game._meta.db_table} WHERE id = %s FOR KEY SHARE"
LIVE_ROW = f"SELECT 1 FROM {LiveRound._meta.db_table} WHERE id = %s FOR KEY SHARE"


def test_the_current_game_and_its_live_round_are_read_and_locked_as_the_rows_hold_them(
    online_session: Any,
) -> None:
    online_session(4)
    live = LiveRound.objects.select_related("game").get()
    game = live.game
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # the test's connection open before it counts
    with transaction.atomic():
        at = rounds.lock(game.table_id)
        assert at.game is not None
        assert at.live is not None
        assert (at.game.pk, at.game.number, at.game.status) == (game.pk, 1, game.status)
        assert at.game.table is at.table
        assert (at.live.pk, at.live.move, at.live.state) == (live.pk, live.move, live.state)
        # FOR NO KEY UPDATE of the game leaves a KEY SHARE free; FOR UPDATE of the live
        # round does not.
        assert not _locked_elsewhere(GAME_ROW, game.pk)
        assert _locked_elsewhere(GAME_ROW.replace("KEY SHARE", "NO KEY UPDATE"), game.pk)
        assert _locked_elsewhere(LIVE_ROW, live.pk)
    assert not _locked_elsewhere(LIVE_ROW, live.pk)


def test_a_new_game_with_no_live_round_yet_is_the_current_one(online_session: Any) -> None:
    """The newest game is the current one even when an earlier game of the table has a
    live round and it has none: it is locked, with no live round."""
    online_session(4)
    first = Game.objects.get(number=1)
    second = Game.objects.create(
        table_id=first.table_id,
        number=2,
        rules_id=first.rules_id,
        first_dealer_id=first.first_dealer_id,
    )
    with transaction.atomic():
        at = rounds.lock(first.table_id)
        assert at.game is not None
        assert (at.game.pk, at.live) == (second.pk, None)
        assert _locked_elsewhere(GAME_ROW.replace("KEY SHARE", "NO KEY UPDATE"), second.pk)
        assert not _locked_elsewhere(GAME_ROW.replace("KEY SHARE", "NO KEY UPDATE"), first.pk)
