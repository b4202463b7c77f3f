"""Adding names to a session or the club asks "Did you mean Rosa Díaz?" when a typed name
is a player's name written with other accents or punctuation, instead of creating a
second player; the director may then insist. The roster import matches by the same rule
and says so in its preview."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import ConflictError
from exchange.services import roster_preview
from tournaments.models import Club, Player, Season, SessionPlayer
from workflow.club import services as club_services
from workflow.session import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def rosa(club: Club) -> Player:
    return Player.objects.create(club=club, name="Rosa Díaz")


def create(club: Club, season: Season, director: Any, names: list[str], **kw: Any) -> Any:
    return services.session_create(
        club=club,
        season=season,
        name="Club night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=names,
        user=director,
        **kw,
    )


def test_a_session_asks_did_you_mean_before_creating_a_second_rosa(
    club: Club, season: Season, director: Any, rosa: Player
) -> None:
    with pytest.raises(ConflictError) as refused:
        create(club, season, director, ["rosa diaz", "Ann", "Bob", "Cy"])
    assert refused.value.code == "player_name_looks_like"
    assert "For “rosa diaz”, did you mean Rosa Díaz?" in refused.value.message
    assert Player.objects.filter(club=club).count() == 1  # nothing created


def test_the_director_may_insist_that_the_name_is_a_new_player(
    club: Club, season: Season, director: Any, rosa: Player
) -> None:
    session = create(club, season, director, ["rosa diaz", "Ann", "Bob", "Cy"], new_anyway=True)
    names = set(session.entries.values_list("player__name", flat=True))
    assert names == {"rosa diaz", "Ann", "Bob", "Cy"}
    assert Player.objects.filter(club=club).count() == 5


def test_the_same_name_in_another_case_is_the_same_player_without_asking(
    club: Club, season: Season, director: Any, rosa: Player
) -> None:
    session = create(club, season, director, ["ROSA DÍAZ", "Ann", "Bob", "Cy"])
    assert session.entries.filter(player=rosa).exists()


def test_a_late_arrival_typed_otherwise_is_asked_about(
    club: Club, season: Season, director: Any
) -> None:
    session = create(club, season, director, ["Pete O'Brien", "Ann", "Bob", "Cy"])
    with pytest.raises(ConflictError, match="did you mean Pete O'Brien"):
        services.session_add_players(
            session_id=session.pk, new_names=["Pete OBrien"], user=director
        )
    assert SessionPlayer.objects.filter(session=session).count() == 4


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ("Anne-Marie Costello", "ANNE MARIE COSTELLO"),
        ("Pádraig McGettigan", "padraig mc gettigan"),
        ("Pete O'Brien", "Pete O Brien"),
        ("Ewan MacDonald", "Ewan Mac Donald"),
    ],
)
def test_a_name_typed_with_other_hyphens_spaces_or_mc_joins_is_asked_about(
    club: Club, season: Season, director: Any, stored: str, typed: str
) -> None:
    session = create(club, season, director, [stored, "Ann", "Bob", "Cy"])
    with pytest.raises(ConflictError, match=re.escape(f"For “{typed}”, did you mean {stored}?")):
        services.session_add_players(session_id=session.pk, new_names=[typed], user=director)
    with pytest.raises(ConflictError, match=re.escape(f"did you mean {stored}?")):
        club_services.player_add(club_id=club.pk, name=typed, user=director)
    assert Player.objects.filter(club=club).count() == 4


def test_mc_and_mac_are_different_names_added_without_asking(
    club: Club, season: Season, director: Any
) -> None:
    session = create(club, season, director, ["Ewan McDonald", "Ann", "Bob", "Cy"])
    services.session_add_players(
        session_id=session.pk, new_names=["Ewan Mac Donald"], user=director
    )
    assert session.entries.filter(player__name="Ewan Mac Donald").exists()


def test_the_manage_page_offers_to_insist(
    club: Club, season: Season, director: Any, rosa: Player
) -> None:
    session = create(club, season, director, ["Ann", "Bob", "Cy", "Dee"])
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:add_players", args=[session.pk])
    page = client.post(url, {"new_names": "rosa diaz"}, follow=True).content.decode()
    assert "did you mean Rosa Díaz?" in page
    assert "Someone else: add the names as typed" in page
    client.post(url, {"new_names": "rosa diaz", "new_anyway": "on"})
    assert session.entries.filter(player__name="rosa diaz").exists()


def test_the_clubs_players_form_asks_did_you_mean(club: Club, director: Any, rosa: Player) -> None:
    with pytest.raises(ConflictError, match="did you mean Rosa Díaz"):
        club_services.player_add(club_id=club.pk, name="Rosa Diaz", user=director)
    client = Client()
    client.force_login(director)
    url = reverse("tournaments:club_players", args=[club.slug])
    page = client.post(url, {"name": "Rosa Diaz"}).content.decode()
    assert "did you mean Rosa Díaz?" in page
    assert "A different person" in page
    client.post(url, {"name": "Rosa Diaz", "new_anyway": "on"})
    assert Player.objects.filter(club=club, name="Rosa Diaz").exists()


def test_the_roster_import_matches_a_name_written_otherwise_and_says_so(
    club: Club, rosa: Player
) -> None:
    preview = roster_preview(club=club, content=b"name\nrosa diaz\nNew Person\n")
    (matched,) = preview.matched
    assert matched.player_id == rosa.pk
    assert matched.reason == "by name written otherwise: did you mean Rosa Díaz?"
    assert [r.name for r in preview.added] == ["New Person"]


def test_a_roster_file_naming_one_player_twice_in_two_spellings_is_refused(club: Club) -> None:
    preview = roster_preview(club=club, content=b"name\nPete O'Brien\npete obrien\n")
    (refused,) = preview.refused
    assert refused.reason == "the same name as line 2"
