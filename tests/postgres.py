"""A connection of its own to the test database, beside Django's: for the tests that
look from outside at what the code under test holds or uses (a row lock, a backend to
kill)."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection


def other_connection() -> psycopg.Connection[Any]:
    """A new connection, in autocommit, with the parameters Django's own uses."""
    params = connection.get_connection_params()
    return psycopg.connect(
        **{k: v for k, v in params.items() if k not in {"cursor_factory", "context"}},
        autocommit=True,
    )
