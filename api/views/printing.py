"""The printed sheets under /api/ (docs/api.md, Printing): thin views over
`printing.sheets` (what a sheet shows) and `printing.pdf` (how it is drawn).

Who may print what follows what the sheet carries: a table card holds a link that scores
the table, so only a director prints them; the score sheets, the wall list and the
standings show what the session's public page shows, so they follow its visibility.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions
from rest_framework.request import Request

from api import selectors as api_selectors
from api.permissions import Need, Target
from api.schema import F, doc
from api.throttles import AnonymousSheetThrottle
from api.views.base import ApiView
from common import languages
from common.errors import UserError
from printing import cards_pdf, pdf, services, sheets
from tournaments import pagecache
from tournaments.models import Club, Season, Session

TAGS = ["printing"]
SHEETS = ("table-cards", "score-sheets", "assignments", "standings")

PDF_200: dict[Any, Any] = {(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, "PDF.")}
PAPER = OpenApiParameter(
    "paper",
    str,
    enum=sorted(pdf.PAPERS),
    description="`a4` or `letter`; by default the club's paper (A4 unless the club chose "
    "Letter). Anything else is a 400 `paper_unknown`.",
)
MAX_SITTING = 32767  # Sitting.number's column
SITTING = OpenApiParameter(
    "sitting",
    {"type": "integer", "minimum": 1, "maximum": MAX_SITTING},
    description="The sitting's number; by default the current one. One that does not "
    "exist is a 404 `sitting_not_found`.",
)


def sheet_doc(
    need: Need,
    summary: str,
    description: str,
    *,
    sitting: bool = False,
    errors: list[int] | None = None,
) -> Callable[[F], F]:
    """The schema of a PDF sheet: the paper (and the sitting) it takes, a PDF back."""
    return doc(
        need=need,
        summary=summary,
        description=description,
        parameters=[PAPER, SITTING] if sitting else [PAPER],
        responses=PDF_200,
        # 429: an anonymous caller's sheets are counted (api/throttles.py).
        errors=[*(errors or [400]), 429],
        tags=TAGS,
    )


def paper_of(request: Request, club: Club) -> pdf.Paper:
    """The paper asked for, else the club's own (`Club.paper`, A4 unless set); and the
    document in the club's language, unless the person chose their own."""
    languages.use_document_language(request, club.language)
    # Left out: the club's paper; given, it must name one (`?paper=` too is refused).
    given = request.query_params.get("paper")
    name = club.paper if given is None else given.strip().lower()
    paper = pdf.PAPERS.get(name)
    if paper is None:
        raise services.paper_refusal()
    return paper


def sitting_number(request: Request) -> int | None:
    given = request.query_params.get("sitting")
    if given is None:
        return None
    text = given.strip()
    # ASCII digits only: str.isdigit() also accepts "¹", which int() refuses. A number
    # beyond the schema's maximum names no sitting: a 404, further on.
    # Python reads at most 4,300 digits; a number that long is no sitting number at all.
    if not text.isascii() or not text.isdigit() or len(text) > 100 or int(text) < 1:
        raise UserError(
            "sitting_invalid",
            gettext("The sitting is a whole number from 1 (for example ?sitting=2)."),
            field="sitting",
        )
    return int(text)


def pdf_response(content: bytes, *parts: object) -> HttpResponse:
    safe = "-".join(str(p) for p in parts)
    name = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in safe)
    response = HttpResponse(content, content_type="application/pdf")
    # Inline: the browser opens it, ready to print; saving keeps this name.
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


class SessionSheet(ApiView):
    #: The sheet's name in the URL and the downloaded file.
    sheet: ClassVar[str] = ""
    throttle_classes = [AnonymousSheetThrottle]

    def drawn(self, draw: Callable[[], bytes], paper: pdf.Paper, *parts: object) -> bytes:
        """The sheet as drawn for the session's current generation: drawn once, then kept
        as the public pages are (tournaments/pagecache.py), until a change moves it."""
        name = ":".join(str(p) for p in ("pdf", self.sheet, paper.name, *parts))
        return pagecache.kept(self.session.pk, name, draw)

    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @property
    def session(self) -> Session:
        return self.target.obj_as(Session)

    def respond(self, content: bytes, *parts: object) -> HttpResponse:
        session = self.session
        return pdf_response(content, session.club.slug, session.date, *parts, self.sheet)


class ScoreSheets(SessionSheet):
    sheet = "score-sheets"

    @sheet_doc(
        Need.VIEW,
        "Score sheets (PDF)",
        "One page per table of the sitting: the players in seat order, one "
        "block per game with its first dealer, one line per round and the columns the "
        "game needs (tricks, drops and hooks; bids; card points). The paper fallback, "
        "typed in later. A table too wide for the page is printed in landscape.",
        sitting=True,
    )
    def get(self, request: Request, session_id: int) -> HttpResponse:
        paper, number = paper_of(request, self.session.club), sitting_number(request)
        sitting = sheets.pick_sitting(self.session, number)

        def draw() -> bytes:
            data = sheets.score_sheets(self.session, sitting)
            heading = sheets.session_heading(self.session, sitting)
            return pdf.score_sheets_pdf(data, paper, heading)

        content = self.drawn(draw, paper, sitting.number)
        return self.respond(content, f"sitting-{sitting.number}")


