from __future__ import annotations

from django.apps import AppConfig


class WorkflowConfig(AppConfig):
    """Installed for its management commands and its Celery tasks; it has no models."""

    name = "workflow"
