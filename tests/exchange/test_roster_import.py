"""Roster import: a CSV file from the club's spreadsheet, previewed, then confirmed.

Every bad file gets a clear message and writes nothing; a refused row is shown with its
line number and reason; nothing is written before the director confirms, and then all
of it in one transaction.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from common.errors import ConflictError, UserError
from common.matching import match_key
from exchange import roster, services
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Club, Player
from web.views import exchange as views

pytestmark = pytest.mark.django_db

EXCEL = (
    "\ufeffName;Email;External ID;Rating\r\nAnn Lee;ann@example.org;M-1;1520,5\r\nBo Diaz;;;\r\n"
)


def snapshot(club: Club) -> list[tuple[Any, ...]]:
    return list(
        Player.objects.filter(club=club)
        .order_by("pk")
        .values_list("name", "email", "external_id", "seed_rating")
    )


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


# Reading the file --------------------------------------------------------------------


def test_an_excel_csv_with_a_bom_and_semicolons_reads_every_column() -> None:
    parsed = roster.parse_roster(EXCEL.encode("utf-8"))
    assert parsed.delimiter == ";"
    assert parsed.columns == ("name", "email", "external_id", "rating")
    ann, bo = parsed.rows
    assert (ann.line, ann.name, ann.email, ann.external_id, ann.rating) == (
        2,
        "Ann Lee",
        "ann@example.org",
        "M-1",
        1520.5,
    )
    assert (bo.line, bo.name, bo.email, bo.external_id, bo.rating) == (3, "Bo Diaz", "", "", None)
    assert all(r.error is None for r in parsed.rows)


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_delimiter_is_read_from_the_header_line(delimiter: str) -> None:
    text = delimiter.join(["name", "rating"]) + "\n" + delimiter.join(["Cy", "1400"]) + "\n"
    parsed = roster.parse_roster(text.encode())
    assert parsed.delimiter == delimiter
    assert [(r.name, r.rating) for r in parsed.rows] == [("Cy", 1400.0)]


def test_a_name_only_file_is_a_roster() -> None:
    parsed = roster.parse_roster(b"Name\nAnn\nBo\n")
    assert [r.name for r in parsed.rows] == ["Ann", "Bo"]


def test_each_bad_row_is_refused_with_its_line_and_reason() -> None:
    text = (
        "name,email,external_id,rating\n"
        "Ann,,1,\n"  # line 2: fine
        ",x@example.org,,\n"  # 3: no name
        "Bo,not-an-email,,\n"  # 4
        "Cy,,,strong\n"  # 5
        "ann,,,\n"  # 6: the same name as line 2, whatever the case
        "Di,,1,\n"  # 7: the same external id as line 2
        "Ed,,,,surplus\n"  # 8: a cell too many
        "\n"  # 9: an empty line between players
        "Fay,,,\n"  # 10: fine
    )
    rows = {r.line: r for r in roster.parse_roster(text.encode()).rows}
    assert rows[2].error is None
    assert rows[10].error is None
    assert rows[3].error == "no name"
    assert "not an email address" in (rows[4].error or "")
    assert "not a number" in (rows[5].error or "")
    assert rows[6].error == "the same name as line 2"
    assert rows[7].error == "the same external id as line 2"
    assert "cells where the first line names 4 columns" in (rows[8].error or "")
    assert rows[9].error == "an empty line between players"


def test_blank_lines_after_the_last_player_are_dropped() -> None:
    parsed = roster.parse_roster(b"name;email\r\nAnn;\r\n;\r\n\r\n;;\r\n")
    assert [(r.line, r.error) for r in parsed.rows] == [(2, None)]


@pytest.mark.parametrize(
    ("content", "code", "words"),
    [
        (b"player name,phone\nAnn,555\n", "roster_columns", "Unknown column"),
        (b"email,rating\nann@example.org,1\n", "roster_columns", "at least a name column"),
        (b"name,name\nAnn,Ann\n", "roster_columns", "appears twice"),
        (b"\nname\nAnn\n", "roster_columns", "first line is empty"),
        (b"name\n\n\n", "roster_empty", "no players"),
        (b"", "roster_columns", "first line"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "roster_not_text", "binary data"),
        (b"name\nJos\xe9\n", "roster_not_utf8", "CSV UTF-8"),
        (b"name\nAnn\x07\n", "roster_not_text", "control characters"),
        (b'name\n"Ann\n', "roster_unreadable", "cannot be read as CSV"),
        (b"name\n" + b"x\n" * (roster.MAX_ROWS + 1), "roster_too_large", "at most"),
    ],
)
def test_a_bad_file_is_refused_whole_with_a_clear_message(
    content: bytes, code: str, words: str
) -> None:
    with pytest.raises(UserError) as caught:
        roster.parse_roster(content)
    assert caught.value.code == code
    assert words in caught.value.message
    assert "Nothing was imported" in caught.value.message


def test_a_file_over_the_size_limit_is_refused_unread() -> None:
    with pytest.raises(UserError) as caught:
        roster.parse_roster(b"name\n" + b"A" * roster.MAX_BYTES)
    assert caught.value.code == "roster_too_large"


# Matching and importing ----------------------------------------------------------------


def test_the_preview_adds_matches_by_external_id_then_by_name_and_writes_nothing(
    club: Club,
) -> None:
    by_id = PlayerFactory(club=club, name="Annie Lee", external_id="M-1")
    by_name = PlayerFactory(club=club, name="bo diaz", email="bo@example.org")
    before = snapshot(club)
    preview = services.roster_preview(
        club=club, content=(EXCEL + "Cy Ng;cy@example.org;;\r\n").encode()
    )
    assert snapshot(club) == before
    assert [(r.line, r.action, r.player_id) for r in preview.rows] == [
        (2, "match", by_id.pk),
        (3, "match", by_name.pk),
        (4, "add", None),
    ]
    ann = preview.rows[0]
    assert ann.reason.startswith("by external id")
    assert "Annie Lee" in ann.reason
    assert ann.changes == ("email: (none) → ann@example.org", "rating: (none) → 1520.5")
    assert preview.rows[1].reason == "by name"
    assert preview.rows[1].changes == ()
    assert preview.can_confirm


def test_confirming_writes_every_row_at_once(club: Club, director: Any) -> None:
    PlayerFactory(club=club, name="Annie Lee", external_id="M-1")
    PlayerFactory(club=club, name="Bo Diaz")
    content = (EXCEL + "Cy Ng;cy@example.org;C-3;1400\r\n").encode()
    result = services.roster_import(club_id=club.pk, content=content, user=director)
    assert (result.added, result.updated, result.unchanged) == (1, 1, 1)
    assert snapshot(club) == [
        ("Annie Lee", "ann@example.org", "M-1", 1520.5),
        ("Bo Diaz", "", "", None),
        ("Cy Ng", "cy@example.org", "C-3", 1400.0),
    ]


def test_an_empty_cell_never_clears_what_is_stored(club: Club, director: Any) -> None:
    PlayerFactory(club=club, name="Bo Diaz", email="bo@example.org", seed_rating=1300.0)
    services.roster_import(
        club_id=club.pk, content=b"name,email,rating\nBo Diaz,,\n", user=director
    )
    assert snapshot(club) == [("Bo Diaz", "bo@example.org", "", 1300.0)]


def test_a_row_that_contradicts_a_stored_external_id_is_refused(club: Club) -> None:
    PlayerFactory(club=club, name="Ann Lee", external_id="M-9")
    preview = services.roster_preview(club=club, content=b"name,external_id\nAnn Lee,M-1\n")
    (row,) = preview.refused
    assert row.line == 2
    assert "M-9" in row.reason
    assert "M-1" in row.reason
    assert not preview.can_confirm


def test_two_rows_for_one_player_are_refused(club: Club) -> None:
    PlayerFactory(club=club, name="Ann Lee", external_id="M-1")
    preview = services.roster_preview(club=club, content=b"name,external_id\nAnnie,M-1\nAnn Lee,\n")
    assert [(r.line, r.action) for r in preview.rows] == [(2, "match"), (3, "refuse")]
    assert preview.rows[1].reason == "matches the same player (Ann Lee) as line 2"


def test_a_file_with_a_refused_row_imports_nothing(club: Club, director: Any) -> None:
    before = snapshot(club)
    with pytest.raises(UserError) as caught:
        services.roster_import(club_id=club.pk, content=b"name\nAnn\nBo\nann\n", user=director)
    assert caught.value.code == "roster_refused"
    assert "line 4" in caught.value.message
    assert snapshot(club) == before


def test_a_confirm_after_the_players_changed_is_refused(club: Club, director: Any) -> None:
    content = b"name\nAnn\nBo\n"
    preview = services.roster_preview(club=club, content=content)
    PlayerFactory(club=club, name="Bo")
    with pytest.raises(ConflictError):
        services.roster_import(
            club_id=club.pk, content=content, expected=preview.fingerprint(), user=director
        )
    assert snapshot(club) == [("Bo", "", "", None)]


def test_another_clubs_players_are_not_matched(club: Club) -> None:
    PlayerFactory(club=ClubFactory(), name="Ann", external_id="M-1")
    preview = services.roster_preview(club=club, content=b"name,external_id\nAnn,M-1\n")
    assert [r.action for r in preview.rows] == ["add"]


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
        (b"nom,courriel\nAnn,a@example.org\n", "Unknown column"),
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


# Any spreadsheet's CSV ---------------------------------------------------------------

# Any name the rule for names keeps (common/text.py): the categories it refuses are left out
# (its joiners and tags too, being format characters); tests/common/test_text.py has them.
NAMES = st.text(
    alphabet=st.characters(blacklist_categories=["Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"]),
    min_size=1,
    max_size=30,
).filter(lambda n: n.strip() and not n.strip().startswith("\ufeff"))


@given(
    players=st.lists(
        st.tuples(NAMES, st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False))),
        min_size=1,
        max_size=20,
        # Two names that are the same name by the club's rule are one player twice.
        unique_by=lambda p: match_key(p[0]),
    ),
    delimiter=st.sampled_from([",", ";", "\t"]),
    bom=st.booleans(),
    newline=st.sampled_from(["\n", "\r\n"]),
)
@settings(max_examples=60, deadline=None)
def test_any_roster_a_spreadsheet_writes_reads_back_the_same(
    players: list[tuple[str, float | None]], delimiter: str, bom: bool, newline: str
) -> None:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=newline)
    writer.writerow(["Name", "Rating"])
    for name, rating in players:
        writer.writerow([name, "" if rating is None else repr(rating)])
    data = ("\ufeff" if bom else "") + out.getvalue()
    parsed = roster.parse_roster(data.encode("utf-8"))
    assert parsed.delimiter == delimiter
    assert [(r.name, r.rating, r.error) for r in parsed.rows] == [
        (" ".join(name.split()), rating, None) for name, rating in players
    ]


def test_a_name_matches_regardless_of_case_and_spacing(club: Club) -> None:
    spaced = PlayerFactory(club=club, name="ann  LEE")
    preview = services.roster_preview(club=club, content=b"name\nAnn Lee\n")
    assert [(r.action, r.player_id) for r in preview.rows] == [("match", spaced.pk)]


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
