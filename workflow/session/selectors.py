"""Reads for pages, the API and services: querysets with their joins in place, and the
derived views of a sitting (progress, results, standings) computed in a fixed number of
queries whatever the number of tables or rounds.

The rules of the tournament that are reads live here, each in one function that the
pages, the API and the services all ask: which sitting is the current one
(`current_sitting`, kept in `workflow.sittings` for the table cards too), the order of
each table after a sitting (`sitting_order`, over `format.order_table`), the order at
each table on the ladder (`ladder_order`: the sitting's order, or the session's totals
before the table's first result) and the session ladder (`session_standings`).

Why one module of over 400 lines: it is one thing, the reads of one running session
(the board, the progress, the orders and standings), and they share their prefetches.
The projector's read is `workflow.session.screen`; "find my table" is
`workflow.front.find`; the season's and the club's reads are `workflow.club.selectors`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext

import engine
from common.errors import ConflictError
from scoring.models import Game, GamePlayer, Round
from tournaments import format as fmt
from tournaments.models import (
    Seating,
    Session,
    Sitting,
    Table,
)
from workflow.session import ranking_words
from workflow.sittings import current_sitting as current_sitting  # handed on (module docstring)


def require_current_sitting(session: Session) -> Sitting:
    """`current_sitting`, refused with a plain message before the session starts."""
    sitting = current_sitting(session)
    if sitting is None:
        raise ConflictError("session_not_started", gettext("This session has not started yet."))
    return sitting


@dataclass(frozen=True)
class TableProgress:
    table: Table
    games_finished: int
    games_total: int
    current_game: Game | None
    seated: list[Seating]

    @property
    def finished(self) -> bool:
        return self.games_finished >= self.games_total


def sitting_tables(sitting: Sitting) -> QuerySet[Table]:
    return sitting.tables.order_by("rank").prefetch_related(
        Prefetch(
            "seatings",
            queryset=Seating.objects.filter(left_at__isnull=True)
            .select_related("player")
            .order_by("seat"),
            to_attr="active_seatings",
        ),
        Prefetch("games", queryset=Game.objects.order_by("number"), to_attr="game_list"),
    )


def sitting_progress(sitting: Sitting) -> list[TableProgress]:
    result = []
    for table in sitting_tables(sitting):
        # `game_list` and `active_seatings` are the `Prefetch(to_attr=...)` lists of
        # `sitting_tables`; django-stubs cannot see attributes a prefetch adds.
        games: list[Game] = table.game_list  # type: ignore[attr-defined]
        finished = sum(1 for g in games if g.status == Game.Status.FINISHED)
        current = games[-1] if games else None
        result.append(
            TableProgress(
                table=table,
                games_finished=finished,
                games_total=sitting.games_per_sitting,
                current_game=current,
                seated=table.active_seatings,  # type: ignore[attr-defined]
            )
        )
    return result


@dataclass(frozen=True)
class BoardTable:
    """One table on the public board: plain values, no model objects, so that a board of
    250 tables renders fast."""

    table_id: int
    rank: int
    seats: list[tuple[int, str]]
    games_finished: int
    #: The physical table players sit at (docs/format.md, "Tables that do not move").
    number: int = 0
    #: The seats of robots (`Player.is_robot`), which the board marks.
    robot_seats: frozenset[int] = frozenset()


def seats_by_table(sitting: Sitting) -> dict[int, list[tuple[int, str]]]:
    """Who sits where in a sitting now, in one query: each table's (seat, name), in seat
    order."""
    return {
        table_id: [(seat, name) for seat, name, _ in people]
        for table_id, people in players_by_table(sitting).items()
    }


def players_by_table(sitting: Sitting) -> dict[int, list[tuple[int, str, int]]]:
    """`seats_by_table` with each player's id: (seat, name, player id), in one query."""
    seats: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for table_id, seat, name, player_id in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player__name", "player_id")
    ):
        seats[table_id].append((seat, name, player_id))
    return seats


