"""Sign-up before the night: a player's registration for a session, registered (a place
on the roster) or on the waitlist, and cancelled when they call it off.

The rules (capacity, waitlist order, promotion) are `workflow.front.registrations`'; this module
only keeps the rows and what must always hold of them.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from tournaments.models.club import Player
from tournaments.models.session import Session


class Registration(models.Model):
    """One sign-up. `number` is its place in the order of signing up (1, 2, 3, ... per
    session): the waitlist is served in that order. The `token` is the person's own
    link: whoever holds it may see the sign-up and cancel it."""

    class Status(models.TextChoices):
        REGISTERED = "registered", gettext_lazy("Registered")
        WAITLISTED = "waitlisted", gettext_lazy("On the waitlist")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    # The name as the person typed it (spaces folded); `player` is the club's record it
    # matched or created.
    name = models.CharField(max_length=60)
    email = models.EmailField(blank=True, default="")
    # Their table by email after each movement (only when it changes); needs an email.
    email_assignment = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=Status.choices)
    number = models.PositiveIntegerField()
    token = models.CharField(max_length=64, unique=True)
    # Where the person signed up (scheme and host), for the links in their emails.
    site = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    promoted_at = models.DateTimeField(null=True, blank=True)
    promotion_emailed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # The last sitting whose table was emailed to them, so that a task run twice sends once.
    assignment_emailed_sitting = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="registration_number_once"),
            # A player is signed up once per session (a cancelled sign-up may be followed
            # by a new one).
            models.UniqueConstraint(
                fields=["session", "player"],
                condition=~Q(status="cancelled"),
                name="registration_player_once",
            ),
            models.CheckConstraint(
                condition=Q(status="cancelled", cancelled_at__isnull=False)
                | (~Q(status="cancelled") & Q(cancelled_at__isnull=True)),
                name="registration_cancelled_has_its_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} for {self.session} ({self.status})"
