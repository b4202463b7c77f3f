"""One rule for every name on every path (common/text.py): the API, each page that takes a
name, the roster import, the club file and the management commands refuse the same 15
hidden characters, write nothing, and keep names with emoji exactly as typed.

The rule itself, character by character, is tested in tests/common/test_text.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from exchange import roster
from tests.api.conftest import token_client
from tests.common.test_text import HIDDEN
from tests.factories import PlayerFactory
from tests.snapshots import db_snapshot
from tournaments.models import Club, Player, Season, Session

pytestmark = pytest.mark.django_db

CHARS = [char for char, _ in HIDDEN]
IDS = [words for _, words in HIDDEN]
EMOJI = ["Ann 🃏", "👩\u200d💻 Bo", "🏳\ufe0f\u200d🌈 Cy", "Di 👍🏽", "🇬🇧 Ed"]


@pytest.fixture
def dclient(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


def page(name: str, *args: Any) -> str:
    return reverse(f"tournaments:{name}", args=args)


def refused_on_the_page(response: Any, words: str) -> None:
    assert response.status_code == 400, "the form comes back with the refusal, nothing stored"
    assert f"can&#x27;t contain the invisible character {words}" in response.content.decode()


def new_session(season: Season, **fields: Any) -> dict[str, Any]:
    return {
        "season": season.pk,
        "name": "Club night",
        "date": str(season.starts_on),
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
    } | fields


# The API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_the_api_refuses_a_session_name_with_a_hidden_character(
    club: Club, season: Season, director: Any, char: str, words: str
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        new_session(season, name=f"Club{char} night", new_names=["Ann", "Bo", "Cy", "Di"]),
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "name_hidden_character"
    assert response.json()["field"] == "name"
    assert words in response.json()["message"]
    assert not Session.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_the_api_refuses_a_new_player_name_with_a_hidden_character(
    club: Club, season: Season, director: Any, char: str, words: str
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        new_session(season, new_names=["Ann", f"B{char}o"]),
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "name_hidden_character"
    assert words in response.json()["message"]
    assert not Player.objects.exists()


def test_the_api_keeps_session_and_player_names_with_emoji_as_typed(
    club: Club, season: Season, director: Any
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        new_session(season, name="🃏 Club night 👩\u200d💻", new_names=EMOJI),
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Session.objects.get().name == "🃏 Club night 👩\u200d💻"
    assert sorted(Player.objects.values_list("name", flat=True)) == sorted(EMOJI)


# The pages -------------------------------------------------------------------------------


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_the_club_players_page_refuses_a_hidden_character(
    club: Club, dclient: Client, char: str, words: str
) -> None:
    response = dclient.post(page("club_players", club.slug), {"name": f"{char}RLO"})
    refused_on_the_page(response, words)
    assert not Player.objects.exists()


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_renaming_a_player_on_the_page_refuses_a_hidden_character(
    club: Club, dclient: Client, char: str, words: str
) -> None:
    ann = PlayerFactory(club=club, name="Ann")
    response = dclient.post(page("club_player", club.slug, ann.pk), {"name": f"Ann{char}"})
    refused_on_the_page(response, words)
    ann.refresh_from_db()
    assert ann.name == "Ann"


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_the_seasons_page_refuses_a_hidden_character(
    club: Club, dclient: Client, char: str, words: str
) -> None:
    response = dclient.post(
        page("club_seasons", club.slug),
        {"name": f"Spring{char}", "starts_on": "2027-01-01", "ends_on": "2027-06-30"},
    )
    refused_on_the_page(response, words)
    assert not Season.objects.exists()


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
@pytest.mark.parametrize("field", ["name", "new_names"])
def test_the_new_session_page_refuses_a_hidden_character_in_its_name_or_roster(
    club: Club, season: Season, dclient: Client, char: str, words: str, field: str
) -> None:
    typed = {"name": f"Club night{char}", "new_names": "Ann\nBo\nCy\nDi"}
    if field == "new_names":
        typed = {"name": "Club night", "new_names": f"Ann\nBo{char}b\nCy\nDi"}
    response = dclient.post(page("session_new", club.slug), new_session(season, **typed))
    refused_on_the_page(response, words)
    assert not Session.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_adding_players_on_the_page_refuses_a_hidden_character(
    make_session: Any, dclient: Client, char: str, words: str
) -> None:
    session = make_session(8, start=False)
    before = db_snapshot()
    response = dclient.post(page("add_players", session.pk), {"new_names": f"Zed{char}"})
    assert response.status_code == 302
    shown = dclient.get(response["Location"]).content.decode()
    assert f"can&#x27;t contain the invisible character {words}" in shown
    assert db_snapshot() == before


def test_the_pages_keep_names_with_emoji_as_typed(
    club: Club, season: Season, dclient: Client
) -> None:
    dclient.post(page("club_players", club.slug), {"name": "Ann 🃏"})
    dclient.post(
        page("club_seasons", club.slug),
        {"name": "🌸 Spring", "starts_on": "2027-01-01", "ends_on": "2027-06-30"},
    )
    dclient.post(
        page("session_new", club.slug),
        new_session(season, name="👩\u200d💻 night", new_names="Bo 👍🏽\r\nCy\r\nDi\r\nEd"),
    )
    assert set(Player.objects.values_list("name", flat=True)) == {
        "Ann 🃏",
        "Bo 👍🏽",
        "Cy",
        "Di",
        "Ed",
    }
    assert Season.objects.filter(name="🌸 Spring").exists()
    assert Session.objects.filter(name="👩\u200d💻 night").exists()


def test_a_line_separator_in_the_roster_box_is_refused_not_taken_for_a_new_line(
    club: Club, season: Season, dclient: Client
) -> None:
    response = dclient.post(
        page("session_new", club.slug), new_session(season, new_names="Ann\u2028Bo\nCy\nDi")
    )
    refused_on_the_page(response, "U+2028 (LINE SEPARATOR)")
    assert not Player.objects.exists()


# The roster import and the club file ----------------------------------------------------------


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_the_roster_import_refuses_a_row_whose_name_has_a_hidden_character(
    char: str, words: str
) -> None:
    content = f"name,email\nAnn,\nBo{char}b,\n".encode()
    if char in "\u0007\u001b":  # a control character below U+0020: not a CSV file at all
        with pytest.raises(UserError) as refused:
            roster.parse_roster(content)
        assert refused.value.code == "roster_not_text"
        return
    parsed = roster.parse_roster(content)
    rows = {r.line: r for r in parsed.rows}
    assert rows[2].error is None
    assert rows[3].error == f"the name contains the invisible character {words}"
    assert char not in rows[3].name, "the preview shows the character escaped"


def test_the_roster_import_through_the_api_writes_nothing_when_a_name_is_refused(
    club: Club, director: Any
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/roster-import/",
        {"csv": "name\nAnn\n\u202eRLO\n", "confirm": True},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "roster_refused"
    assert not Player.objects.exists()


def test_the_roster_import_keeps_names_with_emoji() -> None:
    parsed = roster.parse_roster(("name\n" + "".join(f"{n}\n" for n in EMOJI)).encode())
    assert [(r.name, r.error) for r in parsed.rows] == [(n, None) for n in EMOJI]


@pytest.mark.parametrize(
    "table", ["club", "tournaments.season", "tournaments.session", "tournaments.player"]
)
def test_a_club_file_with_a_hidden_character_in_a_name_is_refused(
    club: Club, make_session: Any, director: Any, tmp_path: Path, table: str
) -> None:
    make_session(6, start=False)
    data = token_client(director).get(f"/api/clubs/{club.slug}/export.json").json()
    row = data["club"] if table == "club" else data["tables"][table][0]
    row["name"] = f"{row['name']}\u202e"
    before = db_snapshot()
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    with pytest.raises(
        CommandError, match=r"invisible character U\+202E \(RIGHT-TO-LEFT OVERRIDE\)"
    ):
        call_command("import_club", str(path))
    assert db_snapshot() == before


# The management commands ----------------------------------------------------------------------


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_play_session_refuses_a_club_name_with_a_hidden_character(char: str, words: str) -> None:
    with pytest.raises(
        CommandError, match=words.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")
    ):
        call_command("play_session", "--players", "8", "--club", f"Club{char}")
    assert not Club.objects.exists()


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=IDS)
def test_play_session_refuses_a_names_file_with_a_hidden_character(
    tmp_path: Path, char: str, words: str
) -> None:
    names = tmp_path / "names.txt"
    names.write_text("\n".join(["Ann", f"Bo{char}b", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]))
    with pytest.raises(CommandError, match="can't contain the invisible character"):
        call_command("play_session", "--players", "8", "--names", str(names))
    assert not Player.objects.exists()


# The admin ------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", [Club, Season, Session, Player])
def test_the_admin_refuses_a_name_with_a_hidden_character(
    model: Any, club: Club, director: Any, rf: Any
) -> None:
    from django.contrib import admin

    request = rf.get("/admin/")
    request.user = director
    form = admin.site._registry[model].get_form(request)(data={"name": "Club\u202e night"})
    assert not form.is_valid()
    assert "invisible character U+202E (RIGHT-TO-LEFT OVERRIDE)" in str(form.errors["name"])
    kept = admin.site._registry[model].get_form(request)(data={"name": "Club 🃏 night"})
    kept.is_valid()
    assert "name" not in kept.errors
