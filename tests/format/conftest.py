"""Fixtures for the tests of the pure format (`tournaments.format`), which run without
Django (``pytest -p no:django``)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The format has no cache: this stands in for the project-wide fixture of the same
    name, which reads Django's settings and so cannot run without Django. Without it every
    test here would use a fixture of tests/conftest.py, which tests/purity.py cannot prove
    pure, and the strict run of .ci/run would run them a second time."""
