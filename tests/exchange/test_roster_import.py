"""Roster import: a CSV file from the club's spreadsheet, previewed, then confirmed.

Every bad file gets a clear message and writes nothing; a refused row is shown with its
line number and reason; nothing is written before the director confirms, and then all
of it in one transaction. Here: reading the file, matching and importing (the services);
the page and the API that offer it are in test_roster_import_pages.py.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common.errors import ConflictError, UserError
from common.matching import match_key
from exchange import roster, services
from tests.exchange.roster_helpers import EXCEL, snapshot
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Club

pytestmark = pytest.mark.django_db


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
        (b"phone,notes\n555,x\n", "roster_columns", "at least a name column"),
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
