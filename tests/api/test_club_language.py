"""The club's language through the API (docs/api.md, "Clubs"): shown by GET, set by a
director's PATCH, refused with a stable code for a language not shipped, and refused to
anyone else; the messages follow Accept-Language, the codes stay English."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.factories import UserFactory
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tournaments.models import AuditEntry, Club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogues")]


def url(club: Club) -> str:
    return f"/api/clubs/{club.slug}/"


def test_a_club_is_in_us_english_until_its_director_chooses(club: Club) -> None:
    assert APIClient().get(url(club)).json()["language"] == "en-us"


def test_a_director_sets_the_clubs_language(club: Club, as_director: APIClient) -> None:
    response = as_director.patch(url(club), {"language": "en-ie"}, format="json")

    assert response.status_code == 200
    assert response.json()["language"] == "en-ie"
    club.refresh_from_db()
    assert club.language == "en-ie"
    assert APIClient().get(url(club)).json()["language"] == "en-ie"
    entry = AuditEntry.objects.get(club=club, action="club.settings")
    assert entry.details["changed"] == {"language": {"before": "en-us", "after": "en-ie"}}


def test_a_language_not_shipped_is_a_400_naming_the_shipped_ones(
    club: Club, as_director: APIClient
) -> None:
    response = as_director.patch(url(club), {"language": "fr"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "language_unknown"
    assert body["field"] == "language"
    for code in ("en-us", "en-gb", "en-ie", "es"):
        assert code in body["message"]
    club.refresh_from_db()
    assert club.language == "en-us"


def test_the_refusal_is_in_the_callers_language_and_its_code_in_english(
    club: Club, as_director: APIClient
) -> None:
    response = as_director.patch(
        url(club), {"language": "klingon"}, format="json", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "language_unknown"
    assert response.json()["message"].startswith("«klingon» no es un idioma de Huckley")


def test_the_clubs_language_does_not_choose_the_apis(club: Club, as_director: APIClient) -> None:
    club.language = "es"
    club.save(update_fields=["language"])

    response = as_director.patch(url(club), {"language": "xx"}, format="json")

    assert response.json()["message"].startswith("“xx” is not a language Huckley ships")


@pytest.mark.parametrize("who", ["anonymous", "stranger", "another club's director"])
def test_nobody_but_a_director_changes_it(club: Club, who: str) -> None:
    if who == "anonymous":
        client, status = APIClient(), 401
    else:
        user: Any = UserFactory(username="someone-else")
        if who == "another club's director":
            Club.objects.create(name="Other", slug="other").directors.add(user)
        client, status = token_client(user), 403

    response = client.patch(url(club), {"language": "es"}, format="json")

    assert response.status_code == status
    club.refresh_from_db()
    assert club.language == "en-us"
