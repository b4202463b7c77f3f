"""Reading a roster file: the bytes a director uploads, turned into rows or refused.

Plain Python (no database): `parse_roster` refuses a file that cannot be read at all
(too large, binary, not UTF-8, wrong columns, no players) with a `UserError`, and
otherwise returns every row with its line number, each row either clean or carrying the
reason it is refused. Matching the rows to the club's players is the service's job
(`exchange.services`).

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
from django.utils.translation import gettext

from common.errors import UserError
from common.matching import match_key
from common.text import character_name, hidden_character, shown

MAX_BYTES = 1024 * 1024
MAX_ROWS = 5000
NAME_MAX = 60
EMAIL_MAX = 254
EXTERNAL_ID_MAX = 64
DELIMITERS = (",", ";", "\t")

# The columns a roster file may have, and the spellings a spreadsheet header may use.
COLUMNS = ("name", "email", "external_id", "rating")
ALIASES = {
    "name": "name",
    "player": "name",
    "email": "email",
    "e-mail": "email",
    "external_id": "external_id",
    "external id": "external_id",
    "external-id": "external_id",
    "rating": "rating",
}


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
    columns: tuple[str, ...]
    delimiter: str
    rows: tuple[RosterRow, ...]


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


def _columns(header: list[str]) -> tuple[str, ...]:
    columns: list[str] = []
    expected = ", ".join(COLUMNS)
    for raw in header:
        label = " ".join(raw.strip().lower().split())
        column = ALIASES.get(label)
        if column is None:
            shown = raw.strip() or "(an empty heading)"
            raise UserError(
                "roster_columns",
                gettext(
                    "Unknown column %(shown)r. The first line must name the columns: "
                    "%(expected)s (only name is required). Nothing was imported."
                )
                % {"shown": shown, "expected": expected},
            )
        if column in columns:
            raise UserError(
                "roster_columns",
                gettext(
                    "The column %(column)r appears twice in the first line. Nothing was imported."
                )
                % {"column": column},
            )
        columns.append(column)
    if "name" not in columns:
        raise UserError(
            "roster_columns",
            gettext(
                "The first line must name the columns, with at least a name column: "
                "%(expected)s. Nothing was imported."
            )
            % {"expected": expected},
        )
    return tuple(columns)


def _row(line: int, cells: list[str], columns: tuple[str, ...]) -> RosterRow:
    if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :]):
        return RosterRow(
            line=line,
            name=cells[0].strip() if cells else "",
            error=f"{len(cells)} cells where the first line names {len(columns)} columns",
        )
    raw = dict(zip(columns, cells, strict=False))
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
            error=f"the name contains the invisible character {character_name(hidden)}",
        )
    if not name:
        return refused("no name")
    if len(name) > NAME_MAX:
        return refused(f"the name is longer than {NAME_MAX} characters")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            return refused(f"{email!r} is not an email address")
        if len(email) > EMAIL_MAX:
            return refused(f"the email is longer than {EMAIL_MAX} characters")
    if len(external_id) > EXTERNAL_ID_MAX:
        return refused(f"the external id is longer than {EXTERNAL_ID_MAX} characters")
    rating: float | None = None
    if rating_text:
        try:
            # A spreadsheet in a comma-decimal locale writes 1234,5.
            rating = float(rating_text.replace(",", "."))
        except ValueError:
            return refused(f"the rating {rating_text!r} is not a number")
        if not math.isfinite(rating):
            return refused(f"the rating {rating_text!r} is not a number")
    return RosterRow(line=line, name=name, email=email, external_id=external_id, rating=rating)


def parse_roster(data: bytes) -> RosterFile:
    """Every row of a roster file, or a `UserError` for a file that cannot be read."""
    text = _text(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise UserError(
            "roster_columns",
            gettext(
                "The first line must name the columns (name, email, external_id, "
                "rating); this file's first line is empty. Nothing was imported."
            ),
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
    columns = _columns(records[0][1])
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
            rows.append(RosterRow(line=line, name="", error="an empty line between players"))
            continue
        row = _row(line, cells, columns)
        if row.error is None:
            key = match_key(row.name)
            if key in seen_names:
                row = RosterRow(
                    line=line, name=row.name, error=f"the same name as line {seen_names[key]}"
                )
            elif row.external_id and row.external_id in seen_ids:
                row = RosterRow(
                    line=line,
                    name=row.name,
                    error=f"the same external id as line {seen_ids[row.external_id]}",
                )
            else:
                seen_names[key] = line
                if row.external_id:
                    seen_ids[row.external_id] = line
        rows.append(row)
    return RosterFile(columns=columns, delimiter=delimiter, rows=tuple(rows))
