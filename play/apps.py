from __future__ import annotations

from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from play import tasks
        from tournaments.signals import seats_changed

        # A change of seats wakes the tables it concerns (play.scheduler).
        seats_changed.connect(tasks.seats_changed, dispatch_uid="play-wake")
