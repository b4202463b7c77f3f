"""The Big Loser form of the club page (`/clubs/<slug>/?season=<id>#big-loser`): it offers
every player of the club, a past season with no session included, and takes a name for
one who is not listed; only the club's directors may record."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, UserFactory
from tournaments.models import BigLoserAward, Player, Season

pytestmark = pytest.mark.django_db


def open_last_year(client: Client, club: Any) -> Season:
    response = client.post(
        reverse("tournaments:club_seasons", args=[club.slug]),
        {"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    assert response.status_code == 302
    return Season.objects.get(club=club, name="2025")


def offered(client: Client, club: Any, season: Season) -> list[str]:
    page = client.get(reverse("tournaments:club", args=[club.slug]), {"season": season.pk})
    assert page.status_code == 200
    html = page.content.decode()
    form = html[
        html.index('id="bl-player"') : html.index("</select>", html.index('id="bl-player"'))
    ]
    return re.findall(r"<option value=\"\d+\"[^>]*>([^<]+)</option>", form)


def test_a_past_season_with_no_session_offers_every_player_of_the_club(
    directing: Client, club: Any, season: Any, make_session: Any
) -> None:
    make_session(5)  # five players who play the season 2026, none the season 2025
    PlayerFactory(club=club, name="Zed Gone", active=False)
    last_year = open_last_year(directing, club)
    names = offered(directing, club, last_year)
    club_names = [p.name for p in Player.objects.filter(club=club).order_by("name", "pk")]
    assert [n.removesuffix(" (inactive)") for n in names] == club_names
    assert "Zed Gone (inactive)" in names


def test_a_director_records_a_past_seasons_big_loser_from_the_list_or_by_a_name(
    directing: Client, club: Any, season: Any
) -> None:
    last_year = open_last_year(directing, club)
    cy = PlayerFactory(club=club, name="Cy")
    url = reverse("tournaments:big_loser", args=[last_year.pk])
    response = directing.post(url, {"player": cy.pk, "name": "", "note": ""})
    assert response.status_code == 302
    assert BigLoserAward.objects.get(season=last_year).player == cy
    # A name typed for one who left before the club used the app: added, and awarded.
    directing.post(url, {"player": cy.pk, "name": "Old Tom", "note": "left in May"})
    award = BigLoserAward.objects.get(season=last_year)
    assert award.player.name == "Old Tom"
    assert award.note == "left in May"
    page = directing.get(reverse("tournaments:club", args=[club.slug]), {"season": last_year.pk})
    history = page.content.decode().split("Big Loser history")[1]
    assert "2025" in history
    assert "Old Tom" in history


def test_a_club_with_no_player_yet_records_one_by_name(
    directing: Client, club: Any, season: Any
) -> None:
    last_year = open_last_year(directing, club)
    assert offered(directing, club, last_year) == []
    url = reverse("tournaments:big_loser", args=[last_year.pk])
    directing.post(url, {"player": "", "name": "Ann Lee", "note": ""})
    assert BigLoserAward.objects.get(season=last_year).player.name == "Ann Lee"


def test_a_user_who_does_not_direct_the_club_is_refused(
    directing: Client, club: Any, season: Any
) -> None:
    last_year = open_last_year(directing, club)
    cy = PlayerFactory(club=club, name="Cy")
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    url = reverse("tournaments:big_loser", args=[last_year.pk])
    response = stranger.post(url, {"player": cy.pk, "name": "Old Tom"})
    assert response.status_code == 403
    assert not BigLoserAward.objects.exists()
    assert not Player.objects.filter(name="Old Tom").exists()
    page = stranger.get(reverse("tournaments:club", args=[club.slug]), {"season": last_year.pk})
    assert 'id="bl-player"' not in page.content.decode()


def test_neither_a_player_chosen_nor_a_name_typed_says_what_to_do(
    directing: Client, club: Any, season: Any
) -> None:
    last_year = open_last_year(directing, club)
    PlayerFactory(club=club, name="Cy")
    url = reverse("tournaments:big_loser", args=[last_year.pk])
    page = directing.post(url, {"player": "", "name": "  ", "note": ""}, follow=True)
    assert "Choose a player of this club, or type the name" in page.content.decode()
    assert not BigLoserAward.objects.exists()


def test_a_refused_award_comes_back_with_the_name_and_note_as_typed(
    directing: Client, club: Any, season: Any
) -> None:
    """A look-alike's "Did you mean …?", or a note too long: refused in words, and the
    form shows what was typed, whole, for the director to change."""
    last_year = open_last_year(directing, club)
    PlayerFactory(club=club, name="Rosa Díaz")
    url = reverse("tournaments:big_loser", args=[last_year.pk])
    page = directing.post(url, {"player": "", "name": "Rosa Diaz", "note": "hooked"}, follow=True)
    html = page.content.decode()
    assert "did you mean Rosa Díaz?" in html
    assert 'value="Rosa Diaz"' in html
    assert 'value="hooked"' in html
    assert not BigLoserAward.objects.exists()

    note = "Lost every hand of the Christmas night. " * 6  # 240 characters

    page = directing.post(url, {"player": "", "name": "Rosa Díaz", "note": note}, follow=True)
    html = page.content.decode()
    assert "keep it to 200" in html
    assert f'value="{note}"' in html
    assert not BigLoserAward.objects.exists()
