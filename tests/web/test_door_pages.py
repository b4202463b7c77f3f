"""Self check-in at the door on the pages (docs/tournament.md, "Self check-in at the
door"): the player's check-in page (and the seat link it gives the phone on a night that
plays online), the manage page's door card and live list, the projector and the venue's
lobby. The service's rule is tests/workflow/front/test_door.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from play.models import SeatLink
from tests.factories import UserFactory
from tests.rows import make_door_night
from tests.workflow.front.test_door import check_in, entry
from tournaments.models import Session
from workflow.front import door

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club: Any, season: Any, director: Any) -> Session:
    return make_door_night(club, season, director)


# The pages -------------------------------------------------------------------------


@pytest.fixture
def phone() -> Client:
    return Client()


@pytest.fixture
def desk(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def page(session: Session) -> str:
    return reverse("tournaments:self_check_in", args=[session.pk])


def test_the_check_in_page_asks_for_a_name_and_the_door_code(night: Session, phone: Client) -> None:
    response = phone.get(page(night))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your name" in html
    assert "Door code" in html
    assert 'inputmode="numeric"' in html
    assert "4821" not in html  # the page never tells the code


def test_a_player_checks_in_on_the_page(night: Session, phone: Client) -> None:
    response = phone.post(page(night), {"name": "ann lee", "door_code": "4821"})
    assert response.status_code == 200
    assert "Welcome, Ann Lee: you are checked in." in response.content.decode()
    assert entry(night, "Ann Lee").checked_in


def test_on_an_online_night_the_check_in_gives_that_phone_its_own_seat_link(
    night: Session, phone: Client
) -> None:
    Session.objects.filter(pk=night.pk).update(online=True)
    response = phone.post(page(night), {"name": "ann lee", "door_code": "4821"})
    ann = SeatLink.objects.get(session=night, player__name="Ann Lee")
    html = response.content.decode()
    assert f'data-keep-seat="{night.pk}:{ann.player_id}"' in html
    assert f'data-seat-url="/play/{ann.token}/"' in html  # kept by static/seat_keep.js
    assert f'<a class="button" href="/play/{ann.token}/">Play at your seat</a>' in html
    assert 'src="/static/seat_keep.js"' in html
    assert response["Cache-Control"] == "no-store"
    assert response["Referrer-Policy"] == "same-origin"
    # Another phone typing her name again is told she is in, and gets no link.
    again = Client().post(page(night), {"name": "Ann Lee", "door_code": "4821"}).content.decode()
    assert "You are already checked in, Ann Lee." in again
    assert "/play/" not in again
    # The next player's phone gets that player's link, and nobody else's.
    bob = Client().post(page(night), {"name": "Bob Stone", "door_code": "4821"}).content.decode()
    bob_token = SeatLink.objects.get(session=night, player__name="Bob Stone").token
    assert f"/play/{bob_token}/" in bob
    assert ann.token not in bob


def test_a_paper_night_gives_no_seat_link_at_the_door(night: Session, phone: Client) -> None:
    html = phone.post(page(night), {"name": "Ann Lee", "door_code": "4821"}).content.decode()
    assert "Welcome, Ann Lee: you are checked in." in html
    assert "/play/" not in html
    assert "data-keep-seat" not in html
    assert not SeatLink.objects.filter(session=night).exists()


def test_the_page_says_a_wrong_code_next_to_the_field(night: Session, phone: Client) -> None:
    response = phone.post(page(night), {"name": "Ann Lee", "door_code": "9999"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="door-code-error"' in html
    assert "That is not the door code." in html
    assert 'value="Ann Lee"' in html  # what was typed stays


def test_the_page_offers_the_names_to_pick_from(night: Session, phone: Client) -> None:
    response = phone.post(page(night), {"name": "ann", "door_code": "4821"})
    html = response.content.decode()
    assert 'id="which-name"' in html
    assert html.count('name="name" value="Ann Lee"') == 1
    assert 'name="name" value="Anna Berg"' in html
    picked = phone.post(page(night), {"name": "Anna Berg", "door_code": "4821"})
    assert "Welcome, Anna Berg" in picked.content.decode()


def test_the_page_says_to_wait_when_throttled(night: Session, phone: Client) -> None:
    for _ in range(door.WRONG_PER_CLIENT):
        phone.post(page(night), {"name": "Ann Lee", "door_code": "0000"})
    response = phone.post(page(night), {"name": "Ann Lee", "door_code": "4821"})
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many wrong door codes. Wait 10 minutes" in html
    assert "ask the director" in html


def test_the_page_of_a_closed_door_says_so_without_a_form(
    night: Session, phone: Client, director: Any
) -> None:
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=False, walk_ins_allowed=False, user=director
    )
    html = phone.get(page(night)).content.decode()
    assert "Check-in at the door is closed" in html
    assert 'name="door_code"' not in html


def test_a_private_session_has_a_door_only_while_it_is_open(
    night: Session, phone: Client, director: Any
) -> None:
    Session.objects.filter(pk=night.pk).update(is_public=False)
    assert phone.get(page(night)).status_code == 200
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=False, walk_ins_allowed=False, user=director
    )
    assert phone.get(page(night)).status_code == 404


def test_the_manage_page_shows_the_door_code_and_its_forms(night: Session, desk: Client) -> None:
    html = desk.get(reverse("tournaments:manage", args=[night.pk])).content.decode()
    assert 'id="door-code">4821<' in html
    assert reverse("tournaments:door_code", args=[night.pk]) in html
    assert reverse("tournaments:check_in_live", args=[night.pk]) in html
    assert "http://testserver" + page(night) in html


def test_the_director_changes_the_code_and_closes_the_door_on_the_page(
    night: Session, desk: Client
) -> None:
    desk.post(reverse("tournaments:door_code", args=[night.pk]), {"door_code": "1357"})
    desk.post(reverse("tournaments:door_settings", args=[night.pk]), {"walk_ins_allowed": "on"})
    night.refresh_from_db()
    assert (night.door_code, night.self_check_in_open, night.walk_ins_allowed) == (
        "1357",
        False,
        True,
    )


def test_a_bad_code_typed_by_the_director_is_said(night: Session, desk: Client) -> None:
    response = desk.post(
        reverse("tournaments:door_code", args=[night.pk]), {"door_code": "12"}, follow=True
    )
    assert "A door code is four digits, 0 to 9." in response.content.decode()


def test_only_the_clubs_directors_reach_the_door_settings(night: Session) -> None:
    other = Client()
    other.force_login(UserFactory.create(username="other"))
    assert other.post(reverse("tournaments:door_code", args=[night.pk])).status_code == 403
    assert other.get(reverse("tournaments:check_in_live", args=[night.pk])).status_code == 403
    assert Client().get(reverse("tournaments:check_in_live", args=[night.pk])).status_code == 302


def test_the_live_list_shows_an_arrival_at_the_door_and_is_a_304_until_then(
    night: Session, desk: Client
) -> None:
    url = reverse("tournaments:check_in_live", args=[night.pk])
    first = desk.get(url)
    etag = first["ETag"]
    assert desk.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    check_in(night, "Cy Young")
    fresh = desk.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    answer = json.loads(fresh.content)
    assert answer["count"] == 1
    cy = entry(night, "Cy Young")
    assert f'id="player-{cy.player_id}"' in answer["rows"]
    assert 'data-state="in-door"' in answer["rows"]
    assert "at the door," in answer["rows"]
    assert 'id="start"' in answer["start"]


def test_the_projector_shows_the_door_code_while_the_door_is_open(
    night: Session, phone: Client, director: Any
) -> None:
    screen = reverse("tournaments:screen_live", args=[night.pk])
    assert '<strong class="door-code">4821</strong>' in phone.get(screen).content.decode()
    door.door_code_change(session_id=night.pk, code="2468", user=director)
    assert '<strong class="door-code">2468</strong>' in phone.get(screen).content.decode()
    door.door_settings_update(
        session_id=night.pk, self_check_in_open=False, walk_ins_allowed=False, user=director
    )
    assert "door-code" not in phone.get(screen).content.decode()


def test_the_lobby_points_at_the_one_session_checking_in(
    night: Session, phone: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUCKLEY_VENUE_URL", "http://10.1.1.1:8000")
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: night.date)
    html = phone.get("/lobby/").content.decode()
    assert f"http://10.1.1.1:8000/sessions/{night.pk}/check-in/" in html
    assert "Check in for Door night" in html
    Session.objects.filter(pk=night.pk).update(self_check_in_open=False)
    html = phone.get("/lobby/").content.decode()
    assert "Join tonight's games" in html
    assert "check-in/" not in html
