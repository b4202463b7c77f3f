"""Which language a page is in (huckley/languages.py; docs/tournament.md, "Languages"):
a person's own choice wins, then the club's on its pages and its sessions', then
Accept-Language, then US English; dates as the language writes them; the JavaScript
catalogue of the page's own language; the picker without JavaScript or a CSRF token."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SessionFactory
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tournaments.models import Club, Season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogues")]


def lang(response: Any) -> str:
    found = re.search(r'<html lang="([^"]*)"', response.content.decode())
    assert found is not None
    return found.group(1)


def speak(club: Club, language: str) -> None:
    club.language = language
    club.save(update_fields=["language"])


@pytest.fixture
def night(club: Club, season: Season) -> Any:
    return SessionFactory(
        club=club, season=season, name="Thanksgiving Eve", date=datetime.date(2026, 11, 26)
    )


def test_a_club_in_irish_english_writes_its_dates_day_first(
    club: Club, night: Any, client: Client
) -> None:
    url = reverse("tournaments:club", args=[club.slug])
    assert "Nov. 26, 2026" in client.get(url).content.decode()

    speak(club, "en-ie")
    page = client.get(url)

    assert lang(page) == "en-ie"
    assert "26/11/2026" in page.content.decode()
    assert "Nov. 26, 2026" not in page.content.decode()
    assert page["Content-Language"] == "en-ie"


def test_a_club_in_spanish_serves_its_pages_and_its_sessions_in_spanish(
    club: Club, night: Any, client: Client
) -> None:
    speak(club, "es")

    for url in (
        reverse("tournaments:club", args=[club.slug]),
        reverse("tournaments:session", args=[night.pk]),
    ):
        page = client.get(url)
        assert lang(page) == "es", url
        assert '<label for="language-picker">Idioma</label>' in page.content.decode(), url


def test_a_persons_own_choice_wins_over_the_club_and_the_browser(
    club: Club, night: Any, client: Client
) -> None:
    speak(club, "es")
    url = reverse("tournaments:club", args=[club.slug])
    client.cookies["django_language"] = "en-gb"

    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es")

    assert lang(page) == "en-gb"
    assert "26/11/2026" in page.content.decode()


def test_the_club_wins_over_the_browser_on_its_pages_and_the_browser_elsewhere(
    club: Club, client: Client
) -> None:
    speak(club, "en-ie")
    assert (
        lang(client.get(reverse("tournaments:club", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="es"))
        == "en-ie"
    )
    assert lang(client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="es")) == "es"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("", "en-us"),
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("en-IE,en;q=0.5", "en-ie"),
        ("en-AU", "en-us"),
        ("fr-FR,fr;q=0.9,en-GB;q=0.8", "en-gb"),
        ("fr, de", "en-us"),
        ("*", "en-us"),
    ],
)
def test_without_a_club_the_browsers_first_shipped_language(
    client: Client, db: None, header: str, expected: str
) -> None:
    assert lang(client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE=header)) == expected


def test_a_cookie_naming_a_language_not_shipped_is_ignored(client: Client, db: None) -> None:
    client.cookies["django_language"] = "fr"
    assert lang(client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="es")) == "es"


def test_the_picker_sets_a_persons_language_without_javascript_or_a_csrf_token(
    club: Club, db: None
) -> None:
    browser = Client(enforce_csrf_checks=True)
    url = reverse("tournaments:club", args=[club.slug])
    page = browser.get(url).content.decode()
    picker = re.search(
        r'<form method="post" action="([^"]+)" class="language-picker">(.*?)</form>', page, re.S
    )
    assert picker is not None
    assert picker.group(1) == "/i18n/setlang/"
    assert '<label for="language-picker">' in picker.group(2)
    assert "csrfmiddlewaretoken" not in picker.group(2)

    response = browser.post(
        "/i18n/setlang/", {"language": "es"}, HTTP_REFERER=f"http://testserver{url}"
    )

    assert response.status_code == 302
    assert response["Location"] == f"http://testserver{url}"  # back where they were
    assert browser.cookies["django_language"].value == "es"
    assert lang(browser.get(url)) == "es"


def test_the_pages_load_the_catalogue_of_their_own_language_before_their_scripts(
    club: Club, night: Any, client: Client
) -> None:
    speak(club, "es")
    page = client.get(reverse("tournaments:session", args=[night.pk]) + "?name=x").content.decode()

    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts[0] == "/jsi18n/es/"
    assert len(scripts) > 1

    catalogue = client.get("/jsi18n/es/")
    assert catalogue.status_code == 200
    assert catalogue["Content-Type"].startswith("text/javascript")
    assert r'"Reconnecting\u2026": "Reconectando\u2026"' in catalogue.content.decode()
    assert "max-age=3600" in catalogue["Cache-Control"]
    assert "public" in catalogue["Cache-Control"]
    english = client.get("/jsi18n/en-us/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Reconectando" not in english
    assert "function" in english  # gettext() is defined with no translation at all
    assert client.get("/jsi18n/fr/").status_code == 404


def test_the_projector_screen_takes_the_clubs_language_and_its_catalogue(
    club: Club, night: Any, director: Any
) -> None:
    speak(club, "es")
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:screen", args=[night.pk]))
    assert page.status_code == 200
    assert lang(page) == "es"
    assert re.findall(r'<script src="([^"]+)"', page.content.decode())[0] == "/jsi18n/es/"


def test_a_directors_club_page_has_the_clubs_language_picker(club: Club, director: Any) -> None:
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:club_home", args=[club.slug])).content.decode()

    assert re.search(r'<form method="post" action="/director/clubs/tuesday/language/"', page)
    assert '<option value="en-us" lang="en-us" selected>English (US)</option>' in page
    assert '<option value="es" lang="es">Español</option>' in page


def test_a_clubs_tables_players_ratings_and_door_are_in_its_language(
    make_session: Callable[..., Any], club: Club, director: Any
) -> None:
    session = make_session(8)
    speak(club, "es")
    table = session.sittings.first().tables.first()
    player = session.entries.first().player
    public, directing = Client(), Client()
    directing.force_login(director)
    for client, url in (
        (public, reverse("scoring:table", args=[table.pk])),
        (public, reverse("ratings:player", args=[player.pk])),
        (public, reverse("ratings:club", args=[club.slug])),
        (public, reverse("tournaments:self_check_in", args=[session.pk])),
        (public, reverse("tournaments:standings", args=[session.pk])),
        (directing, reverse("tournaments:manage", args=[session.pk])),
        (directing, reverse("tournaments:club_home", args=[club.slug])),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert lang(page) == "es", url


def test_the_club_language_ends_with_its_request(club: Club, client: Client) -> None:
    speak(club, "es")
    assert lang(client.get(reverse("tournaments:club", args=[club.slug]))) == "es"
    assert lang(client.get(reverse("tournaments:home"))) == "en-us"
