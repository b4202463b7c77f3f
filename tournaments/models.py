"""Clubs, seasons, players and the shape of a session: sittings, tables and seatings.

The rules of the format live in `tournaments.format` (pure Python); writes go through
`workflow.services` and its siblings, reads through `workflow.selectors`.

Why one module of over 400 lines: it is one thing, the tournament's tables and the
constraints between them (a player sits once per sitting, a seat holds one player, table
ranks are unique), and Django's migrations read it as one app's models. Each class is
short; behaviour beyond small helpers lives in the services.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

import engine


def rules_choices() -> list[tuple[str, str]]:
    """Every rules id the engine knows, with its name: a callable, so a new game needs no
    migration (the migration refers to this function, not to a list of ids)."""
    return [(rules_id, info.name) for rules_id, info in engine.RULES.items()]


def validate_time_zone(name: str) -> None:
    """An IANA time zone name the machine knows, such as "Europe/London"."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"“{name}” is not a time zone name such as Europe/London.") from None


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_clubs", blank=True
    )
    big_loser_criterion = models.CharField(
        max_length=20,
        choices=[("hooks", "Most hooks, then fewest points"), ("points", "Fewest points")],
        default="hooks",
        help_text="How the app suggests a Big Loser at the end of a season.",
    )
    # Every time on the club's pages is shown in it, and says so (docs/tournament.md).
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="An IANA name such as Europe/London; every time on the club's pages uses it.",
    )
    ladder_scoring = models.CharField(
        max_length=20,
        choices=[
            ("average", "Best average finishing position"),
            ("placings", "Points per placing"),
            ("totals", "Total game points"),
        ],
        default="average",
        help_text="How the season ladder ranks players (docs/tournament.md, Ladder scoring).",
    )
    ladder_best_nights = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Only each player's best N nights count; empty: every night counts.",
    )
    # The printed sheets' paper unless a director picks another (docs/tournament.md,
    # Printing): A4, or Letter for a club in North America.
    paper = models.CharField(
        max_length=10,
        choices=[("a4", "A4"), ("letter", "Letter")],
        default="a4",
        help_text="The paper the printed sheets use unless the director picks another.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ladder_best_nights__isnull=True) | Q(ladder_best_nights__gte=1),
                name="club_ladder_best_nights_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def zone(self) -> zoneinfo.ZoneInfo:
        """The club's time zone; UTC if the stored name is unknown to this machine."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts_on = models.DateField()
    ends_on = models.DateField()
    # A closed season takes no new session; its standings and Big Loser stay.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_per_club"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.name}"


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # An inactive player is left out of new sessions' rosters; their history stays.
    active = models.BooleanField(default=True)
    email = models.EmailField(blank=True, default="")
    # The club's own id for the player (a membership number), so that a roster file from
    # the club's spreadsheet matches the same player however the name is spelled.
    external_id = models.CharField(max_length=64, blank=True, default="")
    seed_rating = models.FloatField(
        null=True, blank=True, help_text="A rating brought in by an import."
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_per_club"),
            models.UniqueConstraint(
                fields=["club", "external_id"],
                condition=~Q(external_id=""),
                name="player_external_id_unique_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class BigLoserAward(models.Model):
    """The season's trophy. Its holder starts every session of the next season at the
    bottom table."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="big_loser")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="big_loser_awards")
    note = models.CharField(max_length=200, blank=True)
    awarded_at = models.DateTimeField(auto_now_add=True)
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    def __str__(self) -> str:
        return f"{self.season}: {self.player}"


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

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="roster_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.session}"


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

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="sitting_number_unique"),
            models.CheckConstraint(
                condition=Q(games_per_sitting__in=[2, 3]), name="sitting_games_2_or_3"
            ),
        ]

    def __str__(self) -> str:
        return f"Sitting {self.number}"


class Table(models.Model):
    sitting = models.ForeignKey(Sitting, on_delete=models.CASCADE, related_name="tables")
    rank = models.PositiveSmallIntegerField(help_text="1 is the top table.")

    class Meta:
        ordering = ["sitting", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["sitting", "rank"], name="table_rank_unique"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="table_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.rank}"


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


class TableCard(models.Model):
    """The permanent link (and QR code) of one table number of a session: printed once,
    left on the table, and valid all night. Opening it opens the game now played at that
    table number, whatever the movements did (docs/tournament.md, "Table cards").

    A director may replace one card: the old row stays with `replaced_at` set, so its page
    can say when it was replaced; one live card per number.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    replaced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"],
                condition=Q(replaced_at__isnull=True),
                name="table_card_live_once_per_number",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_card_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Card for table {self.number} of {self.session}"


class ClubTableCard(models.Model):
    """A laminated card for one table number of a club: it opens that table of whichever
    session of the club is running. Rotating the club's cards replaces all of them."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    replaced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "number", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "number"],
                condition=Q(replaced_at__isnull=True),
                name="club_table_card_live_once_per_number",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="club_table_card_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Club card for table {self.number} of {self.club}"


class ScorerLink(models.Model):
    """Scorer access to one table of one sitting, handed out as a link or QR code.

    Whoever opens the link may enter and correct that table's rounds, without an account,
    until the director revokes it or the sitting's movement is confirmed.

    A table card opens the table through a link of its own (`card` or `club_card` set),
    made when the card is first opened for that table: so a card is exactly as narrow as a
    scorer link, and replacing the card revokes it.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scorer_links")
    token = models.CharField(max_length=64, unique=True)
    card = models.ForeignKey(
        TableCard, null=True, blank=True, on_delete=models.CASCADE, related_name="links"
    )
    club_card = models.ForeignKey(
        ClubTableCard, null=True, blank=True, on_delete=models.CASCADE, related_name="links"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Scorer link for {self.table}"


class Placing(models.Model):
    """A player's place at a table after a sitting, and the move it earned: written when
    the director confirms a movement, so every tie-break stays on record."""

    class Direction(models.TextChoices):
        UP = "up", "Up"
        DOWN = "down", "Down"
        STAY = "stay", "Stay"

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
