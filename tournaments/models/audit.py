"""What the directors did: one row per director write, kept with the write.

`tournaments.audit.record` writes the rows, inside the write's own transaction and after
its change, so a refused or rolled-back write leaves none (docs/tournament.md, "What the
directors did").
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from tournaments.models.club import Club
from tournaments.models.session import Session


class AuditEntry(models.Model):
    """Who did what, when, to which club (and session). The account may be deleted later:
    `who_label` keeps its name ("system" for the machine), and a deleted session leaves its
    entries with `session` empty and its name in `details`."""

    # No foreign key in the database (Django still deletes the entries with their club):
    # checking one would take a key-share lock on the club's row in every director write,
    # so a session's write (holding the session) would wait on a club write holding the
    # club (a rename), which waits on the session: the lock order (docs/architecture.md).
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="audit_entries", db_constraint=False
    )
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_entries"
    )
    who = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    who_label = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    # A stable slug, `<subject>.<verb>` (`session.start`, `movement.undo`): the filters, the
    # API and the club file name actions by it.
    action = models.CharField(max_length=60)
    summary = models.CharField(max_length=500)
    details = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["club", "-at", "-id"], name="audit_club_at"),
            models.Index(fields=["club", "action", "-at"], name="audit_club_action"),
            models.Index(fields=["club", "who_label", "-at"], name="audit_club_who"),
            models.Index(fields=["session", "-at", "-id"], name="audit_session_at"),
        ]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.who_label}: {self.summary}"
