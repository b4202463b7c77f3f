"""Fixtures for the engine tests, which run without Django (``pytest -p no:django``)."""

from __future__ import annotations

import pytest

# The refusal tables' one test body lives in a helper module: pytest rewrites its asserts
# too, so that a failing comparison shows both sides, as in a test module.
pytest.register_assert_rewrite("tests.engine.refusal_checks")


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """The engine has no cache: this stands in for the project-wide fixture of the same
    name, which reads Django's settings and so cannot run without Django."""
