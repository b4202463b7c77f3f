"""Fixtures for online play: an online session started with its seat links, a client
per role, and the in-memory channel layer of the WebSocket tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.test import APIClient

from play import services as play_services
from tests.play.helpers import settle
from tournaments.models import Session
from workflow.session import services, start_finish
from workflow.session.simulation import generated_names


@pytest.fixture
def online_session(club: Any, season: Any, director: Any) -> Callable[..., Session]:
    def make(
        players: int = 4,
        *,
        rules_id: str = "huckley-buck",
        online: bool = True,
        seed: int = 7,
        games_per_sitting: int = 2,
        start: bool = True,
        **settings: Any,
    ) -> Session:
        session = services.session_create(
            club=club,
            season=season,
            name="Online night",
            date=season.starts_on,
            rules_id=rules_id,
            games_per_sitting=games_per_sitting,
            new_names=generated_names(players),
            seed=seed,
            online=online,
            user=director,
        )
        if settings:
            services.session_update_settings(
                session_id=session.pk,
                games_per_sitting=games_per_sitting,
                is_public=True,
                double_entry=False,
                user=director,
                **settings,
            )
        session.entries.update(checked_in=True)
        if start:
            start_finish.session_start(session_id=session.pk, user=director)
            settle(session.pk)
        session.refresh_from_db()
        return session

    return make


def tokens_of(session: Session, director: Any) -> dict[str, str]:
    """Player name to seat token, for every seated player."""
    rows = play_services.seat_links_ensure(session_id=session.pk, user=director)
    return {row["player"]: row["token"] for row in rows}


@pytest.fixture
def phone() -> APIClient:
    return APIClient()


@pytest.fixture
def director_client(director: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def dclient(client: Client, director: Any) -> Client:
    """The director, signed in to the pages (test_director_pages.py, test_director_robots.py)."""
    client.force_login(director)
    return client


@pytest.fixture
def in_memory_layer() -> Iterator[None]:
    """The in-memory channel layer, whatever REDIS_URL says (the WebSocket tests in
    process; the tests across nodes cover Redis)."""
    layer = {
        "BACKEND": "channels.layers.InMemoryChannelLayer",
        "CONFIG": {"capacity": settings.HUCKLEY_CHANNEL_CAPACITY},
    }
    with override_settings(CHANNEL_LAYERS={"default": layer}):
        yield
