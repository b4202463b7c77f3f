"""A club's payout tables: how a session's prize pool is split (docs/tournament.md,
"Entry fees and prizes"). The arithmetic is `tournaments.format.prizes`; the writes are
`workflow.club.prizes`."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q

from tournaments import format as fmt
from tournaments.models.club import Club


class PayoutTable(models.Model):
    """A named split of the pool: the places' percentages (adding up to 100, none more
    than the place above), and optional extra prizes taken from the pool first, each a
    fixed amount ("10.00") or a percentage of the pool ("5.00%"), stored as typed after
    the service checked it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="payout_tables")
    name = models.CharField(max_length=60)
    #: The places' percentages as text ("50.00", "30.00", "20.00"): exact, best first.
    places = models.JSONField(default=list)
    big_loser = models.CharField(
        max_length=16, blank=True, default="", help_text="The night's last place: an amount or N%."
    )
    most_hooks = models.CharField(
        max_length=16, blank=True, default="", help_text="Most hooks of the night: an amount or N%."
    )
    #: The table a session uses when it names none.
    is_default = models.BooleanField(default=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="payout_table_name_per_club"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(is_default=True), name="payout_table_one_default"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def percents(self) -> list[Decimal]:
        return [Decimal(p) for p in self.places]

    def extras(self) -> list[tuple[str, fmt.Prize]]:
        """The extra prizes it pays, by name, in the order they come out of the pool."""
        found = []
        for name in ("big_loser", "most_hooks"):
            prize = fmt.parse_prize(getattr(self, name), what=name)
            if prize is not None:
                found.append((name, prize))
        return found
