"""Player ratings per club and rules id, and the history row each finished game leaves.

Both tables are derived data: `ratings.services` rebuilds them from the finished games at
any time, and every change to a finished game recomputes them from that game on.
"""

from __future__ import annotations

from django.db import models

from scoring.models import Game
from tournaments.models import Club, Player


class Rating(models.Model):
    """A player's current rating under one rules id (openskill Weng-Lin Plackett-Luce)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    rules_id = models.CharField(max_length=30)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: what the pages and the API show and sort by.
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "rules_id"], name="rating_once_per_rules"),
        ]
        indexes = [models.Index(fields=["club", "rules_id", "ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.rules_id} {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating after one finished game: the chart on the player page, "most
    improved", and the starting point when a later game is recomputed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    rules_id = models.CharField(max_length=30)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_history")
    # The game's place in the fixed order the games are applied in (session date, start
    # time, session id, sitting, game number, table rank), as one sortable string.
    order_key = models.CharField(max_length=80)
    rank = models.PositiveSmallIntegerField()
    ordinal_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["order_key", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_history_once"),
        ]
        indexes = [
            models.Index(fields=["club", "rules_id", "order_key"], name="rating_history_order"),
            models.Index(fields=["player", "rules_id", "order_key"], name="rating_history_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.game}: {self.ordinal:.2f}"
