"""A session (one night) and its roster."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from tournaments.models.club import Club, Player, Season, rules_choices
from tournaments.models.prizes import PayoutTable


def new_door_code() -> str:
    """Four digits drawn with `secrets`: the door code of a new session (docs/tournament.md,
    "Self check-in at the door")."""
    return f"{secrets.randbelow(10_000):04d}"


class Session(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", gettext_lazy("Checking in")
        RUNNING = "running", gettext_lazy("Running")
        FINISHED = "finished", gettext_lazy("Finished")
        # Called off before it started: kept (with its roster) but never run.
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

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
        RANDOM = "random", gettext_lazy("Random split")
        STRONGEST_TOP = (
            "strongest_top",
            gettext_lazy("From ratings: the strongest at the top table"),
        )
        BALANCED = "balanced", gettext_lazy("From ratings: balanced tables")

    seeding = models.CharField(
        max_length=20,
        choices=Seeding.choices,
        default=Seeding.RANDOM,
        help_text="How the first sitting is split into tables: at random (the association's "
        "format), or from the players' ratings under the session's rules.",
    )

    # Entry fees and prizes (docs/tournament.md): no fee is a free session. The pool is the
    # fixed amount if there is one, else the share of the fees collected (100 % if none).
    entry_fee = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    pool_share = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    pool_fixed = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    payout_table = models.ForeignKey(
        PayoutTable,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="How the pool is split; empty: the club's default table.",
    )
    # Sign-up before the night (docs/tournament.md, "Sign-up and the waitlist"; the
    # sign-ups themselves are `tournaments.models.registrations.Registration`).
    registration_open = models.BooleanField(
        default=False,
        help_text="Players may sign up on the session's sign-up page until it starts.",
    )
    capacity = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="How many players the night takes; beyond it sign-ups join the waitlist. "
        "Empty: no limit.",
    )
    # The sign-up link of a private session carries it (`?invite=`); made the first time
    # sign-up opens, so that no two sessions ever share one.
    registration_invite = models.CharField(max_length=32, blank=True, default="")
    # Self check-in at the door (workflow.front.door): the code shown on the projector and the
    # director's page, whether players may check themselves in, and whether a name that
    # is not on the roster may join it there.
    door_code = models.CharField(
        max_length=4,
        default=new_door_code,
        help_text="Four digits a player types to check in at the door.",
    )
    self_check_in_open = models.BooleanField(
        default=True,
        help_text="Players may check themselves in at the door (with the door code).",
    )
    walk_ins_allowed = models.BooleanField(
        default=False,
        help_text="A name not on the roster may check in at the door and joins the roster.",
    )
    # Online play (docs/tournament.md, "Online play"; the app `play`): every table of the
    # session plays on the players' phones; a hybrid night sets `Table.online` per table.
    online = models.BooleanField(
        default=False,
        help_text="Every table plays online: the cards are dealt and played on the phones.",
    )
    # Duplicate deals (docs/tournament.md, "Duplicate deals"): each sitting made while
    # this is on deals the same cards at every online table of the same size.
    duplicate = models.BooleanField(
        default=False,
        help_text="Every online table of the same size plays the same deals, sitting by sitting.",
    )
    # Robots fill seats (docs/tournament.md, "Robots fill seats"): at the start and at
    # every movement of an online session, the seats no split can give a person.
    fill_with_robots = models.BooleanField(
        default=False,
        help_text="Robots take the seats that would leave players sitting out or a table "
        "short, at the start and at every movement (an online session only).",
    )
    online_grace_seconds = models.PositiveSmallIntegerField(
        default=60,
        help_text="How long an online player may be away before a robot plays for them.",
    )
    move_clock_seconds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The time an online player has for each move before a robot plays it. "
        "Empty: no clock.",
    )

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(games_per_sitting__in=[2, 3]), name="session_games_per_sitting_2_or_3"
            ),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="session_capacity_positive",
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
    # Paid the session's entry fee (cash at the door); only a session with a fee has it.
    paid = models.BooleanField(default=False)
    # When the player checked themselves in at the door (workflow.front.door); None when the
    # director checked them in, or the check-in was taken back.
    self_checked_in_at = models.DateTimeField(null=True, blank=True)
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
