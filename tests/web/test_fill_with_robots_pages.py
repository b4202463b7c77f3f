"""Robots that fill seats on the director's pages (docs/tournament.md, "Robots fill
seats"): the new-session form's box and the manage page's online settings, each refusing
in words what robots could not fill and keeping what was typed; refused to another club's
director. The API's side is tests/api/test_fill_with_robots.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.models import Session

pytestmark = pytest.mark.django_db

NEEDS_ONLINE = "Robots fill seats only when every table plays online"


@pytest.fixture
def dclient(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


def new_session(season: Any, **fields: Any) -> dict[str, Any]:
    return {
        "season": season.pk,
        "name": "Robots night",
        "date": str(season.starts_on),
        "rules_id": "buck-euchre",
        "games_per_sitting": 2,
        "new_names": "Ann\nBob\nCy",
    } | fields


def test_the_new_session_form_fills_an_online_session_with_robots(
    dclient: Client, club: Any, season: Any
) -> None:
    url = reverse("tournaments:session_new", args=[club.slug])
    page = dclient.get(url).content.decode()
    assert "Fill with robots" in page
    assert 'name="fill_with_robots"' in page

    response = dclient.post(url, new_session(season, online="on", fill_with_robots="on"))

    assert response.status_code == 302
    session = Session.objects.get(name="Robots night")
    assert (session.online, session.fill_with_robots) == (True, True)


def test_robots_without_online_are_refused_in_words_and_the_form_keeps_it_all(
    dclient: Client, club: Any, season: Any
) -> None:
    url = reverse("tournaments:session_new", args=[club.slug])
    response = dclient.post(url, new_session(season, fill_with_robots="on"))
    assert response.status_code == 400
    html = response.content.decode()
    assert NEEDS_ONLINE in html
    # The box stays ticked, the names stay typed.
    box = re.search(r'<input[^>]*name="fill_with_robots"[^>]*>', html)
    assert box is not None
    assert "checked" in box.group(0), box.group(0)
    assert 'value="Robots night"' in html
    assert "Ann\nBob\nCy" in html
    assert not Session.objects.exists()


def test_left_unticked_the_session_does_not_fill(dclient: Client, club: Any, season: Any) -> None:
    url = reverse("tournaments:session_new", args=[club.slug])
    assert dclient.post(url, new_session(season, online="on")).status_code == 302
    assert Session.objects.get(name="Robots night").fill_with_robots is False


def online(make_session: Callable[..., Session], **kw: Any) -> Session:
    session = make_session(8, start=False, **kw)
    Session.objects.filter(pk=session.pk).update(online=True)
    session.refresh_from_db()
    return session


def test_the_manage_page_turns_robots_on_and_off(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online(make_session)
    page = dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'id="fill-with-robots"' in page
    assert "from the start" in page
    url = reverse("tournaments:online_settings", args=[session.pk])
    settings = {"online_grace_seconds": "60", "move_clock_seconds": ""}

    dclient.post(url, settings | {"fill_with_robots_shown": "1", "fill_with_robots": "on"})
    session.refresh_from_db()
    assert session.fill_with_robots
    page = dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'id="fill-with-robots" checked' in page
    # A form without the box (another page's) leaves it be.
    dclient.post(url, settings)
    session.refresh_from_db()
    assert session.fill_with_robots
    # Shown and unticked: off.
    dclient.post(url, settings | {"fill_with_robots_shown": "1"})
    session.refresh_from_db()
    assert not session.fill_with_robots


def test_a_paper_session_offers_no_box_and_refuses_robots_in_words(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8, start=False)
    page = dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'id="fill-with-robots"' not in page
    url = reverse("tournaments:online_settings", args=[session.pk])
    response = dclient.post(
        url,
        {
            "online_grace_seconds": "90",
            "move_clock_seconds": "",
            "fill_with_robots_shown": "1",
            "fill_with_robots": "on",
        },
    )
    assert NEEDS_ONLINE in dclient.get(response["Location"]).content.decode()
    session.refresh_from_db()
    # Nothing of the refused form was saved.
    assert (session.fill_with_robots, session.online_grace_seconds) == (False, 60)


def test_another_clubs_director_cannot_turn_robots_on(
    make_session: Callable[..., Session],
) -> None:
    session = online(make_session)
    other = UserFactory.create(username="elsewhere")
    ClubFactory.create(slug="elsewhere").directors.add(other)
    stranger = Client()
    stranger.force_login(other)
    url = reverse("tournaments:online_settings", args=[session.pk])
    body = {
        "online_grace_seconds": "60",
        "move_clock_seconds": "",
        "fill_with_robots_shown": "1",
        "fill_with_robots": "on",
    }
    assert stranger.post(url, body).status_code == 403
    assert Client().post(url, body)["Location"].startswith("/accounts/login/")
    session.refresh_from_db()
    assert not session.fill_with_robots


def test_every_page_of_the_night_marks_the_robot_and_ranks_only_people(
    club: Any, season: Any, director: Any
) -> None:
    from workflow.session import services, start_finish
    from workflow.session.simulation import generated_names

    session = services.session_create(
        club=club,
        season=season,
        name="Robots night",
        date=season.starts_on,
        rules_id="buck-euchre",
        games_per_sitting=2,
        new_names=generated_names(7),
        online=True,
        fill_with_robots=True,
        user=director,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    mark = 'Robot 1 <span class="muted">(robot)</span>'
    public = Client()
    board = public.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert f"Seat 4: {mark}" in board
    assert board.count("(robot)") == 1
    screen = public.get(reverse("tournaments:screen", args=[session.pk])).content.decode()
    assert mark in screen
    standings = public.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert mark in standings
    # The seven people have a place; the robot has none.
    assert standings.count('<tr class="standing">') == 7
    # The director's page marks it too, in the tables and the roster.
    director_client = Client()
    director_client.force_login(director)
    manage = director_client.get(reverse("tournaments:manage", args=[session.pk])).content
    assert manage.decode().count(mark) == 2
