"""Seating wishes a club keeps between sessions: pairs of players who should not start at
the same table (docs/tournament.md, "Seating wishes"; docs/format.md, "Keep apart")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from tournaments.models.club import Club, Player


class KeepApart(models.Model):
    """Two players of a club kept from starting a session at the same table (spouses,
    siblings). Stored once per pair, the player with the smaller id first
    (`workflow.club.seating_wishes.keep_apart_add` puts them in that order)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="keep_apart")
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["club", "first__name", "second__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="keep_apart_pair_once"),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="keep_apart_pair_in_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} and {self.second} kept apart"
