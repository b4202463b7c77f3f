"""Table cards (a session's and a club's) and scorer links."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.club import Club
from tournaments.models.seating import Table
from tournaments.models.session import Session


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
