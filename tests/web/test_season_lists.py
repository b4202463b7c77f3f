"""How a club's seasons are listed (issue 32): newest first wherever a club picks one or
reads them (the seasons page, the club page's menu, the new session's menu), each named by
its own name, without the club's name before it."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db

#: Opened out of date order, as a club that records an old season late does.
OPENED = [("2025", 2025), ("Winter 2026-27", 2026), ("2024", 2024)]
NEWEST_FIRST = ["Winter 2026-27", "2025", "2024"]


@pytest.fixture
def seasons(club: Any) -> list[Any]:
    club.name = "Huckley Buck Club of Ballyhaunis"
    club.save()
    return [
        SeasonFactory(club=club, name=name, starts_on=date(y, 9, 1), ends_on=date(y + 1, 6, 30))
        for name, y in OPENED
    ]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def options(page: str, select_id: str) -> list[str]:
    select = re.search(rf'<select[^>]*id="{select_id}".*?</select>', page, re.S)
    assert select is not None, select_id
    return [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select[0])]


def test_the_seasons_page_lists_the_newest_first(
    seasons: list[Any], club: Any, director: Any
) -> None:
    page = signed_in(director).get(reverse("tournaments:club_seasons", args=[club.slug]))
    names = re.findall(r"<li class=\"card\"><strong>([^<]*)</strong>", page.content.decode())
    assert names == NEWEST_FIRST


def test_the_club_pages_season_menu_is_newest_first_and_opens_on_the_newest(
    seasons: list[Any], club: Any
) -> None:
    page = Client().get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert options(page, "season") == NEWEST_FIRST
    assert re.search(r'<option value="\d+" selected>Winter 2026-27</option>', page)


def test_the_new_sessions_season_menu_names_each_season_once_without_the_club(
    seasons: list[Any], club: Any, director: Any
) -> None:
    page = signed_in(director).get(reverse("tournaments:session_new", args=[club.slug]))
    assert options(page.content.decode(), "id_season") == ["---------", *NEWEST_FIRST]
