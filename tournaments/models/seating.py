"""Who sits where: sittings, tables, seatings, sit-outs, and the placings and standings
the movements and the session's end write."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q
from django.db.models.base import DEFERRED
from django.utils.translation import gettext_lazy

from tournaments.models.club import Player
from tournaments.models.session import Session


class Sitting(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="sittings")
    number = models.PositiveSmallIntegerField()
    games_per_sitting = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    moved_at = models.DateTimeField(
        null=True, blank=True, help_text="When the movement after this sitting was confirmed."
    )
    # The sitting's timer (docs/tournament.md, "The sitting timer"): running while
    # `timer_ends_at` is set, paused while `timer_paused_left` (seconds) is, not started
    # when neither is. Screens count down to the end time the server keeps, never from a
    # counter of their own, so a screen that slept shows the right time when it wakes.
    timer_ends_at = models.DateTimeField(null=True, blank=True)
    timer_paused_left = models.PositiveIntegerField(null=True, blank=True)
    # The club's keep-apart pairs the seating of this sitting could not keep apart, and
    # why (tournaments.format.keep_apart): [{"players": [id, id], "reason": "..."}], set
    # when the session starts, shown to the director on the session's page and in the
    # API's start answer.
    not_kept_apart = models.JSONField(default=list, blank=True)
    # Duplicate deals (the app `play`, docs/tournament.md "Duplicate deals"): copied from
    # the session when the sitting is made. Every online table of the same size is dealt
    # the same cards for the same game and round, shuffled under `deal_key`, a secret never
    # shown: the cards of a deal stay hidden until every table that plays it has.
    duplicate = models.BooleanField(
        default=False, help_text="The online tables of the same size play the same deals."
    )
    deal_key = models.CharField(max_length=64, blank=True, default="")
    # What the tables of players who do not move did this sitting ("Ann stays at table 5,
    # which hosts rank 2 this sitting"), for the director (tournaments.format.table_numbers).
    table_notes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="sitting_number_unique"),
            models.CheckConstraint(
                condition=Q(games_per_sitting__in=[2, 3]), name="sitting_games_2_or_3"
            ),
            models.CheckConstraint(
                condition=Q(duplicate=False) | ~Q(deal_key=""), name="sitting_duplicate_has_key"
            ),
        ]

    def __str__(self) -> str:
        return f"Sitting {self.number}"


class Table(models.Model):
    """One table of a sitting. `rank` is its place in the format (1 is the top table);
    `number` is the physical table its players sit at, the number on its table card, the
    wall list and every page players see. They are equal unless a player who does not
    move is fixed to a table (`SessionPlayer.fixed_table`, docs/format.md "Tables that do
    not move"); a table made without a number gets its rank."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="tables")
    rank = models.PositiveSmallIntegerField(help_text="1 is the top table.")
    number = models.PositiveSmallIntegerField(
        help_text="The physical table the players sit at (its card's number)."
    )
    # Played online (the app `play`): set from `Session.online` when the sitting's tables
    # are made, carried by rank through the movement, toggled per table on a hybrid night.
    online = models.BooleanField(
        default=False, help_text="The table plays online, on the players' phones."
    )

    class Meta:
        ordering = ["sitting", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "rank"], name="table_rank_unique"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="table_rank_positive"),
            models.UniqueConstraint(fields=["sitting", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The default number is the rank: every table made before fixed tables existed
        # (a club file, a bulk create, a test) is numbered as it always was. A row read
        # with deferred fields (`DEFERRED` among the arguments) is left as it is.
        if any(a is DEFERRED for a in args):
            return
        if self.__dict__.get("number") is None and self.__dict__.get("rank") is not None:
            self.number = self.rank

    def __str__(self) -> str:
        return f"Table {self.number}"


class Seating(models.Model):
    """One player in one seat (clockwise order) at one table of one sitting."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seatings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seatings")
    seat = models.PositiveSmallIntegerField()
    left_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when the player withdrew or was moved away."
    )

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="player_sits_once"),
            models.UniqueConstraint(fields=["table", "seat"], name="seat_holds_one_player"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="seat_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} seat {self.seat}"


class SitOut(models.Model):
    """A player who sits out a sitting because the rules' table sizes cannot seat everyone
    (Buck Euchre: the players over a multiple of four, in turn)."""

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sit_outs")

    class Meta:
        ordering = ["sitting", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="sit_out_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.sitting}"


class Placing(models.Model):
    """A player's place at a table after a sitting, and the move it earned: written when
    the director confirms a movement, so every tie-break stays on record."""

    class Direction(models.TextChoices):
        UP = "up", gettext_lazy("Up")
        DOWN = "down", gettext_lazy("Down")
        STAY = "stay", gettext_lazy("Stay")

    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="placings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="placings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="placings")
    place = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    games_won = models.PositiveSmallIntegerField()
    hooks = models.PositiveSmallIntegerField()
    last_game_score = models.IntegerField()
    decided_by = models.CharField(max_length=20, blank=True)
    direction = models.CharField(max_length=4, choices=Direction.choices)
    to_rank = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=300)

    class Meta:
        ordering = ["table__rank", "place"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "player"], name="placing_once_per_sitting"),
            models.UniqueConstraint(fields=["table", "place"], name="placing_place_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.place} at {self.table}"


class SessionStanding(models.Model):
    """A player's final standing in a finished session, kept for the season ladder."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    position = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    games_played = models.PositiveSmallIntegerField()
    games_won = models.PositiveSmallIntegerField()
    hooks = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="standing_once"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.player}"
