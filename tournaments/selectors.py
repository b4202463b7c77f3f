"""Reads for pages, the API and services: querysets with their joins in place, and the
derived views of a sitting (progress, results, standings) computed in a fixed number of
queries whatever the number of tables or rounds.

The rules of the tournament that are reads live here, each in one function that the
pages, the API and the services all ask: which sitting is the current one
(`current_sitting`), the order of each table after a sitting (`sitting_order`, over
`format.order_table`), the session ladder (`session_standings`), the season ladder
(`season_standings`) and the Big Loser suggestion (`big_loser_suggestion`)."""

from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum

from huckley.errors import UserError
from scoring.models import Game, GamePlayer
from tournaments import format as fmt
from tournaments.models import (
    Player,
    Seating,
    Session,
    SessionStanding,
    Sitting,
    Table,
)


def current_sitting(session: Session) -> Sitting | None:
    """The sitting being played (or, once the session is finished, its last one): the
    latest by number. None before the session starts."""
    return session.sittings.order_by("-number").first()


def require_current_sitting(session: Session) -> Sitting:
    """`current_sitting`, refused with a plain message before the session starts."""
    sitting = current_sitting(session)
    if sitting is None:
        raise UserError("session_not_started", "This session has not started yet.")
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


def sitting_board(sitting: Sitting) -> list[BoardTable]:
    """Every table of a sitting with who sits where, in three queries."""
    tables = list(sitting.tables.order_by("rank").values_list("pk", "rank"))
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for table_id, seat, name in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player__name")
    ):
        seats[table_id].append((seat, name))
    finished = dict(
        Game.objects.filter(table__sitting=sitting, status=Game.Status.FINISHED)
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    return [
        BoardTable(table_id=pk, rank=rank, seats=seats[pk], games_finished=finished.get(pk, 0))
        for pk, rank in tables
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
    """Each seated player's record over the sitting's finished games (format rule 4)."""
    seatings = list(
        Seating.objects.filter(sitting=sitting, left_at__isnull=True).select_related("player")
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


def session_standings(session: Session) -> list[StandingRow]:
    """The session ladder: the table a player sits at in the latest sitting (1 = best),
    then their place at that table on that sitting's results; players who withdrew
    follow. Totals count every finished game of the session."""
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
    names = dict(session.entries.values_list("player_id", "player__name"))
    sitting = current_sitting(session)
    ordered: list[tuple[int, int | None, int | None]] = []
    why: dict[int, str] = {}
    if sitting is not None:
        for table in sitting_order(sitting, fmt.format_for(session.rules_id)).tables:
            ordered += [(p.player, table.rank, p.place) for p in table.placings]
            why.update((p.player, f"table {table.rank}, {p.reason}") for p in table.placings)
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
        return (points if lower else -points, names[pid])

    resting = sorted(
        (pid for pid in sitting_out if pid in names and pid not in seated), key=by_points
    )
    ordered += [(pid, None, None) for pid in resting]
    rest = sorted(
        (pid for pid in names if pid not in seated and pid not in sitting_out and pid in totals),
        key=by_points,
    )
    ordered += [(pid, None, None) for pid in rest]
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
                why=why.get(pid)
                or (
                    "sitting out this sitting: after the seated players, by points"
                    if pid in sitting_out
                    else "not seated now: after the seated players, by points"
                ),
            )
        )
    return rows


def find_seating(session: Session, query: str) -> list[Seating]:
    """Where players whose name contains `query` sit in the latest sitting."""
    sitting = current_sitting(session)
    if sitting is None or not query.strip():
        return []
    return list(
        Seating.objects.filter(
            sitting=sitting, left_at__isnull=True, player__name__icontains=query.strip()
        )
        .select_related("player", "table")
        .order_by("player__name")[:10]
    )


def table_companions(tables: list[Table]) -> dict[int, list[Seating]]:
    seatings = Seating.objects.filter(table__in=tables, left_at__isnull=True).select_related(
        "player"
    )
    by_table: dict[int, list[Seating]] = defaultdict(list)
    for s in seatings.order_by("seat"):
        by_table[s.table_id].append(s)
    return by_table


@dataclass(frozen=True)
class SeasonRow:
    player: Player
    sessions: int
    games_won: int
    points: int
    hooks: int
    average_finish: float
    # The nights the club's ladder scoring counts ("best N nights"), and the value the
    # ladder ranks by: an average finish, placing points or total points
    # (docs/tournament.md, Ladder scoring).
    counted: int = 0
    score: float = 0.0


SEASON_CACHE_SECONDS = 3600


def season_cache_key(season_id: int) -> str:
    """The cache key of a season's ladder as the database stands: it names the season's
    standings rows (how many, the newest), so finishing a session moves the key and a
    copy from before can never be served, whether or not the refresh task ran (a worker
    killed mid-task, Redis down while the session finished). It names the club's ladder
    scoring too, so changing it moves the key as well. One indexed query."""
    seen = SessionStanding.objects.filter(session__season_id=season_id).aggregate(
        rows=Count("id"),
        newest=Max("id"),
        scoring=Max("session__club__ladder_scoring"),
        best=Max("session__club__ladder_best_nights"),
    )
    # v2: the rows carry the ladder scoring's fields (`counted`, `score`).
    return (
        f"season-standings:v2:{season_id}:{seen['rows']}:{seen['newest'] or 0}:"
        f"{seen['scoring'] or ''}:{seen['best'] or ''}"
    )


def season_standings_cached(season_id: int) -> list[SeasonRow]:
    """The season ladder from the cache, computed on a miss. Finishing a session queues a
    refresh that warms the new key; the timeout bounds how stale an admin edit of a player
    can leave it."""
    key = season_cache_key(season_id)
    rows: list[SeasonRow] | None = cache.get(key)
    if rows is None:
        rows = season_standings(season_id)
        cache.set(key, rows, SEASON_CACHE_SECONDS)
    return rows


def season_standings_refresh(season_id: int) -> list[SeasonRow]:
    # The key first: a session finishing meanwhile then leaves newer rows under an older
    # key, never older rows under the newer one.
    key = season_cache_key(season_id)
    rows = season_standings(season_id)
    cache.set(key, rows, SEASON_CACHE_SECONDS)
    return rows


@dataclass(frozen=True)
class _Night:
    position: int
    field: int
    points: int
    games_won: int
    hooks: int
    lower_is_better: bool

    @property
    def placing_points(self) -> int:
        """One point for every player finished ahead of, and one for playing."""
        return self.field - self.position + 1


def _best(nights: list[_Night], scoring: str, best: int | None) -> list[_Night]:
    """The nights that count: each player's best `best` nights, by the scoring's measure
    (the worst results are dropped); every night when `best` is None."""
    if best is None or len(nights) <= best:
        return nights
    if scoring == "placings":
        ordered = sorted(nights, key=lambda n: -n.placing_points)
    elif scoring == "totals":
        ordered = sorted(nights, key=lambda n: n.points if n.lower_is_better else -n.points)
    else:
        ordered = sorted(nights, key=lambda n: n.position)
    return ordered[:best]


def season_standings(season_id: int) -> list[SeasonRow]:
    """The season ladder over finished sessions, by the club's ladder scoring
    (docs/tournament.md, Ladder scoring):

    - `average` (the default): best average finishing position first, then more games
      won, then more points;
    - `placings`: most placing points (a night of P players gives the winner P points,
      the last 1), then more games won, then more points;
    - `totals`: most game points (fewest when every session of the season plays a
      lower-is-better game), then more games won.

    With "best N nights", only each player's best N nights count towards the ranking
    value (`score`); sessions, games won, points, hooks and average finish stay over
    every night."""
    lower_rules = {r.rules_id for r in fmt.FORMATS.values() if r.lower_is_better}
    # The club's choice rides along on every row: no query more than before.
    rows = list(
        SessionStanding.objects.filter(session__season_id=season_id).values_list(
            "player_id", "session_id", "position", "points", "games_won", "hooks",
            "session__rules_id", "session__club__ladder_scoring",
            "session__club__ladder_best_nights",
        )
    )  # fmt: skip
    if not rows:
        return []
    scoring, best = rows[0][7], rows[0][8]
    field: dict[int, int] = defaultdict(int)
    for row in rows:
        field[row[1]] += 1
    nights: dict[int, list[_Night]] = defaultdict(list)
    for player_id, session_id, position, points, won, hooks, rules_id, *_club in rows:
        nights[player_id].append(
            _Night(position, field[session_id], points, won, hooks, rules_id in lower_rules)
        )
    all_lower = bool(rows) and all(r[6] in lower_rules for r in rows)
    players = Player.objects.in_bulk(list(nights))
    result = []
    for player_id, played in nights.items():
        counted = _best(played, scoring, best)
        if scoring == "placings":
            score = float(sum(n.placing_points for n in counted))
        elif scoring == "totals":
            score = float(sum(n.points for n in counted))
        else:
            score = sum(n.position for n in counted) / len(counted)
        result.append(
            SeasonRow(
                player=players[player_id],
                sessions=len(played),
                games_won=sum(n.games_won for n in played),
                points=sum(n.points for n in played),
                hooks=sum(n.hooks for n in played),
                average_finish=sum(n.position for n in played) / len(played),
                counted=len(counted),
                score=score,
            )
        )
    if scoring == "placings":
        result.sort(key=lambda r: (-r.score, -r.games_won, -r.points, r.player.name))
    elif scoring == "totals":
        sign = 1 if all_lower else -1
        result.sort(key=lambda r: (sign * r.score, -r.games_won, r.player.name))
    else:
        result.sort(key=lambda r: (r.score, -r.games_won, -r.points, r.player.name))
    return result


def big_loser_suggestion(season_id: int, criterion: str) -> list[SeasonRow]:
    """Who the club's criterion points at: most hooks then fewest points by default."""
    rows = season_standings(season_id)
    if criterion == "points":
        rows.sort(key=lambda r: (r.points, -r.hooks, r.player.name))
    else:
        rows.sort(key=lambda r: (-r.hooks, r.points, r.player.name))
    return rows[:3]


@dataclass(frozen=True)
class PlayerPage:
    """What a signed-in player sees of their own: where they sit now, their latest
    finished games and their past sessions."""

    players: list[Player]
    seatings: QuerySet[Seating]
    games: QuerySet[GamePlayer]
    history: QuerySet[SessionStanding]


def player_page(players: list[Player], *, limit: int = 30) -> PlayerPage:
    seatings = (
        Seating.objects.filter(
            player__in=players,
            left_at__isnull=True,
            sitting__session__status=Session.Status.RUNNING,
            sitting__moved_at__isnull=True,
        )
        .select_related("table", "sitting__session")
        .order_by("-sitting__session__date")
    )
    games = (
        GamePlayer.objects.filter(player__in=players, game__status=Game.Status.FINISHED)
        .select_related("game__table__sitting__session")
        .order_by("-game__finished_at")[:limit]
    )
    history = (
        SessionStanding.objects.filter(player__in=players)
        .select_related("session__club")
        .order_by("-session__date")[:limit]
    )
    return PlayerPage(players=players, seatings=seatings, games=games, history=history)


@dataclass(frozen=True)
class ScreenTable:
    """One table on the projector: who sits where and how its current game stands."""

    rank: int
    seats: list[str]
    game_number: int | None
    rounds: int
    leaders: list[str]
    leader_score: int | None
    games_finished: int
    games_total: int

    @property
    def done(self) -> bool:
        return self.games_finished >= self.games_total


def sitting_screen(sitting: Sitting, *, lower_is_better: bool) -> list[ScreenTable]:
    """Every table of a sitting for the wall, in four queries whatever its size."""
    tables = list(sitting.tables.order_by("rank").values_list("pk", "rank"))
    seats: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table_id", "seat")
        .values_list("table_id", "player__name")
    ):
        seats[table_id].append(name)
    latest: dict[int, tuple[int, int, int]] = {}
    finished: dict[int, int] = defaultdict(int)
    for game_id, table_id, number, status, rounds in (
        Game.objects.filter(table__sitting=sitting)
        .order_by("table_id", "number")
        .values_list("pk", "table_id", "number", "status", "round_count")
    ):
        latest[table_id] = (game_id, number, rounds)
        finished[table_id] += status == Game.Status.FINISHED
    scores: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for game_id, name, score in GamePlayer.objects.filter(
        game_id__in=[g for g, _, _ in latest.values()]
    ).values_list("game_id", "name", "score"):
        scores[game_id].append((name, score))
    result = []
    for pk, rank in tables:
        game_id, number, rounds = latest.get(pk, (0, 0, 0))
        leaders: list[str] = []
        best: int | None = None
        if rounds and scores.get(game_id):
            pick = min if lower_is_better else max
            best = pick(score for _, score in scores[game_id])
            leaders = [name for name, score in scores[game_id] if score == best]
        result.append(
            ScreenTable(
                rank=rank,
                seats=seats[pk],
                game_number=number or None,
                rounds=rounds,
                leaders=leaders,
                leader_score=best,
                games_finished=finished[pk],
                games_total=sitting.games_per_sitting,
            )
        )
    return result


