from __future__ import annotations

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the scorer-link security scheme with drf-spectacular.
        from api import schema  # noqa: F401
