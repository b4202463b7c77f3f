"""The rows of online play: each player's seat link, and the round being played at an
online table."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import connection, models
from django.utils import timezone

from scoring.models import Game
from tournaments.models import Player, Session


def new_seat_token() -> str:
    """A seat link's token: 16 random bytes from `secrets`, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


class SeatLink(models.Model):
    """A player's personal link to their seat for a whole session: `/play/<token>/`.

    It names the session and the player, never a table: the view finds the player's
    seating in the session's current sitting, so the link follows its player through every
    movement, as a table card follows its table. The token is the player's credential.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seat_links")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seat_links")
    token = models.CharField(max_length=32, unique=True, default=new_seat_token)
    created_at = models.DateTimeField(auto_now_add=True)
    # When a robot last took over for the player, away past the grace time: from then a
    # robot plays each of their turns at once, through the following rounds, games and
    # sittings, until the player is seen again after it (a read, a ping, a move).
    away_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="seat_link_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.session}"


class LiveRound(models.Model):
    """The round being played at an online table, between two moves.

    `state` is the engine's `OnlineRound.to_json()`, every hand and the undealt pack
    included: it is never shown, only the engine's `view` of it. `move` is the state's
    number: 0 when dealt, one more after each move, the number a phone sends back with its
    move. `history` lists this round's moves (`{"move", "player", "action", "robot"}`).
    A round that ended is kept until the next one is dealt: its game has it recorded.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="live_round")
    number = models.PositiveSmallIntegerField(help_text="The round's number in its game.")
    state = models.JSONField()
    move = models.PositiveIntegerField(default=0)
    history = models.JSONField(default=list, blank=True)
    dealt_at = models.DateTimeField(default=timezone.now, help_text="When this round was dealt.")
    turn_started_at = models.DateTimeField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Round {self.number} of {self.game}"


class TableDeadline(models.Model):
    """When an online table next needs the scheduler (`play.scheduler`): a round to deal,
    a robot's move due, a grace time or a move clock running out. One row per table at
    most (the table is the key), moved by every change of the table's phase under its
    locks and deleted when nothing can fall due; the scheduler runs the rows whose time
    has come (docs/architecture.md, "The phases of a table")."""

    table = models.OneToOneField(
        "tournaments.Table", on_delete=models.CASCADE, primary_key=True, related_name="deadline"
    )
    due_at = models.DateTimeField(db_index=True)
    phase = models.CharField(max_length=16, help_text="The phase that falls due then.")

    def __str__(self) -> str:
        return f"Table {self.table_id} {self.phase} at {self.due_at:%H:%M:%S}"

    @classmethod
    def keep(cls, table_id: int, due: datetime | None, phase: str) -> None:
        """The table's one row at `due` for `phase`, or none when `due` is None: one
        statement on either database, written once (a deal, a round stored, a robot's
        move each keep it, under the table's locks)."""
        table = cls._meta.db_table
        params: list[Any]
        if due is None:
            sql, params = f"DELETE FROM {table} WHERE table_id = %s", [table_id]
        else:
            sql = (
                f"INSERT INTO {table} (table_id, due_at, phase) VALUES (%s, %s, %s)"
                " ON CONFLICT (table_id) DO UPDATE"
                " SET due_at = excluded.due_at, phase = excluded.phase"
            )
            params = [table_id, connection.ops.adapt_datetimefield_value(due), phase]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
