from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Scoring announces changed results with a signal it owns; ratings listens here so
        # that scoring never imports ratings.
        from ratings import receivers  # noqa: F401
