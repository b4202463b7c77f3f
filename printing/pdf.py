"""The sheets drawn as PDF with ReportLab, from the plain data of `printing.sheets`.

Nothing here reads the database. Each function takes the sheet's data and a paper
(`A4` or `LETTER`) and returns the PDF's bytes. Long lists flow onto as many pages as
they need, with their header row repeated; a score sheet keeps each table on a page of
its own, turned to landscape when the table has too many columns to write in.

Text is set in DejaVu Sans when the machine has it (every name in any Latin, Greek or
Cyrillic script prints), else in the PDF's built-in Helvetica (Western European letters).

Why one module of over 400 lines: it is one thing, the drawing of the sheets that share
their page frame, fonts and styles; each sheet is one function. The table cards, drawn
straight on a canvas with their QR codes, are `printing.cards_pdf`'s.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4 as A4_SIZE
from reportlab.lib.pagesizes import landscape
from reportlab.lib.pagesizes import letter as LETTER_SIZE
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from printing.sheets import Assignment, Heading, Ladder, ScoreSheet

Size = tuple[float, float]
#: One command of a ReportLab TableStyle, such as ("SPAN", (0, 0), (1, 0)).
TableStyleCommand = tuple[Any, ...]


@dataclass(frozen=True)
class Paper:
    name: str
    size: Size


A4 = Paper("A4", A4_SIZE)
LETTER = Paper("Letter", LETTER_SIZE)
PAPERS = {"a4": A4, "letter": LETTER}

MARGIN = 15 * mm
GREY = colors.Color(0.9, 0.9, 0.9)

# Debian's and most Linux distributions' paths; anything else falls back to Helvetica.
_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@cache
def fonts() -> tuple[str, str]:
    """The regular and bold font names, registered with ReportLab on first use."""
    regular, bold = _DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf"
    if regular.is_file() and bold.is_file():
        pdfmetrics.registerFont(TTFont("HuckleySans", str(regular)))
        pdfmetrics.registerFont(TTFont("HuckleySans-Bold", str(bold)))
        return "HuckleySans", "HuckleySans-Bold"
    return "Helvetica", "Helvetica-Bold"


@cache
def style(
    size: float, *, bold: bool = False, center: bool = False, split: bool = True
) -> ParagraphStyle:
    """A paragraph style; `split=False` never cuts a word across lines (the caller has
    made every word fit)."""
    regular, heavy = fonts()
    return ParagraphStyle(
        f"s{size}{bold}{center}{split}",
        splitLongWords=int(split),
        fontName=heavy if bold else regular,
        fontSize=size,
        leading=size * 1.2,
        alignment=TA_CENTER if center else 0,
    )


def escape(text: str) -> str:
    """Plain text for a Paragraph, which reads a little markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _footer(heading: Heading) -> Callable[[Canvas, Any], None]:
    def draw(canvas: Canvas, doc: Any) -> None:
        width, _height = canvas._pagesize
        canvas.saveState()
        canvas.setFont(fonts()[0], 8)
        canvas.setFillColor(colors.grey)
        canvas.drawString(MARGIN, MARGIN / 2, f"{heading.title} · {heading.subtitle}"[:110])
        canvas.drawRightString(
            width - MARGIN, MARGIN / 2, gettext("Page %(page)s") % {"page": doc.page}
        )
        canvas.restoreState()

    return draw


def _document(
    flowables: list[Flowable], heading: Heading, sizes: Sequence[Size], *, first: int = 0
) -> bytes:
    """A PDF of `flowables` with one page template per size (`NextPageTemplate(i)` switches)."""
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=sizes[first],
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=f"{heading.title}: {heading.subtitle}",
        author="Huckley",
        creator="Huckley",
    )
    templates = []
    for i, size in enumerate(sizes):
        frame = Frame(MARGIN, MARGIN, size[0] - 2 * MARGIN, size[1] - 2 * MARGIN, id=f"f{i}")
        templates.append(
            PageTemplate(id=str(i), frames=[frame], pagesize=size, onPage=_footer(heading))
        )
    # The first page uses the template `first`: put it first.
    templates.insert(0, templates.pop(first))
    doc.addPageTemplates(templates)
    doc.build(flowables)
    return buffer.getvalue()


