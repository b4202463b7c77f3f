"""What each printed sheet shows, read into plain data: no model object reaches the PDF.

Each function reads one sheet in a fixed number of queries whatever the number of tables
(a night of 1,000 players prints in the same few queries as one of eight), and refuses
with a `UserError` what a director can fix (a sitting that does not exist, a session not
started yet).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext, ngettext

import engine
from common.errors import UserError
from common.languages import money_marks
from scoring.games import PrintColumn, family_for
from scoring.models import Game
from tournaments import format as fmt
from tournaments.models import Club, Season, Seating, Session, Sitting, Table
from workflow.club import prize_selectors
from workflow.club import selectors as club_selectors
from workflow.session import selectors
from workflow.sittings import current_sittings
from workflow.tables import card_selectors


class SittingNotFound(UserError):
    status = 404


@dataclass(frozen=True)
class Heading:
    """The line at the top of every page: whose night, which rules, which sitting."""

    title: str
    subtitle: str


def rules_name(rules_id: str) -> str:
    info = engine.RULES.get(rules_id)
    return info.name if info is not None else rules_id


def session_heading(session: Session, sitting: Sitting | None = None) -> Heading:
    parts = [session.club.name, session.date.isoformat(), rules_name(session.rules_id)]
    if sitting is not None:
        parts.append(gettext("sitting %(number)s") % {"number": sitting.number})
    return Heading(title=session.name, subtitle=" · ".join(parts))


def pick_sitting(session: Session, number: int | None) -> Sitting:
    """Sitting `number` of the session, or its current one when `number` is None."""
    if number is None:
        return selectors.require_current_sitting(session)
    sitting = session.sittings.filter(number=number).first()
    if sitting is None:
        count = session.sittings.count()
        has = (
            gettext("There is no sitting %(number)s: this session has not started yet.")
            if count == 0
            else ngettext(
                "There is no sitting %(number)s: this session has %(count)s sitting so far.",
                "There is no sitting %(number)s: this session has %(count)s sittings so far.",
                count,
            )
        )
        raise SittingNotFound(
            "sitting_not_found",
            has % {"number": number, "count": count},
            field="sitting",
        )
    return sitting


# -- Score sheets ----------------------------------------------------------------------


@dataclass(frozen=True)
class SheetGame:
    number: int
    #: Who deals the first round, in words: a name once the game is set up, else how the
    #: dealer will be chosen ("the winner of game 1").
    first_dealer: str
    #: The seat (1-based) of the first dealer, when known: marked in the players' header.
    first_dealer_seat: int | None


@dataclass(frozen=True)
class ScoreSheet:
    """The paper fallback for one table of one sitting: one block per game."""

    heading: Heading
    table: int
    players: list[str]
    columns: tuple[PrintColumn, ...]
    games: list[SheetGame]


def score_sheets(session: Session, sitting: Sitting) -> list[ScoreSheet]:
    """One sheet per table of the sitting, tables in rank order, players in seat order;
    the columns are the game family's print columns for that table size. Three queries."""
    family = family_for(session.rules_id)
    heading = session_heading(session, sitting)
    # The physical table's number on each sheet (docs/format.md, "Tables that do not move").
    tables = list(sitting.tables.order_by("rank").values_list("pk", "number"))
    seats: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for table_id, seat, name, player_id in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player__name", "player_id")
    ):
        seats[table_id].append((seat, name, player_id))
    first_dealers: dict[tuple[int, int], int] = {
        (table_id, number): dealer
        for table_id, number, dealer in Game.objects.filter(table__sitting=sitting).values_list(
            "table_id", "number", "first_dealer_id"
        )
    }
    sheets = []
    for table_id, table_number in tables:
        seated = seats[table_id]
        names = [name for _, name, _ in seated]
        seat_of = {player_id: i for i, (_, _, player_id) in enumerate(seated, start=1)}
        games = []
        for number in range(1, sitting.games_per_sitting + 1):
            dealer = first_dealers.get((table_id, number))
            dealer_seat = seat_of.get(dealer) if dealer is not None else None
            if dealer_seat is not None:
                words = names[dealer_seat - 1]
            elif number == 1:
                words = gettext("drawn when the game starts")
            else:
                words = gettext("the winner of game %(number)s") % {"number": number - 1}
            games.append(
                SheetGame(number=number, first_dealer=words, first_dealer_seat=dealer_seat)
            )
        sheets.append(
            ScoreSheet(
                heading=heading,
                table=table_number,
                players=names,
                columns=family.print_columns_for(len(names)),
                games=games,
            )
        )
    return sheets


# -- The wall list ---------------------------------------------------------------------


@dataclass(frozen=True)
class Assignment:
    name: str
    #: The table's number, or None for a player who sits out this sitting.
    table: int | None
    seat: int | None
    #: The table plays online (`Table.online`): its players play on their phones.
    online: bool = False


def assignments(sitting: Sitting) -> list[Assignment]:
    """Every player of the sitting alphabetically (ignoring case), with table and seat
    and whether the table plays online; the players who sit this sitting out are listed
    among them. Two queries."""
    rows = [
        Assignment(name=name, table=number, seat=seat, online=online)
        for name, number, seat, online in Seating.objects.filter(
            sitting=sitting, left_at__isnull=True
        ).values_list("player__name", "table__number", "seat", "table__online")
    ]
    rows += [
        Assignment(name=name, table=None, seat=None)
        for name in sitting.sit_outs.values_list("player__name", flat=True)
    ]
    return sorted(rows, key=lambda a: (a.name.casefold(), a.name))


