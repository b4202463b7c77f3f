"""Fixtures of the page tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client


@pytest.fixture
def directing(director: Any) -> Client:
    """A browser's client signed in as the club's director."""
    client = Client()
    client.force_login(director)
    return client