def _title(heading: Heading, line: str) -> list[Flowable]:
    return [
        Paragraph(escape(line), style(20, bold=True)),
        Paragraph(escape(f"{heading.title} · {heading.subtitle}"), style(10)),
        Spacer(1, 4 * mm),
    ]


def _grid(
    header_rows: int, *, font_size: float, extra: Sequence[TableStyleCommand] = ()
) -> TableStyle:
    regular, bold = fonts()
    return TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), regular, font_size),
            ("FONT", (0, 0), (-1, header_rows - 1), bold, font_size),
            ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), GREY),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            *extra,
        ]
    )


def fit(text: str, font: str, size: float, width: float) -> float:
    """The largest size up to `size` at which `text` fits `width`."""
    natural = pdfmetrics.stringWidth(text, font, size)
    return size if natural <= width else max(5.0, size * width / natural)


# -- Score sheets ----------------------------------------------------------------------

ROW_HEIGHT = 15
#: The round number's column: "Round" in the header's type, whatever the other columns.
ROUND_WIDTH = 32
#: A table with more cells than this to a round is printed in landscape.
PORTRAIT_MAX_COLUMNS = 16
#: Lines per game: a game of most rules takes fewer rounds than MIN_ROWS; one that takes
#: more goes on the back.
MIN_ROWS, MAX_ROWS = 9, 20
#: The title and the players' line above the first game; a game's title and header rows.
TITLE_HEIGHT, GAME_OVERHEAD = 95, 62


def _columns_of(sheet: ScoreSheet) -> tuple[list[str], list[str]]:
    """The round-level and the per-player column headers."""
    per_round = [str(c.header) for c in sheet.columns if not c.per_player]
    per_player = [str(c.header) for c in sheet.columns if c.per_player]
    return per_round, per_player


def _is_wide(sheet: ScoreSheet) -> bool:
    per_round, per_player = _columns_of(sheet)
    return 1 + len(per_round) + len(per_player) * len(sheet.players) > PORTRAIT_MAX_COLUMNS


def _layout(sheet: ScoreSheet, size: Size) -> tuple[int, int]:
    """Lines per game and games per page: every game of the table on one page when each
    still gets MIN_ROWS lines, else as few pages as give each game that many."""
    usable = size[1] - 2 * MARGIN - TITLE_HEIGHT
    games = max(len(sheet.games), 1)
    for per_page in range(games, 0, -1):
        rows = int((usable - per_page * GAME_OVERHEAD) / (per_page * ROW_HEIGHT))
        if rows >= MIN_ROWS or per_page == 1:
            return max(MIN_ROWS, min(MAX_ROWS, rows)), per_page
    raise AssertionError("unreachable")


