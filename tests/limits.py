"""The sign-up and password reset limits count by address in the cache (web/views/
accounts.py). The suite's own cache is emptied before each test only when it is the
local-memory one (tests/conftest.py); with Redis (CI) the counts of earlier tests would
stay for an hour, so the tests that sign up or ask for resets forget them."""

from __future__ import annotations

from django.core.cache import cache

ADDRESSES = ("127.0.0.1", "10.9.8.7")


def forget_limits() -> None:
    cache.delete_many(
        [f"limit:{what}:{address}" for what in ("signup", "reset") for address in ADDRESSES]
    )
