"""The whole state of the project's tables, to prove that a refused write changed nothing.

A refusal must leave no half-written change: not one row added, removed or altered in any
table of the project's apps, including the bookkeeping a write does early (the board
version, a roster entry) before it finds the reason to refuse.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps

PROJECT_APPS = ("tournaments", "scoring", "api", "ratings", "play")


def db_snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every model of the project's apps (and its many-to-many links), by pk."""
    state: dict[str, list[dict[str, Any]]] = {}
    for label in PROJECT_APPS:
        for model in apps.get_app_config(label).get_models():
            state[model._meta.label] = list(model._default_manager.order_by("pk").values())
            for m2m in model._meta.many_to_many:
                through = m2m.remote_field.through
                assert through is not None  # resolved once the app registry is ready
                state[through._meta.label] = list(through._default_manager.order_by("pk").values())
    return state


def changed_tables(before: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The tables whose rows differ from `before`: empty when nothing changed."""
    after = db_snapshot()
    return sorted(
        label for label in before.keys() | after.keys() if before.get(label) != after.get(label)
    )