def _game_table(sheet: ScoreSheet, game_index: int, width: float, rows: int) -> Table:
    game = sheet.games[game_index]
    per_round = [c for c in sheet.columns if not c.per_player]
    per_player = [c for c in sheet.columns if c.per_player]
    head_style = style(7.5, bold=True, center=True)
    fixed = 1 + len(per_round)
    top: list[Any] = [gettext("Round"), *[str(c.header) for c in per_round]]
    sub: list[Any] = ["", *["" for _ in per_round]]
    spans: list[TableStyleCommand] = [("SPAN", (i, 0), (i, 1)) for i in range(fixed)]
    for seat, name in enumerate(sheet.players, start=1):
        deals = gettext(" (deals first)") if seat == game.first_dealer_seat else ""
        start = len(top)
        top.append(Paragraph(f"{seat}. {escape(name)}{deals}", head_style))
        top += [""] * (len(per_player) - 1)
        sub += [str(c.header) for c in per_player]
        if len(per_player) > 1:
            spans.append(("SPAN", (start, 0), (start + len(per_player) - 1, 0)))
    # An empty list is an empty cell that ReportLab skips; "" would be drawn as text, and
    # 250 tables have 50,000 such cells.
    body: list[list[Any]] = [[str(n), *[[] for _ in top[1:]]] for n in range(1, rows + 1)]
    # Widths: the round number fixed, a text column (a card, a name) wider, the players
    # sharing the rest, a tick column narrower than a number.
    weights = [1.6 if c.kind == "text" else 1.0 for c in per_round]
    for _ in sheet.players:
        weights += [0.9 if c.kind == "mark" else 1.0 for c in per_player]
    unit = (width - ROUND_WIDTH) / sum(weights)
    table = Table(
        [top, sub, *body],
        colWidths=[ROUND_WIDTH, *[w * unit for w in weights]],
        rowHeights=[None, 11] + [ROW_HEIGHT] * rows,
        repeatRows=2,
    )
    table.setStyle(
        _grid(
            2,
            font_size=7.5,
            extra=[
                *spans,
                ("FONT", (0, 1), (-1, 1), fonts()[1], 6.5),
                # Headers as wide as the narrow columns allow ("Dropped" over a tick box).
                ("LEFTPADDING", (0, 0), (-1, 1), 1),
                ("RIGHTPADDING", (0, 0), (-1, 1), 1),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("LINEAFTER", (fixed - 1, 0), (fixed - 1, -1), 1.5, colors.black),
                *[
                    ("LINEAFTER", (fixed + k * len(per_player) - 1, 0),
                     (fixed + k * len(per_player) - 1, -1), 1.5, colors.black)
                    for k in range(1, len(sheet.players) + 1)
                ],
            ],
        )
    )  # fmt: skip
    return table


def score_sheets_pdf(sheets: Sequence[ScoreSheet], paper: Paper, heading: Heading) -> bytes:
    sizes = [paper.size, landscape(paper.size)]
    flowables: list[Flowable] = []
    for i, sheet in enumerate(sheets):
        wide = _is_wide(sheet)
        size = sizes[int(wide)]
        if i == 0:
            first = int(wide)
        else:
            flowables += [NextPageTemplate(str(int(wide))), PageBreak()]
        width = size[0] - 2 * MARGIN
        rows, per_page = _layout(sheet, size)
        flowables += _title(
            sheet.heading, gettext("Score sheet · table %(table)s") % {"table": sheet.table}
        )
        seats = ", ".join(f"{n}. {name}" for n, name in enumerate(sheet.players, start=1))
        flowables.append(
            Paragraph(
                gettext(
                    "Players in seat order (clockwise): %(seats)s. Write each round on "
                    "one line and type it in later; a game that needs more lines goes on "
                    "the back."
                )
                % {"seats": escape(seats)},
                style(9),
            )
        )
        for g, game in enumerate(sheet.games):
            if g and g % per_page == 0:
                flowables.append(PageBreak())
            flowables.append(
                KeepTogether(
                    [
                        Spacer(1, 3 * mm),
                        Paragraph(
                            gettext("Game %(number)s · first dealer: %(dealer)s")
                            % {"number": game.number, "dealer": escape(game.first_dealer)},
                            style(11, bold=True),
                        ),
                        Spacer(1, 1.5 * mm),
                        _game_table(sheet, g, width, rows),
                    ]
                )
            )
    if not sheets:
        first = 0
        flowables = [
            *_title(heading, gettext("Score sheets")),
            Paragraph(gettext("No table."), style(12)),
        ]
    # Every page template's id is its index in `sizes`: the first page uses `first`.
    return _document(flowables, heading, sizes, first=first)


# -- The wall list ---------------------------------------------------------------------

WALL_FONT = 24


