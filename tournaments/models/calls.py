"""Calls for the director from a table (docs/tournament.md, "Calling the director")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from tournaments.models.cards import ScorerLink
from tournaments.models.seating import Table
from tournaments.models.session import Session


class DirectorCall(models.Model):
    """A table asks for the director: a reason, a short text, when. Kept with the session,
    handled or not. Who called is the table's scorer link (or the table card's link) and,
    when a signed-in director called for a table, that account: nothing more about the
    person at the table. One open call per table: a second one is refused until the
    director has handled the first (`workflow.front.calls.director_call_make`)."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", gettext_lazy("A dispute")
        MISDEAL = "misdeal", gettext_lazy("A misdeal")
        RENEGE = "renege", gettext_lazy("A renege")
        QUESTION = "question", gettext_lazy("A question")
        OTHER = "other", gettext_lazy("Other")

    #: The longest short text a call carries.
    TEXT_MAX = 200

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="director_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="director_calls")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.CharField(max_length=TEXT_MAX, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    scorer_link = models.ForeignKey(
        ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["session", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(handled_at__isnull=True),
                name="director_call_open_once_per_table",
            ),
        ]
        indexes = [models.Index(fields=["session", "handled_at"], name="director_call_session")]

    def __str__(self) -> str:
        return f"Call from {self.table} ({self.reason})"

    @property
    def is_open(self) -> bool:
        return self.handled_at is None