def club_players(club_id: int, query: str = "") -> QuerySet[Player]:
    """The club's players by name, with how many sessions each played: one query per page
    of the list, however many players the club has."""
    players = Player.objects.filter(club_id=club_id).annotate(sessions=Count("entries"))
    if query:
        players = players.filter(name__icontains=query)
    return players.order_by("name", "pk")


def club_sessions(club_id: int) -> QuerySet[Session]:
    """The club's sessions, newest first, with their season."""
    return Session.objects.filter(club_id=club_id).select_related("season").order_by("-date", "-id")


@dataclass(frozen=True)
class SeasonAwards:
    """The awards at the end of a season (docs/tournament.md, Season awards)."""

    # Every player with the most games won (a tie shares the award).
    most_wins: list[SeasonRow]
    # The names the ratings' "most improved rating" selector gives; None when no
    # ratings are kept (the ratings app is not installed).
    most_improved: list[str] | None


def _most_improved(season_id: int) -> list[str] | None:
    """The ratings app's `season_most_improved(season_id)`, as names. Looked up by name
    so that the season ladder does not depend on the ratings app."""
    try:
        module = importlib.import_module("ratings.selectors")
    except ImportError:
        return None
    finder = getattr(module, "season_most_improved", None)
    if finder is None:
        return None
    found = finder(season_id)
    items = found if isinstance(found, (list, tuple)) else [found] if found else []
    names = []
    for item in items:
        if isinstance(item, dict):
            names.append(str(item.get("name", "")))
        elif isinstance(item, Player):
            names.append(item.name)
        else:
            player = getattr(item, "player", None)
            names.append(player.name if player is not None else str(getattr(item, "name", item)))
    return names


def season_awards(season_id: int, rows: list[SeasonRow] | None = None) -> SeasonAwards:
    """The season's awards besides the Big Loser (recorded by the director, see
    `BigLoserAward`); `rows` is the season's ladder when the caller has it."""
    rows = season_standings_cached(season_id) if rows is None else rows
    top = max((r.games_won for r in rows), default=0)
    return SeasonAwards(
        most_wins=[r for r in rows if top and r.games_won == top],
        most_improved=_most_improved(season_id),
    )