def _table_cell(row: Assignment) -> Any:
    """The wall list's table: its number, "online" under it when it plays online."""
    if row.table is None:
        return gettext("sits out")
    if not row.online:
        return str(row.table)
    return Paragraph(
        f"{row.table}<br/><font size=12>{escape(gettext('online'))}</font>",
        style(28, bold=True, center=True),
    )


def assignments_pdf(rows: Sequence[Assignment], paper: Paper, heading: Heading, line: str) -> bytes:
    """The sitting's players alphabetically with table and seat, in letters a player reads
    from two metres away; a table that plays online is marked so, and named above."""
    width = paper.size[0] - 2 * MARGIN
    data: list[list[Any]] = [[gettext("Player"), gettext("Table"), gettext("Seat")]]
    data += [[r.name, _table_cell(r), str(r.seat or "")] for r in rows]
    room = width * 0.6 - 12

    def name_cell(name: str) -> Paragraph:
        # A name wraps between its words; a single word too long for the column is set
        # smaller rather than broken in two.
        longest = max(name.split() or [name], key=len)
        return Paragraph(
            escape(name), style(fit(longest, fonts()[0], WALL_FONT, room), split=False)
        )

    cells: list[list[Any]] = [data[0]] + [
        [name_cell(name), table, seat] for name, table, seat in data[1:]
    ]
    table = Table(
        cells,
        colWidths=[width * 0.6, width * 0.22, width * 0.18],
        repeatRows=1,
    )
    table.setStyle(
        _grid(
            1,
            font_size=WALL_FONT,
            extra=[
                ("FONT", (1, 1), (-1, -1), fonts()[1], WALL_FONT + 4),
                ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
                (
                    "ROWBACKGROUNDS",
                    (0, 1),
                    (-1, -1),
                    [colors.white, colors.Color(0.95, 0.95, 0.95)],
                ),
            ],
        )
    )
    flowables: list[Flowable] = [*_title(heading, line)]
    if online := sorted({r.table for r in rows if r.online and r.table is not None}):
        note = gettext("Online tables: %(tables)s. Play there on your phone.") % {
            "tables": ", ".join(map(str, online))
        }
        flowables += [Paragraph(note, style(16, bold=True)), Spacer(1, 3 * mm)]
    flowables.append(table if rows else Paragraph(gettext("Nobody is seated yet."), style(14)))
    return _document(flowables, heading, [paper.size])


# -- Standings -------------------------------------------------------------------------


def ladder_pdf(ladder: Ladder, paper: Paper, line: str) -> bytes:
    width = paper.size[0] - 2 * MARGIN
    name_style = style(10)
    name_col = ladder.headers.index(gettext("Player"))
    cells: list[list[Any]] = [ladder.headers]
    for row in ladder.rows:
        cells.append(
            [Paragraph(escape(c), name_style) if i == name_col else c for i, c in enumerate(row)]
        )
    others = len(ladder.headers) - 1
    name_width = max(width * 0.34, width - others * 62)
    widths = [(width - name_width) / others] * len(ladder.headers)
    widths[name_col] = name_width
    widths[0] = min(widths[0], 32)
    widths[name_col] += (width - name_width) / others - widths[0]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(
        _grid(
            1,
            font_size=10,
            extra=[
                *[("ALIGN", (i, 0), (i, -1), "RIGHT") for i, n in enumerate(ladder.numeric) if n],
                (
                    "ROWBACKGROUNDS",
                    (0, 1),
                    (-1, -1),
                    [colors.white, colors.Color(0.95, 0.95, 0.95)],
                ),
            ],
        )
    )
    flowables: list[Flowable] = [*_title(ladder.heading, line)]
    if ladder.note:
        flowables += [Paragraph(escape(ladder.note), style(10)), Spacer(1, 3 * mm)]
    if ladder.rows:
        flowables.append(table)
    return _document(flowables, ladder.heading, [paper.size])