# -- Standings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Ladder:
    """A ranked list to print: the headers and one row of cells per player."""

    heading: Heading
    note: str
    headers: list[str]
    rows: list[list[str]]
    #: Which columns are numbers (right-aligned).
    numeric: list[bool]


def session_ladder(session: Session) -> Ladder:
    rows = selectors.session_standings(session)
    finished = session.status == Session.Status.FINISHED
    note = (
        gettext("Final standings.")
        if finished
        else gettext("Standings so far: the session is not finished, so they may still change.")
    )
    # Each player's payout and the pool (docs/tournament.md, Entry fees and prizes).
    prizes = prize_selectors.session_prizes(session, rows)
    pays = prizes.payouts is not None
    if pays and prizes.table is not None:
        note += (
            gettext(" Prize pool %(pool)s, split by %(table)s.")
            if finished
            else gettext(
                " Prize pool %(pool)s, split by %(table)s (what each would win if the "
                "session ended now)."
            )
        ) % {"pool": prizes.money(prizes.pool), "table": prizes.table.name}
    return Ladder(
        heading=session_heading(session),
        note=note,
        headers=[
            "#",
            gettext("Player"),
            gettext("Table"),
            gettext("Points"),
            gettext("Games won"),
            gettext("Hooks"),
        ]
        + ([gettext("Prize")] * pays),
        numeric=[True, False, True, True, True, True] + [True] * pays,
        rows=[
            [
                str(r.position),
                r.name + (gettext(" (withdrew)") if r.withdrawn else ""),
                str(r.table_rank) if r.table_rank is not None else "-",
                str(r.points),
                str(r.games_won),
                str(r.hooks),
            ]
            + ([prizes.money(prizes.payout(r.player_id) or Decimal(0))] if pays else [])
            for r in rows
        ],
    )


def season_ladder(season: Season) -> Ladder:
    club = season.club
    rows = club_selectors.season_standings(season.pk)
    headers = ["#", gettext("Player"), gettext("Sessions")]
    numeric = [True, False, True]
    if club.ladder_best_nights:
        headers.append(gettext("Counted"))
        numeric.append(True)
    if club.ladder_scoring != "average":
        headers.append(
            gettext("Placing points")
            if club.ladder_scoring == "placings"
            else gettext("Ladder points")
        )
        numeric.append(True)
    headers += [
        gettext("Games won"),
        gettext("Points"),
        gettext("Hooks"),
        gettext("Average finish"),
    ]
    numeric += [True] * 4
    won = prize_selectors.season_prizes(season.pk)
    unit = prize_selectors.money_unit(club)
    if any(won.values()):
        headers.append(gettext("Prizes"))
        numeric.append(True)
    table = []
    for position, r in enumerate(rows, start=1):
        cells = [str(position), r.player.name, str(r.sessions)]
        if club.ladder_best_nights:
            cells.append(str(r.counted))
        if club.ladder_scoring != "average":
            cells.append(f"{r.score:.0f}")
        average = r.score if club.ladder_scoring == "average" and club.ladder_best_nights else None
        cells += [
            str(r.games_won),
            str(r.points),
            str(r.hooks),
            f"{average if average is not None else r.average_finish:.1f}",
        ]
        if any(won.values()):
            amount = won.get(r.player.pk, Decimal(0))
            cells.append(fmt.format_money(amount, club.currency, unit, **money_marks()))
        table.append(cells)
    return Ladder(
        heading=Heading(
            title=gettext("%(club)s: season %(season)s")
            % {"club": club.name, "season": season.name},
            subtitle=gettext("%(starts_on)s to %(ends_on)s · ladder scoring: %(scoring)s")
            % {
                "starts_on": season.starts_on.isoformat(),
                "ends_on": season.ends_on.isoformat(),
                "scoring": club.get_ladder_scoring_display().lower(),
            },
        ),
        note="" if rows else gettext("No finished session in this season yet."),
        headers=headers,
        rows=table,
        numeric=numeric,
    )


# -- Table cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableCard:
    """One card to stand on a table: its number, the link its QR code holds (absolute),
    the rules played, a line saying whose card it is, and whether the table plays online
    in the current sitting."""

    number: int
    url: str
    rules_name: str
    caption: str
    online: bool = False


def table_cards(session: Session, absolute: Callable[[str], str]) -> list[TableCard]:
    """The session's live cards (`workflow.tables.card_selectors`), one per table number,
    each marked online when that table plays online in the current sitting; `absolute`
    turns a card's path into the full URL its QR code holds. Two queries."""
    caption = f"{session.name} · {session.club.name} · {session.date.isoformat()}"
    online = set(
        Table.objects.filter(sitting__in=current_sittings(session), online=True).values_list(
            "number", flat=True
        )
    )
    return [
        TableCard(
            number=c.number,
            url=absolute(c.url),
            rules_name=c.rules_name,
            caption=caption,
            online=c.number in online,
        )
        for c in card_selectors.table_cards(session)
    ]


def club_cards(club: Club, absolute: Callable[[str], str]) -> list[TableCard]:
    """The club's live laminated cards: each opens its table in whichever session of the
    club is running."""
    return [
        TableCard(
            number=c.number,
            url=absolute(c.url),
            rules_name=gettext("Every session of %(club)s") % {"club": club.name},
            caption=gettext(
                "Keep this card: it works at every club night until the club's cards are replaced."
            ),
        )
        for c in card_selectors.club_table_cards(club)
    ]