class Assignments(SessionSheet):
    sheet = "assignments"

    @sheet_doc(
        Need.VIEW,
        "Where everyone sits (PDF)",
        "The wall list for a sitting: every player alphabetically with their "
        "table and seat (or that they sit out), in letters read from two metres.",
        sitting=True,
    )
    def get(self, request: Request, session_id: int) -> HttpResponse:
        paper, number = paper_of(request, self.session.club), sitting_number(request)
        sitting = sheets.pick_sitting(self.session, number)

        def draw() -> bytes:
            heading = sheets.session_heading(self.session, sitting)
            rows = sheets.assignments(sitting)
            line = gettext("Where to sit · sitting %(number)s") % {"number": sitting.number}
            return pdf.assignments_pdf(rows, paper, heading, line)

        content = self.drawn(draw, paper, sitting.number)
        return self.respond(content, f"sitting-{sitting.number}")


class Standings(SessionSheet):
    sheet = "standings"

    @sheet_doc(
        Need.VIEW,
        "The session's standings (PDF)",
        "The session ladder: final once the session is finished, marked as "
        "standings so far before.",
    )
    def get(self, request: Request, session_id: int) -> HttpResponse:
        paper = paper_of(request, self.session.club)

        def draw() -> bytes:
            return pdf.ladder_pdf(sheets.session_ladder(self.session), paper, gettext("Standings"))

        return self.respond(self.drawn(draw, paper))


class TableCards(SessionSheet):
    sheet = "table-cards"

    @sheet_doc(
        Need.DIRECT,
        "Table cards (PDF)",
        "One card per table number: the number as large as the page allows, "
        "the QR code of the table's permanent link (it opens the game now played at that "
        "table, whatever the movement did, until the director replaces the card), the "
        "link written out, and the rules. Only a director prints them: the link scores "
        "the table.",
    )
    def get(self, request: Request, session_id: int) -> HttpResponse:
        paper = paper_of(request, self.session.club)
        cards = sheets.table_cards(self.session, request.build_absolute_uri)
        heading = sheets.session_heading(self.session)
        empty = gettext("This session has no table yet: its cards print once it has started.")
        return self.respond(cards_pdf.table_cards_pdf(cards, paper, heading, empty=empty))


class UnknownSheet(SessionSheet):
    @doc(
        need=Need.VIEW,
        summary="Any other sheet: 404",
        description="A sheet name that is not one of "
        + ", ".join(f"`{s}`" for s in SHEETS)
        + " is a 404 `sheet_unknown` that lists them.",
        responses={},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int, sheet: str) -> HttpResponse:
        raise exceptions.NotFound(
            gettext("There is no sheet “%(sheet)s”: print one of %(sheets)s or %(last)s.")
            % {"sheet": sheet[:40], "sheets": ", ".join(SHEETS[:-1]), "last": SHEETS[-1]},
            code="sheet_unknown",
        )


class SeasonStandings(ApiView):
    throttle_classes = [AnonymousSheetThrottle]

    def load_target(self, **kwargs: Any) -> Target:
        season = get_object_or_404(Season.objects.select_related("club"), pk=kwargs["season_id"])
        return Target(club=season.club, obj=season)

    @sheet_doc(
        Need.PUBLIC,
        "A season's ladder (PDF)",
        "The season ladder as the club page shows it, by the club's ladder scoring.",
        errors=[400, 404],
    )
    def get(self, request: Request, season_id: int) -> HttpResponse:
        season = self.target.obj_as(Season)
        paper = paper_of(request, season.club)
        content = pdf.ladder_pdf(sheets.season_ladder(season), paper, gettext("Season standings"))
        return pdf_response(content, season.club.slug, "season", season.name, "standings")


class ClubTableCards(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        club = get_object_or_404(Club, slug=kwargs["slug"])
        return Target(club=club, obj=club)

    @sheet_doc(
        Need.DIRECT,
        "The club's laminated table cards (PDF)",
        "One card per table number of the club's cards: each opens that "
        "table in the club's running session (the page asks which when two run at "
        "once). Issue or rotate them on the club's page first.",
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        club = self.target.obj_as(Club)
        paper = paper_of(request, club)
        cards = sheets.club_cards(club, request.build_absolute_uri)
        heading = sheets.Heading(title=club.name, subtitle="the club's table cards")
        empty = gettext("The club has no table cards yet: issue them on the club's page first.")
        content = cards_pdf.table_cards_pdf(cards, paper, heading, empty=empty)
        return pdf_response(content, club.slug, "table-cards")
