from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    """Installed for its template tags (`{% load huckley %}`); it has no models."""

    name = "web"
