"""A new director reads what each page does in plain words: a roster removal is called a
removal, a cancellation offers to keep the session, and a rating is explained without
statistics until asked."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Session
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed


@pytest.fixture
def signed_in(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def test_removing_a_player_before_the_start_is_called_a_removal(
    make_session: Callable[..., Session], signed_in: Client
) -> None:
    session = make_session(8, start=False)
    entry = session.entries.select_related("player").first()
    assert entry is not None

    page = signed_in.get(reverse("tournaments:withdraw", args=[session.pk, entry.player_id]))

    text = page.content.decode()
    assert f"Remove {entry.player.name} from the roster?" in text
    assert "Withdraw" not in text
    assert f"Keep {entry.player.name}" in text


def test_withdrawing_a_player_of_a_running_session_is_still_a_withdrawal(
    make_session: Callable[..., Session], signed_in: Client
) -> None:
    session = make_session(8)
    entry = session.entries.select_related("player").first()
    assert entry is not None

    page = signed_in.get(reverse("tournaments:withdraw", args=[session.pk, entry.player_id]))

    assert f"Withdraw {entry.player.name}?" in page.content.decode()


def test_the_cancel_page_offers_to_keep_the_session_not_a_second_cancel(
    make_session: Callable[..., Session], signed_in: Client
) -> None:
    session = make_session(8, start=False)

    page = signed_in.get(
        reverse("tournaments:club_session_cancel", args=[session.club.slug, session.pk])
    )

    text = page.content.decode()
    assert "Cancel session" in text
    assert "Keep the session" in text
    assert ">Cancel<" not in text


def test_a_finished_sessions_movement_page_says_so_instead_of_offering_to_confirm(
    make_session: Callable[..., Session], signed_in: Client, director: Any
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(3))
    start_finish.session_finish(session_id=session.pk, early=False, user=director)

    page = signed_in.get(reverse("tournaments:movement", args=[session.pk]))

    text = page.content.decode()
    assert "This session is finished: there is no movement to confirm." in text
    assert "Confirm the movement" not in text


def test_a_running_sessions_movement_page_offers_to_confirm(
    make_session: Callable[..., Session], signed_in: Client
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(3))

    page = signed_in.get(reverse("tournaments:movement", args=[session.pk]))

    assert "Confirm the movement: all 8 players at 2 tables" in page.content.decode()


@pytest.mark.django_db
def test_a_page_that_does_not_exist_says_so_with_a_way_home(client: Client, settings: Any) -> None:
    settings.DEBUG = False

    page = client.get("/sessions/999999/")

    assert page.status_code == 404
    text = page.content.decode()
    assert "Page not found" in text
    assert 'href="/"' in text
