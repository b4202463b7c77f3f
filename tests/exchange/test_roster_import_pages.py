"""Roster import on the club's pages and through the API: the director previews a
file, then confirms it; a refused line, a bad file, an altered, forged, stale or expired
confirmation and another club's director import nothing; the rating column is explained
and shown. Reading the file and the import itself are in test_roster_import.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.exchange.roster_helpers import EXCEL, snapshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Club
from web.views import exchange as views

pytestmark = pytest.mark.django_db


def url(club: Club) -> str:
    return reverse("exchange:roster_import", args=[club.slug])


def upload(client: Client, club: Club, content: bytes, name: str = "roster.csv") -> Any:
    return client.post(url(club), {"file": SimpleUploadedFile(name, content, "text/csv")})


def token_in(response: Any) -> str:
    match = re.search(r'name="token" value="([^"]+)"', response.content.decode())
    assert match, "the preview offers no confirmation"
    return match.group(1)


@pytest.fixture
def dclient(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


# The page ------------------------------------------------------------------------------


def test_the_page_previews_then_imports_on_confirmation(dclient: Client, club: Club) -> None:
    response = upload(dclient, club, EXCEL.encode("utf-8"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ann Lee" in page
    assert "Bo Diaz" in page
    assert "2 to add" in page
    assert snapshot(club) == []
    response = dclient.post(url(club), {"token": token_in(response)})
    assert response.status_code == 302
    assert snapshot(club) == [
        ("Ann Lee", "ann@example.org", "M-1", 1520.5),
        ("Bo Diaz", "", "", None),
    ]


def test_the_page_shows_each_refused_line_and_offers_no_confirmation(
    dclient: Client, club: Club
) -> None:
    response = upload(dclient, club, b"name,rating\nAnn,1\nBo,strong\n\nCy,2\n")
    page = response.content.decode()
    assert response.status_code == 200
    assert "the rating &#x27;strong&#x27; is not a number" in page
    assert "an empty line between players" in page
    assert 'name="token"' not in page
    assert snapshot(club) == []


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"nom,courriel\nAnn,a@example.org\n", "at least a name column"),
        (b"Name,Player\nAnn,Ann\n", "The columns “Name” and “Player” both hold the player"),
        (b"name\nAnn\nBo\nann\n", "the same name as line 2"),
        (b"name\n\nAnn\n", "an empty line between players"),
        (b"\x00\x01\x02\x03binary\xff\xfe", "binary data"),
    ],
)
def test_bad_files_on_the_page_say_why_and_write_nothing(
    dclient: Client, club: Club, content: bytes, words: str
) -> None:
    response = upload(dclient, club, content)
    assert words in response.content.decode().replace("&#x27;", "'")
    assert 'name="token"' not in response.content.decode()
    assert snapshot(club) == []


def test_a_10_mb_file_is_refused_on_the_page_and_writes_nothing(
    dclient: Client, club: Club
) -> None:
    content = b"name\n" + b"A player name\n" * (10 * 1024 * 1024 // 14)
    assert len(content) >= 10 * 1024 * 1024 - 14
    response = upload(dclient, club, content)
    assert response.status_code == 400
    assert "a roster file may be at most 1 MB" in response.content.decode()
    assert snapshot(club) == []


def test_the_page_needs_a_file(dclient: Client, club: Club) -> None:
    response = dclient.post(url(club), {})
    assert response.status_code == 400
    assert "Choose a CSV file" in response.content.decode()


def test_an_altered_confirmation_token_imports_nothing(dclient: Client, club: Club) -> None:
    token = token_in(upload(dclient, club, b"name\nAnn\n"))
    response = dclient.post(url(club), {"token": token[:-2] + "xx"})
    assert response.status_code == 400
    assert "upload the file again" in response.content.decode()
    assert snapshot(club) == []


def test_a_token_forged_without_the_key_imports_nothing(dclient: Client, club: Club) -> None:
    forged = signing.dumps(
        {"club": club.pk, "csv": "name\nMallory\n", "fingerprint": ""}, salt="other", compress=True
    )
    response = dclient.post(url(club), {"token": forged})
    assert response.status_code == 400
    assert snapshot(club) == []


def test_another_clubs_confirmation_token_imports_nothing(
    dclient: Client, club: Club, director: Any
) -> None:
    other = ClubFactory()
    other.directors.add(director)
    token = token_in(upload(dclient, other, b"name\nAnn\n"))
    response = dclient.post(url(club), {"token": token})
    assert response.status_code == 400
    assert snapshot(club) == []
    assert snapshot(other) == []


def test_a_confirmation_after_the_roster_changed_shows_the_new_preview(
    dclient: Client, club: Club
) -> None:
    token = token_in(upload(dclient, club, b"name\nAnn\nBo\n"))
    PlayerFactory(club=club, name="Bo")
    response = dclient.post(url(club), {"token": token})
    assert response.status_code == 409
    assert "changed since the preview" in response.content.decode()
    assert snapshot(club) == [("Bo", "", "", None)]
    response = dclient.post(url(club), {"token": token_in(response)})
    assert response.status_code == 302
    assert [row[0] for row in snapshot(club)] == ["Bo", "Ann"]


def test_an_expired_confirmation_imports_nothing(
    dclient: Client, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = token_in(upload(dclient, club, b"name\nAnn\n"))
    monkeypatch.setattr(views, "TOKEN_MAX_AGE", -1)
    response = dclient.post(url(club), {"token": token})
    assert response.status_code == 400
    assert snapshot(club) == []


@pytest.mark.parametrize("who", ["anonymous", "other director", "player"])
def test_only_a_director_of_the_club_may_import(client: Client, club: Club, who: str) -> None:
    if who == "other director":
        user = UserFactory()
        ClubFactory().directors.add(user)
        client.force_login(user)
    elif who == "player":
        user = UserFactory()
        PlayerFactory(club=club, name="Pat", user=user)
        client.force_login(user)
    before = snapshot(club)
    response = upload(client, club, b"name\nMallory\n")
    assert response.status_code in (302, 403)
    if who == "anonymous":
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == 403
    assert snapshot(club) == before


def test_the_club_page_links_the_director_to_the_import(dclient: Client, club: Club) -> None:
    page = dclient.get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert url(club) in page


# The API -----------------------------------------------------------------------------


@pytest.fixture
def api(director: Any) -> APIClient:
    token, _ = Token.objects.get_or_create(user=director)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


def test_the_api_previews_then_imports(api: APIClient, club: Club) -> None:
    path = f"/api/clubs/{club.slug}/roster-import/"
    preview = api.post(path, {"csv": EXCEL}, format="json")
    assert preview.status_code == 200
    body = preview.json()
    assert (body["added"], body["matched"], body["refused"]) == (2, 0, 0)
    assert [r["line"] for r in body["rows"]] == [2, 3]
    assert snapshot(club) == []
    done = api.post(
        path, {"csv": EXCEL, "confirm": True, "fingerprint": body["fingerprint"]}, format="json"
    )
    assert done.status_code == 201
    assert done.json() == {"added": 2, "updated": 0, "unchanged": 0}
    assert len(snapshot(club)) == 2


def test_the_page_names_the_columns_it_ignores_and_imports_the_rest(
    dclient: Client, club: Club
) -> None:
    content = b"Player,Phone,E-mail,Member No,Notes\nAnn Lee,555,ann@example.org,7,vegan\n"
    preview = upload(dclient, club, content)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Ignored columns: Phone, Notes. Their cells are not read." in page
    dclient.post(url(club), {"token": token_in(preview)})
    assert snapshot(club) == [("Ann Lee", "ann@example.org", "7", None)]


def test_the_page_says_when_a_new_name_is_a_near_miss(dclient: Client, club: Club) -> None:
    PlayerFactory.create(club=club, name="Rosa Díaz")
    page = upload(dclient, club, b"name\nRosa Dias\n").content.decode()
    assert "a new player; did you mean Rosa Díaz? Write the name as the club has it" in page


def test_the_api_names_the_ignored_columns(api: APIClient, club: Club) -> None:
    path = f"/api/clubs/{club.slug}/roster-import/"
    body = api.post(path, {"csv": "Full name;Phone\nAnn;555\n"}, format="json").json()
    assert body["columns"] == ["name"]
    assert body["ignored_columns"] == ["Phone"]
    assert body["added"] == 1


def test_the_api_refuses_a_file_with_a_refused_row(api: APIClient, club: Club) -> None:
    path = f"/api/clubs/{club.slug}/roster-import/"
    response = api.post(path, {"csv": "name\nAnn\nann\n", "confirm": True}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "roster_refused"
    assert snapshot(club) == []


def test_the_api_refuses_other_callers(club: Club) -> None:
    path = f"/api/clubs/{club.slug}/roster-import/"
    anonymous = APIClient().post(path, {"csv": "name\nAnn\n", "confirm": True}, format="json")
    assert anonymous.status_code == 401
    other = APIClient()
    other.force_authenticate(UserFactory())
    refused = other.post(path, {"csv": "name\nAnn\n", "confirm": True}, format="json")
    assert refused.status_code == 403
    assert snapshot(club) == []


def test_the_rating_column_is_explained_where_the_file_is_chosen(club: Any, director: Any) -> None:
    client = Client()
    client.force_login(director)

    page = client.get(reverse("exchange:roster_import", args=[club.slug])).content.decode()

    assert "The rating column is a starting strength" in page
    assert "only for players who have no\n    rating from games yet" in page


def test_a_players_imported_rating_shows_on_their_page(club: Any, director: Any) -> None:
    player = PlayerFactory(club=club, seed_rating=12.5)
    client = Client()
    client.force_login(director)

    page = client.get(
        reverse("tournaments:club_player", args=[club.slug, player.pk])
    ).content.decode()

    assert "Imported rating 12.50" in page
