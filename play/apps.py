from __future__ import annotations

from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from play import push, tasks
        from tournaments.signals import seats_changed

        # Every write that changes a seat (whatever its layer) pushes the phones' new
        # views once it commits (docs/architecture.md, "Seats changed"), and wakes the
        # tables it concerns (play.scheduler).
        seats_changed.connect(push.seats_changed, dispatch_uid="play-push-seats")
        seats_changed.connect(tasks.seats_changed, dispatch_uid="play-wake")
