"""A session (one night) and its roster."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.club import Club, Player, Season, rules_choices


class Session(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Checking in"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        # Called off before it started: kept (with its roster) but never run.
        CANCELLED = "cancelled", "Cancelled"

    # The one default for a new session's visibility: the page's form, the API and the
    # service all use it (docs/tournament.md: public unless the director says otherwise).
    PUBLIC_BY_DEFAULT = True

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="sessions")
    name = models.CharField(max_length=120)
    date = models.DateField()
    rules_id = models.CharField(max_length=30, choices=rules_choices, default="huckley-buck")
    games_per_sitting = models.PositiveSmallIntegerField(
        default=2, choices=[(2, "2 games"), (3, "3 games")]
    )
    seed = models.BigIntegerField(help_text="Every random choice of the session derives from it.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    big_loser = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Last season's Big Loser, placed at the bottom table when the session started.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ended_early = models.BooleanField(default=False)
    is_public = models.BooleanField(
        default=PUBLIC_BY_DEFAULT,
        help_text="Anyone may see its tables, find-my-table and standings, without an account.",
    )
    # Bumped by every write that changes who sits where or how many games a table has
    # finished, so the public board can be cached under (session, version).
    board_version = models.PositiveIntegerField(default=0)
    # Bumped by every write a live screen shows (each round, each board change, the
    # session's end): the projector and player pages poll it and re-render on a change.
    live_version = models.PositiveIntegerField(default=0)
    double_entry = models.BooleanField(
        default=False,
        help_text="A round entered by one person stays pending until a second person at the "
        "table, or a director, enters the same numbers.",
    )

    sitting_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A club that plays to time: each sitting's timer, in minutes, started with "
        "the sitting. Empty: no timer.",
    )

    class Seeding(models.TextChoices):
        RANDOM = "random", "Random split"
        STRONGEST_TOP = "strongest_top", "From ratings: the strongest at the top table"
        BALANCED = "balanced", "From ratings: balanced tables"

    seeding = models.CharField(
        max_length=20,
        choices=Seeding.choices,
        default=Seeding.RANDOM,
        help_text="How the first sitting is split into tables: at random (the association's "
        "format), or from the players' ratings under the session's rules.",
    )

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(games_per_sitting__in=[2, 3]), name="session_games_per_sitting_2_or_3"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class SessionPlayer(models.Model):
    """A player on a session's roster: checked in or not, withdrawn or not."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(default=False)
    arrived_late = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # A player who cannot move (mobility) stays at this physical table all night: each
    # sitting, that table hosts the rank they play at (tournaments.format.table_numbers).
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The physical table this player stays at all night; empty: they move.",
    )

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="roster_player_once"),
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1),
                name="roster_fixed_table_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.session}"
