"""Clubs, their seasons, their players and the season's Big Loser."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

import engine


def rules_choices() -> list[tuple[str, str]]:
    """Every rules id the engine knows, with its name: a callable, so a new game needs no
    migration (the migration refers to this function, not to a list of ids)."""
    return [(rules_id, info.name) for rules_id, info in engine.RULES.items()]


def language_choices() -> list[tuple[str, str]]:
    """The shipped languages (`settings.LANGUAGES`): a callable, so adding one needs no
    migration."""
    return list(settings.LANGUAGES)


def validate_time_zone(name: str) -> None:
    """An IANA time zone name the machine knows, such as "Europe/London"."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            gettext("“%(name)s” is not a time zone name such as Europe/London.") % {"name": name}
        ) from None


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
    # The language of the club's pages and their dates and numbers, unless a visitor chose
    # their own (huckley/languages.py; docs/tournament.md, "Languages").
    language = models.CharField(
        max_length=10,
        choices=language_choices,
        default="en-us",
        help_text="The language of the club's pages, with its dates and numbers.",
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

    # Entry fees and prizes (docs/tournament.md): the currency written before amounts (a
    # symbol such as £ or a code such as EUR; empty: none), and the unit prizes are
    # rounded to.
    currency = models.CharField(max_length=8, blank=True, default="")
    money_unit = models.CharField(
        max_length=5,
        choices=[
            ("cent", gettext_lazy("Cents (0.01)")),
            ("whole", gettext_lazy("Whole units (1)")),
        ],
        default="cent",
        help_text="Prizes are rounded down to it; the odd units go to the best placed.",
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
    # A robot a director seated to fill a short online table (the app `play`): the engine's
    # robot plays every move of it; ratings skip it and the standings mark it.
    is_robot = models.BooleanField(
        default=False, help_text="A robot that plays online for an empty seat."
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
