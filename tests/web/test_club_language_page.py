"""The club's language on the club's own page: a director chooses it with the same
service as the API; nobody else can; a code not shipped changes nothing and says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tournaments.models import Club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogues")]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_director_chooses_the_clubs_language_on_its_page(club: Club, director: Any) -> None:
    client = signed_in(director)
    url = reverse("tournaments:club_language", args=[club.slug])

    response = client.post(url, {"language": "es"}, follow=True)

    club.refresh_from_db()
    assert club.language == "es"
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("tournaments:club_home", args=[club.slug])
    # The page that comes back is already in the club's new language.
    assert "Las páginas del club están ahora en el idioma elegido." in page
    assert '<option value="es" lang="es" selected>Español</option>' in page


def test_a_language_not_shipped_changes_nothing_and_says_which_are(
    club: Club, director: Any
) -> None:
    client = signed_in(director)

    response = client.post(
        reverse("tournaments:club_language", args=[club.slug]), {"language": "fr"}, follow=True
    )

    club.refresh_from_db()
    assert club.language == "en-us"
    assert "“fr” is not a language Huckley ships; choose one of en-us, en-gb, en-ie, es." in (
        response.content.decode()
    )


def test_nobody_but_a_director_chooses_it(club: Club) -> None:
    url = reverse("tournaments:club_language", args=[club.slug])
    stranger = signed_in(UserFactory(username="stranger"))

    assert stranger.post(url, {"language": "es"}).status_code == 403
    anonymous = Client().post(url, {"language": "es"})
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    club.refresh_from_db()
    assert club.language == "en-us"
