"""Roster import: the columns of a club's own sheet. Each known column is found under the
headings clubs give it (case, spaces and punctuation do not count), a name kept in first
and last name columns is joined, other columns are ignored and named in the preview, and
a column given twice is refused, saying which (docs/tournament.md, the column table)."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import UserError
from exchange import roster, services
from tests.exchange.roster_helpers import snapshot
from tests.factories import PlayerFactory
from tournaments.models import AuditEntry, Club

pytestmark = pytest.mark.django_db

VALUES = {
    "email": ("ann@example.org", "email", "ann@example.org"),
    "external_id": ("M-7", "external_id", "M-7"),
    "rating": ("1500", "rating", 1500.0),
}


@pytest.mark.parametrize(
    ("column", "alias"),
    [(column, alias) for column, aliases in roster.ALIASES.items() for alias in aliases],
)
def test_each_alias_reads_its_column(column: str, alias: str) -> None:
    heading = alias.title()
    if column in ("name", "first_name", "last_name"):
        parsed = roster.parse_roster(f"{heading},Phone\nAnn Lee,555\n".encode())
        assert [r.name for r in parsed.rows] == ["Ann Lee"]
        assert parsed.columns == (column,)
        return
    value, field, stored = VALUES[column]
    parsed = roster.parse_roster(f"Name,{heading}\nAnn Lee,{value}\n".encode())
    assert parsed.columns == ("name", column)
    assert getattr(parsed.rows[0], field) == stored
    assert parsed.ignored == ()


@pytest.mark.parametrize(
    "heading",
    ["E-mail", "EMAIL ADDRESS", "e_mail", "E-Mail Address", "Mail", " email "],
)
def test_a_heading_is_read_whatever_its_case_spaces_or_punctuation(heading: str) -> None:
    parsed = roster.parse_roster(f"Full name;{heading}\nAnn Lee;ann@example.org\n".encode())
    assert parsed.rows[0].email == "ann@example.org"


@pytest.mark.parametrize(
    "heading", ["Member No.", "Membership number", "MEMBER #ID", "member_id", "External ID"]
)
def test_the_clubs_member_number_is_the_external_id(heading: str) -> None:
    parsed = roster.parse_roster(f"Player;{heading}\nAnn Lee;0042\n".encode())
    assert parsed.rows[0].external_id == "0042"


def test_first_and_last_name_columns_are_joined_into_the_name() -> None:
    text = "Surname,First Name,Phone\nCostello,Anne-Marie,555\nLee,,\n,Cher,\n,,\nNg,Bo,\n"
    parsed = roster.parse_roster(text.encode())
    assert parsed.columns == ("last_name", "first_name")
    assert [(r.line, r.name, r.error) for r in parsed.rows] == [
        (2, "Anne-Marie Costello", None),
        (3, "Lee", None),
        (4, "Cher", None),
        (5, "", "an empty line between players"),
        (6, "Bo Ng", None),
    ]


def test_a_hidden_character_in_a_name_part_is_refused() -> None:
    (row,) = roster.parse_roster("first name,last name\nAnn\u202e,Lee\n".encode()).rows
    assert row.error is not None
    assert "invisible character" in row.error


def test_unknown_columns_are_ignored_and_named() -> None:
    text = "Name,Phone,Email,Notes,,\nAnn Lee,555,ann@example.org,vegan,,\nBo,556,,,x,\n"
    parsed = roster.parse_roster(text.encode())
    assert parsed.ignored == ("Phone", "Notes", "column 5 (no heading)")
    assert [(r.name, r.email, r.error) for r in parsed.rows] == [
        ("Ann Lee", "ann@example.org", None),
        ("Bo", "", None),
    ]


def test_a_column_with_no_heading_and_nothing_in_it_is_not_named() -> None:
    assert roster.parse_roster(b"name;;\nAnn;;\n").ignored == ()


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("Name,Player", "The columns “Name” and “Player” both hold the player's name"),
        ("Email,E-mail", "The columns “Email” and “E-mail” both hold the email"),
        ("Name,Member No,Club ID", "“Member No” and “Club ID” both hold the external id"),
        ("Name,Elo,Rating", "“Elo” and “Rating” both hold the rating"),
        ("Forename,Given name", "“Forename” and “Given name” both hold the first name"),
        ("Name,Surname", "The columns “Name” and “Surname” both hold the player's name"),
        ("Name,NAME", "The column “NAME” appears twice"),
    ],
)
def test_a_column_given_twice_is_refused_saying_which(header: str, words: str) -> None:
    with pytest.raises(UserError) as caught:
        roster.parse_roster(f"{header}\nAnn,Ann,Ann\n".encode())
    assert caught.value.code == "roster_columns"
    assert words in caught.value.message
    assert caught.value.message.endswith("Nothing was imported.")


def test_a_sheet_without_a_name_column_is_refused_naming_what_it_needs() -> None:
    with pytest.raises(UserError) as caught:
        roster.parse_roster(b"Phone,Email\n555,a@example.org\n")
    assert "at least a name column: name (or first name and last name)" in caught.value.message


def test_a_cell_beyond_the_last_heading_is_still_refused_with_its_line() -> None:
    rows = roster.parse_roster(b"Name,Phone\nAnn,555\nBo,556,surplus\n").rows
    assert rows[0].error is None
    assert (rows[1].line, rows[1].name) == (3, "Bo")
    assert rows[1].error == "3 cells where the first line names 2 columns"


def test_the_preview_and_the_import_ignore_the_columns_they_name(club: Club, director: Any) -> None:
    content = b"Player;Phone;E-mail;Notes\nAnn Lee;555;ann@example.org;vegan\nBo Ng;556;;\n"
    preview = services.roster_preview(club=club, content=content)
    assert preview.ignored == ("Phone", "Notes")
    assert preview.as_dict()["ignored_columns"] == ["Phone", "Notes"]
    assert preview.as_dict()["columns"] == ["name", "email"]
    result = services.roster_import(
        club_id=club.pk, content=content, expected=preview.fingerprint(), user=director
    )
    assert result.added == 2
    assert snapshot(club) == [
        ("Ann Lee", "ann@example.org", "", None),
        ("Bo Ng", "", "", None),
    ]
    entry = AuditEntry.objects.get(action="roster.import")
    assert entry.details["ignored_columns"] == ["Phone", "Notes"]


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ("Anne-Marie Costello", "ANNE MARIE COSTELLO"),
        ("Pádraig McGettigan", "padraig mc gettigan"),
        ("Pete O'Brien", "Pete O Brien"),
        ("Ewan MacDonald", "Ewan Mac Donald"),
    ],
)
def test_the_import_matches_an_existing_player_however_the_sheet_writes_the_name(
    club: Club, director: Any, stored: str, typed: str
) -> None:
    player = PlayerFactory.create(club=club, name=stored)
    content = f"First name,Last name,Mail\n{typed.rsplit(' ', 1)[0]},{typed.rsplit(' ', 1)[1]},"
    content += "p@example.org\n"
    preview = services.roster_preview(club=club, content=content.encode())
    (matched,) = preview.matched
    assert matched.player_id == player.pk
    assert matched.reason == f"by name written otherwise: did you mean {stored}?"
    services.roster_import(club_id=club.pk, content=content.encode(), user=director)
    assert snapshot(club) == [(stored, "p@example.org", "", None)]


def test_mac_is_not_mc_in_the_import_a_near_miss_is_said(club: Club) -> None:
    PlayerFactory.create(club=club, name="Ewan McDonald")
    preview = services.roster_preview(club=club, content=b"name\nEwan MacDonald\nZed Zulu\n")
    near, new = preview.added
    assert near.reason == (
        "a new player; did you mean Ewan McDonald? Write the name as the club has it to "
        "match that player"
    )
    assert new.reason == ""


def test_a_name_two_club_players_share_is_refused_not_guessed(club: Club) -> None:
    PlayerFactory.create(club=club, name="Anne Marie Costello")
    PlayerFactory.create(club=club, name="Annemarie Costello")
    preview = services.roster_preview(club=club, content=b"name\nAnne-Marie Costello\n")
    (refused,) = preview.refused
    assert (refused.line, refused.reason) == (
        2,
        "the club has 2 players of that name (Anne Marie Costello and Annemarie Costello): "
        "write it as the club writes the one it is",
    )
    written = services.roster_preview(club=club, content=b"name\nannemarie  COSTELLO\n")
    (matched,) = written.matched  # written as the club writes one: that one
    assert (matched.name, matched.reason) == ("annemarie COSTELLO", "by name")
