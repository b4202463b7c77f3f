"""Reading a roster file: the bytes a director uploads, turned into rows or refused.

Plain Python (no database): `parse_roster` refuses a file that cannot be read at all
(too large, binary, not UTF-8, no name column, a column twice, no players) with a
`UserError`, and otherwise returns every row with its line number, each row either clean
or carrying the reason it is refused. Matching the rows to the club's players is the
service's job (`exchange.services`).

Columns are found by their headings as clubs write them (`ALIASES`: "Player", "E-mail",
"Member No", a name in "First name" and "Surname" columns ...); a column with any other
heading is not read, and named in the preview (`RosterFile.ignored`), never a reason to
refuse the file.

Excel's "CSV UTF-8" starts the file with a byte order mark and, in many locales, writes
semicolons; the delimiter is read from the header line.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext, gettext_noop

from common.errors import UserError
from common.matching import match_key, spelled
from common.text import character_name, hidden_character, shown

MAX_BYTES = 1024 * 1024
MAX_ROWS = 5000
NAME_MAX = 60
EMAIL_MAX = 254
EXTERNAL_ID_MAX = 64
DELIMITERS = (",", ";", "\t")

# The columns a roster file may have, and the headings a club's spreadsheet gives them.
# A heading is read by its match key (`common.matching.match_key`: case, accents, spaces
# and punctuation do not count), so "E-mail", "EMAIL" and "e mail" are all the email.
COLUMNS = ("name", "email", "external_id", "rating")
#: A name kept in two columns, joined "first last" into the name.
NAME_PARTS = ("first_name", "last_name")
ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "full name", "member name", "names"),
    "first_name": ("first name", "first", "forename", "forenames", "given name"),
    "last_name": ("last name", "last", "surname", "family name"),
    "email": ("email", "email address", "mail", "mail address"),
    "external_id": (
        "external id",
        "member no",
        "member number",
        "member id",
        "membership no",
        "membership number",
        "membership id",
        "club id",
    ),
    "rating": ("rating", "seed rating", "starting rating", "elo"),
}
#: What each column is called where a message names it.
SAID = {
    "name": gettext_noop("the player's name"),
    "first_name": gettext_noop("the first name"),
    "last_name": gettext_noop("the last name"),
    "email": gettext_noop("the email"),
    "external_id": gettext_noop("the external id"),
    "rating": gettext_noop("the rating"),
}
_BY_KEY = {match_key(alias): column for column, aliases in ALIASES.items() for alias in aliases}
assert len(_BY_KEY) == sum(map(len, ALIASES.values())), "two columns share a heading"
EXPECTED = "name (or first name and last name), email, external_id, rating"


@dataclass(frozen=True)
class RosterRow:
    """One line of the file. `error` is None for a row that can be imported."""

    line: int
    name: str
    email: str = ""
    external_id: str = ""
    rating: float | None = None
    error: str | None = None


@dataclass(frozen=True)
class RosterFile:
    #: The known columns the file has, in its order.
    columns: tuple[str, ...]
    delimiter: str
    rows: tuple[RosterRow, ...]
    #: The headings of the columns it has that are not read, as the file writes them.
    ignored: tuple[str, ...] = ()


def too_large_message(size: int) -> str:
    return gettext(
        "The file is %(size)s MB; a roster file may be at most %(max)s MB. Nothing was imported."
    ) % {"size": f"{size / 1024 / 1024:.1f}", "max": MAX_BYTES // 1024 // 1024}


def _text(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise UserError("roster_too_large", too_large_message(len(data)))
    if b"\x00" in data:
        raise UserError(
            "roster_not_text",
            gettext(
                "This is not a CSV file (it holds binary data). Save the roster from "
                "your spreadsheet as CSV and upload that. Nothing was imported."
            ),
        )
    try:
        # utf-8-sig drops the byte order mark Excel puts at the start of "CSV UTF-8".
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(
            "roster_not_utf8",
            gettext(
                "The file is not UTF-8 text (byte %(start)s cannot be read). In Excel, "
                'save it as "CSV UTF-8 (Comma delimited)". Nothing was imported.'
            )
            % {"start": e.start + 1},
        ) from None
    if any(ord(ch) < 32 and ch not in "\t\r\n" for ch in text):
        raise UserError(
            "roster_not_text",
            gettext(
                "This is not a CSV file (it holds control characters). Save the roster "
                "from your spreadsheet as CSV and upload that. Nothing was imported."
            ),
        )
    return text


def _delimiter(header: str) -> str:
    """The delimiter the header line uses most; a one-column file has none (a comma)."""
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def _heading(raw: str) -> str:
    return " ".join(raw.split())


def _fields(header: list[str]) -> tuple[str | None, ...]:
    """The known column of each heading, by position (None: not read); a file whose
    headings cannot be read as one column each is refused, saying which."""
    fields: list[str | None] = []
    first: dict[str, str] = {}
    for raw in header:
        column = _BY_KEY.get(match_key(raw))
        fields.append(column)
        if column is None:
            continue
        if column in first:
            earlier = first[column]
            raise UserError(
                "roster_columns",
                (
                    gettext("The column “%(column)s” appears twice in the first line.")
                    % {"column": _heading(raw)}
                    if spelled(earlier) == spelled(raw)
                    else gettext(
                        "The columns “%(earlier)s” and “%(column)s” both hold %(what)s: "
                        "keep one, and delete or rename the other."
                    )
                    % {"earlier": earlier, "column": _heading(raw), "what": gettext(SAID[column])}
                )
                + " "
                + gettext("Nothing was imported."),
            )
        first[column] = _heading(raw)
    parts = [first[c] for c in NAME_PARTS if c in first]
    if "name" in first and parts:
        raise UserError(
            "roster_columns",
            gettext(
                "The columns “%(name)s” and “%(part)s” both hold the player's name: keep "
                "either one name column or the first and last name columns. "
                "Nothing was imported."
            )
            % {"name": first["name"], "part": parts[0]},
        )
    if "name" not in first and not parts:
        raise UserError(
            "roster_columns",
            gettext(
                "The first line must name the columns, with at least a name column: "
                "%(expected)s. Nothing was imported."
            )
            % {"expected": EXPECTED},
        )
    return tuple(fields)


def _ignored(header: list[str], fields: tuple[str | None, ...], body: list[list[str]]) -> list[str]:
    """The headings of the columns not read; a column with no heading is named only when
    some row has something in it (a spreadsheet often saves empty ones)."""
    ignored = []
    for i, (raw, column) in enumerate(zip(header, fields, strict=True)):
        if column is not None:
            continue
        if raw.strip():
            ignored.append(_heading(raw))
        elif any(i < len(cells) and cells[i].strip() for cells in body):
            ignored.append(gettext("column %(number)s (no heading)") % {"number": i + 1})
    return ignored


def _row(line: int, cells: list[str], fields: tuple[str | None, ...]) -> RosterRow:
    raw = {c: v for c, v in zip(fields, cells, strict=False) if c is not None}
    if "name" not in fields:
        # First and last names, each as the file has it (the rule below reads them so).
        raw["name"] = " ".join(raw[c] for c in NAME_PARTS if raw.get(c, "").strip())
    if len(cells) > len(fields) and any(c.strip() for c in cells[len(fields) :]):
        return RosterRow(
            line=line,
            name=" ".join(raw.get("name", "").split()),
            error=gettext("%(cells)s cells where the first line names %(columns)s columns")
            % {"cells": len(cells), "columns": len(fields)},
        )
    values = {c: " ".join(v.split()) for c, v in raw.items()}
    name = values.get("name", "")
    email = values.get("email", "")
    external_id = values.get("external_id", "")
    rating_text = values.get("rating", "")

    def refused(reason: str) -> RosterRow:
        return RosterRow(line=line, name=name, error=reason)

    if (hidden := hidden_character(raw.get("name", ""))) is not None:
        # Read as it is in the file: folding its spaces could hide a line separator. The
        # preview shows the name with the character escaped, never obeying it.
        return RosterRow(
            line=line,
            name=shown(raw["name"].strip()),
            error=gettext("the name contains the invisible character %(character)s")
            % {"character": character_name(hidden)},
        )
    if not name:
        return refused(gettext("no name"))
    if len(name) > NAME_MAX:
        return refused(gettext("the name is longer than %(max)s characters") % {"max": NAME_MAX})
    if email:
        try:
            validate_email(email)
        except ValidationError:
            return refused(gettext("%(email)s is not an email address") % {"email": repr(email)})
        if len(email) > EMAIL_MAX:
            return refused(
                gettext("the email is longer than %(max)s characters") % {"max": EMAIL_MAX}
            )
    if len(external_id) > EXTERNAL_ID_MAX:
        return refused(
            gettext("the external id is longer than %(max)s characters") % {"max": EXTERNAL_ID_MAX}
        )
    rating: float | None = None
    if rating_text:
        try:
            # A spreadsheet in a comma-decimal locale writes 1234,5.
            rating = float(rating_text.replace(",", "."))
        except ValueError:
            return refused(_not_a_number(rating_text))
        if not math.isfinite(rating):
            return refused(_not_a_number(rating_text))
    return RosterRow(line=line, name=name, email=email, external_id=external_id, rating=rating)


def _not_a_number(text: str) -> str:
    return gettext("the rating %(rating)s is not a number") % {"rating": repr(text)}


def parse_roster(data: bytes) -> RosterFile:
    """Every row of a roster file, or a `UserError` for a file that cannot be read."""
    text = _text(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise UserError(
            "roster_columns",
            gettext(
                "The first line must name the columns (%(expected)s); this file's first "
                "line is empty. Nothing was imported."
            )
            % {"expected": EXPECTED},
        )
    delimiter = _delimiter(lines[0])
    # csv.reader counts physical lines (a quoted cell may span several): remember the
    # line each record starts on, for the messages.
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    records: list[tuple[int, list[str]]] = []
    try:
        start = 1
        for cells in reader:
            records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as e:
        raise UserError(
            "roster_unreadable",
            gettext("Line %(start)s cannot be read as CSV (%(e)s). Nothing was imported.")
            % {"start": start, "e": e},
        ) from None
    header = records[0][1]
    fields = _fields(header)
    # Spreadsheets often save blank rows (or rows of bare delimiters) after the last
    # player: those are dropped. A blank row between players is refused, as it usually
    # means a row was cleared by mistake.
    body = records[1:]
    while body and not any(cell.strip() for cell in body[-1][1]):
        body.pop()
    if not body:
        raise UserError(
            "roster_empty",
            gettext("The file names its columns but has no players. Nothing was imported."),
        )
    if len(body) > MAX_ROWS:
        raise UserError(
            "roster_too_large",
            gettext(
                "The file has %(n_body)s rows; a roster file may have at most "
                "%(MAX_ROWS)s. Nothing was imported."
            )
            % {"n_body": len(body), "MAX_ROWS": MAX_ROWS},
        )
    rows: list[RosterRow] = []
    seen_names: dict[str, int] = {}
    seen_ids: dict[str, int] = {}
    for line, cells in body:
        if not any(cell.strip() for cell in cells):
            empty = gettext("an empty line between players")
            rows.append(RosterRow(line=line, name="", error=empty))
            continue
        row = _row(line, cells, fields)
        if row.error is None:
            key = match_key(row.name)
            if key in seen_names:
                row = RosterRow(
                    line=line,
                    name=row.name,
                    error=gettext("the same name as line %(line)s") % {"line": seen_names[key]},
                )
            elif row.external_id and row.external_id in seen_ids:
                row = RosterRow(
                    line=line,
                    name=row.name,
                    error=gettext("the same external id as line %(line)s")
                    % {"line": seen_ids[row.external_id]},
                )
            else:
                seen_names[key] = line
                if row.external_id:
                    seen_ids[row.external_id] = line
        rows.append(row)
    return RosterFile(
        columns=tuple(c for c in fields if c is not None),
        delimiter=delimiter,
        rows=tuple(rows),
        ignored=tuple(_ignored(header, fields, [cells for _, cells in body])),
    )
