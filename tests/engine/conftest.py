"""Fixtures for the engine tests, which run without Django (``pytest -p no:django``)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The engine has no cache: this stands in for the project-wide fixture of the same
    name, which reads Django's settings and so cannot run without Django."""