def sitting_board(sitting: Sitting) -> list[BoardTable]:
    """Every table of a sitting with who sits where (robots marked), in three queries."""
    tables = list(sitting.tables.order_by("rank").values_list("pk", "rank", "number"))
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    robots: dict[int, set[int]] = defaultdict(set)
    for table_id, seat, name, robot in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player__name", "player__is_robot")
    ):
        seats[table_id].append((seat, name))
        if robot:
            robots[table_id].add(seat)
    finished = dict(
        Game.objects.filter(table__sitting=sitting, status=Game.Status.FINISHED)
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    return [
        BoardTable(
            table_id=pk,
            rank=rank,
            seats=seats[pk],
            games_finished=finished.get(pk, 0),
            number=number,
            robot_seats=frozenset(robots[pk]),
        )
        for pk, rank, number in tables
    ]


def sitting_active_tables(sitting: Sitting) -> list[tuple[Table, list[int]]]:
    return [
        # `active_seatings`: the `Prefetch(to_attr=...)` list of `sitting_tables`.
        (t, [s.player_id for s in t.active_seatings])  # type: ignore[attr-defined]
        for t in sitting_tables(sitting)
    ]


@dataclass(frozen=True)
class ResultRow:
    table_id: int
    name: str
    result: fmt.SittingResult[int]


def sitting_results(sitting: Sitting) -> list[ResultRow]:
    """Each seated player's record over the sitting's finished games (format rule 4). A
    robot (`Player.is_robot`) is no player of the format: never ranked, it neither moves
    up nor down, and its seat is filled again at the next movement (docs/format.md)."""
    seatings = list(
        Seating.objects.filter(
            sitting=sitting, left_at__isnull=True, player__is_robot=False
        ).select_related("player")
    )
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    rows = (
        GamePlayer.objects.filter(game__table__sitting=sitting, game__status=Game.Status.FINISHED)
        .values_list("player_id", "score", "won", "hooks", "game__number")
        .order_by("game__number")
    )
    for player_id, score, won, hooks, number in rows:
        t = totals[player_id]
        t[0] += score
        t[1] += int(won)
        t[2] += hooks
        if number >= t[4]:
            t[3], t[4] = score, number
    return [
        ResultRow(
            table_id=s.table_id,
            name=s.player.name,
            result=fmt.SittingResult(
                player=s.player_id,
                score=totals[s.player_id][0],
                games_won=totals[s.player_id][1],
                hooks=totals[s.player_id][2],
                last_game_score=totals[s.player_id][3],
            ),
        )
        for s in seatings
    ]


@dataclass(frozen=True)
class TableOrder:
    """One table's order after a sitting (format rule 4): its placings, best first."""

    table_id: int
    rank: int
    placings: list[fmt.Placing[int]]


@dataclass(frozen=True)
class SittingOrder:
    tables: list[TableOrder]
    names: dict[int, str]


def sitting_order(
    sitting: Sitting, rules: fmt.FormatRules, tables: Sequence[Table] | None = None
) -> SittingOrder:
    """Every table of the sitting ordered by `format.order_table` over the finished games,
    with the coin flips drawn from the session's seed: the one ranking that the movement
    and the session standings both use. Tables in rank order; a table with no finished
    game has no placings. `tables` saves a query when the caller has read them already."""
    results = sitting_results(sitting)
    names = {r.result.player: r.name for r in results}
    by_table: dict[int, list[fmt.SittingResult[int]]] = defaultdict(list)
    for row in results:
        by_table[row.table_id].append(row.result)
    seed = sitting.session.seed
    return SittingOrder(
        tables=[
            TableOrder(
                table_id=table_id,
                rank=rank,
                placings=fmt.order_table(
                    by_table.get(table_id, []),
                    lower_is_better=rules.lower_is_better,
                    rng=fmt.make_rng(seed, "coin", sitting.number, rank),
                    name=lambda pid: names[pid],
                ),
            )
            for table_id, rank in (
                [(t.pk, t.rank) for t in sorted(tables, key=lambda t: t.rank)]
                if tables is not None
                else sitting.tables.order_by("rank").values_list("pk", "rank")
            )
        ],
        names=names,
    )


@dataclass(frozen=True)
class SessionTotal:
    """A player's totals over every finished game of the session so far."""

    points: int
    games_won: int
    hooks: int


def ladder_order(
    sitting: Sitting, rules: fmt.FormatRules, totals: dict[int, SessionTotal]
) -> list[TableOrder]:
    """The order at each table of the sitting on the session's ladder: the one rule that
    the standings, the projector, the API and the printed standings read (all through
    `session_standings`). A table with a finished game in this sitting is in the sitting's
    order (`sitting_order`, as the movement); a table with none yet, right after a
    movement, is in the order of the session's totals so far
    (`format.order_by_totals`): no coin flip decides a place before anything is played."""
    order = sitting_order(sitting, rules)
    with_result = set(
        Game.objects.filter(table__sitting=sitting, status=Game.Status.FINISHED).values_list(
            "table_id", flat=True
        )
    )
    none = SessionTotal(0, 0, 0)
    result = []
    for table in order.tables:
        if table.table_id in with_result:
            result.append(table)
            continue
        so_far = [
            fmt.SittingResult(
                player=p.player,
                score=totals.get(p.player, none).points,
                games_won=totals.get(p.player, none).games_won,
                hooks=totals.get(p.player, none).hooks,
                last_game_score=0,
            )
            for p in table.placings
        ]
        placings = fmt.order_by_totals(
            so_far, lower_is_better=rules.lower_is_better, name=lambda pid: order.names[pid]
        )
        result.append(TableOrder(table_id=table.table_id, rank=table.rank, placings=placings))
    return result


@dataclass(frozen=True)
class StandingRow:
    position: int
    player_id: int
    name: str
    table_rank: int | None
    place: int | None
    points: int
    games_played: int
    games_won: int
    hooks: int
    withdrawn: bool
    sitting_out: bool = False
    # Why this place: the table's order over the sitting with the tie-break that decided
    # it, or why the player is listed after the seated players.
    why: str = ""
    # What the player wins (docs/tournament.md, "Entry fees and prizes"): filled in by
    # `workflow.club.prize_selectors.with_payouts`; None when the session pays no prizes.
    payout: Decimal | None = None
    # The moves a robot made for this player in the session's online rounds (the
    # clock ran out, or they were away: the record's `play.robots`).
    robot_moves: int = 0


def robot_moves(session: Session) -> dict[int, int]:
    """Player id to the moves a robot made for them in the session's stored rounds (the
    record's `play.robots`, docs/game-record.md) of a session played online: one query,
    two when a robot played; none on a night on paper (nor, for now, on a hybrid night
    whose session is not online: its tables were switched one by one)."""
    if not session.online:
        return {}
    marks = list(
        Round.objects.filter(
            game__table__sitting__session=session, data__play__has_key="robots"
        ).values_list("game_id", "data__play__robots")
    )
    if not marks:
        return {}
    ids = {
        (game_id, name): pid
        for game_id, name, pid in GamePlayer.objects.filter(
            game_id__in={game_id for game_id, _ in marks}
        ).values_list("game_id", "name", "player_id")
    }
    moves: dict[int, int] = defaultdict(int)
    for game_id, robots in marks:
        for mark in robots or []:
            pid = ids.get((game_id, mark.get("player")))
            if pid is not None:
                moves[pid] += int(mark.get("moves") or 0)
    return dict(moves)


def _by_number(names: Iterable[str]) -> list[str]:
    return sorted(names, key=lambda name: (len(name), name))


def session_robots(session: Session) -> list[str]:
    """The names of the robots on the session's roster, which each took a seat in it
    (docs/tournament.md, "Robots fill seats"), by number: the standings name them apart,
    with no place."""
    return _by_number(
        session.entries.filter(player__is_robot=True).values_list("player__name", flat=True)
    )


def session_standings(session: Session, *, final: bool | None = None) -> list[StandingRow]:
    """The session ladder: the table a player sits at in the latest sitting (1 = best),
    then their place at that table (`ladder_order`: on that sitting's results, or on the
    session's totals so far while the table has none); players who withdrew follow.
    Totals count every finished game of the session. Robots are never in it: not ranked,
    kept, awarded or paid (`session_robots` names them).

    The final standings (`final`; by default those of a finished session) place only the
    players who finished a game (docs/tournament.md, Standings): whoever sat out every
    finished game, or sat at a table that finished none, has no place, and a session
    ended before any game finished has no standings at all."""
    return standings_and_robots(session, final=final)[0]


def standings_and_robots(
    session: Session, *, final: bool | None = None
) -> tuple[list[StandingRow], list[str]]:
    """`session_standings` and `session_robots` from one read of the roster: the
    standings page's."""
    totals = {
        row["player_id"]: row
        for row in GamePlayer.objects.filter(
            game__table__sitting__session=session, game__status=Game.Status.FINISHED
        )
        .values("player_id")
        .annotate(
            points=Sum("score"),
            played=Count("id"),
            won=Count("id", filter=Q(won=True)),
            hooks_total=Sum("hooks"),
        )
    }
    # A robot (`Player.is_robot`) has no place: `session_robots` lists the robots apart.
    names: dict[int, str] = {}
    robots: list[str] = []
    everyone: dict[int, str] = {}
    for pid, name, robot in session.entries.values_list(
        "player_id", "player__name", "player__is_robot"
    ):
        everyone[pid] = name
        if robot:
            robots.append(name)
        else:
            names[pid] = name
    helped = robot_moves(session)
    sitting = current_sitting(session)
    ordered: list[tuple[int, int | None, int | None]] = []
    why: dict[int, str] = {}
    if sitting is not None:
        so_far = {
            pid: SessionTotal(row["points"] or 0, row["won"] or 0, row["hooks_total"] or 0)
            for pid, row in totals.items()
        }
        for table in ladder_order(sitting, fmt.format_for(session.rules_id), so_far):
            ordered += [(p.player, table.rank, p.place) for p in table.placings]
            said = ranking_words.reasons(table.placings, lambda pid: everyone.get(pid, str(pid)))
            why.update(
                (pid, gettext("table %(rank)s, %(reason)s") % {"rank": table.rank, "reason": r})
                for pid, r in said.items()
            )
    seated = {pid for pid, _, _ in ordered}
    sitting_out = (
        set(sitting.sit_outs.values_list("player_id", flat=True)) if sitting is not None else set()
    )
    withdrawn = set(
        session.entries.filter(withdrawn_at__isnull=False).values_list("player_id", flat=True)
    )
    lower = fmt.format_for(session.rules_id).lower_is_better

    def by_points(pid: int) -> tuple[int, str]:
        points = totals[pid]["points"] or 0 if pid in totals else 0
        return (engine.score_key(points, lower_is_better=lower), names[pid])

    resting = sorted(
        (pid for pid in sitting_out if pid in names and pid not in seated), key=by_points
    )
    ordered += [(pid, None, None) for pid in resting]
    rest = sorted(
        (pid for pid in names if pid not in seated and pid not in sitting_out and pid in totals),
        key=by_points,
    )
    ordered += [(pid, None, None) for pid in rest]
    if final or (final is None and session.status == Session.Status.FINISHED):
        ordered = [entry for entry in ordered if entry[0] in totals]
    rows = []
    no_games: dict[str, int | None] = {}
    for position, (pid, table_rank, place) in enumerate(ordered, start=1):
        t = totals.get(pid, no_games)
        rows.append(
            StandingRow(
                position=position,
                player_id=pid,
                name=names.get(pid, "?"),
                table_rank=table_rank,
                place=place,
                points=t.get("points") or 0,
                games_played=t.get("played") or 0,
                games_won=t.get("won") or 0,
                hooks=t.get("hooks_total") or 0,
                withdrawn=pid in withdrawn,
                sitting_out=pid in sitting_out,
                robot_moves=helped.get(pid, 0),
                why=why.get(pid)
                or (
                    "sitting out this sitting: after the seated players, by points"
                    if pid in sitting_out
                    else "not seated now: after the seated players, by points"
                ),
            )
        )
    return rows, _by_number(robots)


def table_companions(tables: list[Table]) -> dict[int, list[Seating]]:
    seatings = Seating.objects.filter(table__in=tables, left_at__isnull=True).select_related(
        "player"
    )
    by_table: dict[int, list[Seating]] = defaultdict(list)
    for s in seatings.order_by("seat"):
        by_table[s.table_id].append(s)
    return by_table
