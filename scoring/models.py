"""Games and rounds as entered at the table, with the history of every change.

A round is stored as the scorer entered it, in the game record's shape; `scoring.services`
turns rows into a game record, has the engine check it, and keeps the game's summary in
step within one transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from tournaments.models import Player, ScorerLink, Table


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", gettext_lazy("Playing")
        FINISHED = "finished", gettext_lazy("Finished")

    class DealerSource(models.TextChoices):
        DRAW = "draw", gettext_lazy("High-card draw from the session seed")
        PREVIOUS_WINNER = "previous_winner", gettext_lazy("Winner of the previous game")
        ENTERED = "entered", gettext_lazy("Entered by the scorer")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    rules_id = models.CharField(max_length=30)
    options = models.JSONField(default=dict, blank=True)
    first_dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer_source = models.CharField(max_length=20, choices=DealerSource.choices)
    first_dealer_draw = models.JSONField(
        default=dict, blank=True, help_text="The card each player drew, by player id."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    round_count = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} at {self.table}"


class GamePlayer(models.Model):
    """Who plays a game, in seat order: the record's `players`."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="game_players")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    # The name the game record uses for this player, fixed when the game starts so that a
    # later rename never changes a stored record.
    name = models.CharField(max_length=60)
    # The engine's verdict on the stored rounds, kept in step with them by the services so
    # that standings are plain aggregates.
    score = models.IntegerField(default=0)
    hooks = models.PositiveSmallIntegerField(default=0)
    won = models.BooleanField(default=False)
    # A substitute took this seat in the middle of the game (docs/tournament.md,
    # "Withdrawals"): `player` and `name` are the substitute's; these say who played the
    # seat before and for how many rounds. The game's result counts for the substitute.
    replaced = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    replaced_name = models.CharField(max_length=60, blank=True, default="")
    replaced_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_seat_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="game_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game}"


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # The round exactly as entered, in the game record's shape (names as in GamePlayer.name).
    data = models.JSONField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The key the scorer's page (or an API client) sent with the round: a resend of a
    # round kept on a phone while the network was down answers as success, never twice.
    entry_key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.game}"


class RoundChange(models.Model):
    """Who entered, corrected or deleted a round, when, and what it said before and after."""

    class Action(models.TextChoices):
        ENTER = "enter", gettext_lazy("Entered")
        EDIT = "edit", gettext_lazy("Corrected")
        DELETE = "delete", gettext_lazy("Deleted")
        RESTORE = "restore", gettext_lazy("Restored")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    round_number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    scorer_link = models.ForeignKey(
        ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    # What the change took away at the table besides its own round: the next game, set
    # up by this game's old result, with the rounds it had ({"game", "first_dealer",
    # "rounds"}). Kept so that nothing is deleted silently and a director can restore it.
    removed = models.JSONField(null=True, blank=True)
    # When a director put this change back (`scoring.corrections.round_change_restore`).
    restored_at = models.DateTimeField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"Round {self.round_number} {self.get_action_display().lower()}"


class PendingRound(models.Model):
    """With double entry, a round one person entered, waiting for a second person at the
    table (or a director) to enter the same numbers."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pending_rounds")
    number = models.PositiveSmallIntegerField()
    data = models.JSONField()
    # Who entered it: an account, a browser holding a scorer link, or an API client.
    device = models.CharField(max_length=80)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    scorer_link = models.ForeignKey(
        ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "device"], name="pending_once_per_device"
            ),
        ]

    def __str__(self) -> str:
        return f"Pending round {self.number} of {self.game}"
