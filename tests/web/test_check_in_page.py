"""Check-in on the manage page (docs/tournament.md, "Check-in"): the page's buttons check
a player in with fetch and get the changed row, the count and the Start box back, drawn
by the page's own templates; a plain form post still works and comes back at the
player's row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Session, SessionPlayer

pytestmark = pytest.mark.django_db

BY_FETCH = {"HTTP_X_REQUESTED_WITH": "fetch"}


@pytest.fixture
def setup(make_session: Any) -> Session:
    session: Session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    return session


@pytest.fixture
def desk(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def first_entry(session: Session) -> SessionPlayer:
    return session.entries.select_related("player").order_by("player__name").first()


def test_a_check_in_by_fetch_answers_with_the_row_the_count_and_the_start_box(
    setup: Session, desk: Client
) -> None:
    entry = first_entry(setup)
    response = desk.post(
        reverse("tournaments:check_in", args=[setup.pk]),
        {"player": entry.player_id, "checked_in": "1"},
        **BY_FETCH,
    )
    assert response.status_code == 200
    answer = json.loads(response.content)
    assert answer["player"] == entry.player_id
    assert answer["checked_in"] is True
    assert answer["count"] == 1
    assert answer["message"] == f"{entry.player.name} is checked in."
    assert answer["row"].startswith(f'<tr id="player-{entry.player_id}"')
    assert "✓ checked in" in answer["row"]
    assert f'aria-label="Undo check-in of {entry.player.name}"' in answer["row"]
    assert 'name="csrfmiddlewaretoken"' in answer["row"]
    # One player is too few to start: the Start box says why, as the page would.
    assert 'id="start"' in answer["start"]
    assert 'class="error"' in answer["start"]
    assert SessionPlayer.objects.get(pk=entry.pk).checked_in
    # The answer was the message: none is left waiting for the next page.
    page = desk.get(reverse("tournaments:manage", args=[setup.pk])).content.decode()
    assert "Checked in." not in page


def test_taking_a_check_in_back_by_fetch_offers_check_in_again(
    setup: Session, desk: Client
) -> None:
    setup.entries.update(checked_in=True)
    entry = first_entry(setup)
    answer = json.loads(
        desk.post(
            reverse("tournaments:check_in", args=[setup.pk]),
            {"player": entry.player_id, "checked_in": "0"},
            **BY_FETCH,
        ).content
    )
    assert answer["checked_in"] is False
    assert answer["count"] == 7
    assert f'aria-label="Check in {entry.player.name}"' in answer["row"]
    assert "Start with 7 players" in answer["start"]


def test_a_refused_check_in_by_fetch_says_why(make_session: Any, desk: Client) -> None:
    running: Session = make_session(8)
    response = desk.post(
        reverse("tournaments:check_in", args=[running.pk]),
        {"player": first_entry(running).player_id, "checked_in": "0"},
        **BY_FETCH,
    )
    assert response.status_code == 409
    assert json.loads(response.content) == {
        "error": "The session has started: add a late arrival or withdraw a player instead."
    }


def test_a_plain_post_checks_in_and_comes_back_at_the_players_row(
    setup: Session, desk: Client
) -> None:
    entry = first_entry(setup)
    response = desk.post(
        reverse("tournaments:check_in", args=[setup.pk]),
        {"player": entry.player_id, "checked_in": "1"},
    )
    assert response.status_code == 302
    assert response["Location"] == (
        f"{reverse('tournaments:manage', args=[setup.pk])}#player-{entry.player_id}"
    )
    assert SessionPlayer.objects.get(pk=entry.pk).checked_in
    page = desk.get(response["Location"]).content.decode()
    assert "Checked in." in page
    assert f'<tr id="player-{entry.player_id}"' in page


def test_the_search_box_is_hidden_until_the_script_shows_it(setup: Session, desk: Client) -> None:
    page = desk.get(reverse("tournaments:manage", args=[setup.pk])).content.decode()
    assert '<p class="checkin-search" hidden><label for="checkin-search">Find a player</label>' in (
        page
    )
    assert "/static/checkin.js" in page
