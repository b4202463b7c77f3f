"""The sitting timer's output shape (`api.views.timer`)."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers import Data


class TimerSerializer(serializers.Serializer[Data]):
    sitting = serializers.IntegerField(
        allow_null=True, help_text="The current sitting's number; null before the start."
    )
    sitting_minutes = serializers.IntegerField(
        allow_null=True, help_text="Minutes per sitting; null: the session has no timer."
    )
    state = serializers.ChoiceField(
        choices=["off", "ready", "running", "paused"],
        help_text="off: no timer; ready: not started; running; paused.",
    )
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="While running: when time is up. Count down to this."
    )
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Seconds left now (0 once time is up); null when off."
    )
    time_is_up = serializers.BooleanField()
    server_time = serializers.DateTimeField(help_text="The server's clock, to correct yours.")
