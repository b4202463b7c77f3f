from __future__ import annotations

from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    """Import and export: roster files in, sessions, ladders and whole clubs out."""

    name = "exchange"
    default_auto_field = "django.db.models.BigAutoField"
