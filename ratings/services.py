"""Writes of the ratings: recompute them from one game on, or rebuild them from scratch.

Ratings are derived data. Every finished game updates its players once, in a fixed order
(session date, start time, session id, sitting number, game number, table rank); a
change to a finished game throws away the history from that game on and replays it, so
the stored ratings always equal a rebuild from scratch.

They are the machine's own work (a task after a game changes, `rebuild_ratings`), so
their callers pass `tournaments.permissions.SYSTEM`; a director may rebuild their club's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db import connection, transaction
from django.utils.translation import gettext_noop

from ratings import calc
from ratings.models import Rating, RatingHistory
from scoring.models import Game, GamePlayer
from tournaments import format as fmt
from tournaments.models import Club
from tournaments.permissions import Caller, require_director

BATCH = 2000


def order_key(
    *,
    day: date,
    started_at: datetime | None,
    session_id: int,
    sitting: int,
    game_number: int,
    table_rank: int,
) -> str:
    """The game's place in the order ratings are applied in, as a string that sorts the
    same way (fixed-width fields), so the database can compare and index it."""
    started = started_at.astimezone(UTC).strftime("%Y%m%d%H%M%S%f") if started_at else "0" * 20
    return (
        f"{day.isoformat()}|{started}|{session_id:012d}|{sitting:05d}|"
        f"{game_number:05d}|{table_rank:05d}"
    )


@dataclass(frozen=True)
class _Game:
    id: int
    key: str
    results: list[calc.Result]


def _finished_games(club_id: int, rules_id: str, *, since: date | None) -> list[_Game]:
    """The club's finished games under the rules, in the order they are applied, from
    the day `since` on (all of them when None). Two queries whatever their number."""
    games = Game.objects.filter(
        status=Game.Status.FINISHED, rules_id=rules_id, table__sitting__session__club_id=club_id
    )
    # A robot seated by a director to fill an online table (`Player.is_robot`) is no
    # player to rate: the people at its table are ranked among themselves.
    players = GamePlayer.objects.filter(
        game__status=Game.Status.FINISHED,
        game__rules_id=rules_id,
        game__table__sitting__session__club_id=club_id,
        player__is_robot=False,
    )
    if since is not None:
        games = games.filter(table__sitting__session__date__gte=since)
        players = players.filter(game__table__sitting__session__date__gte=since)
    results: dict[int, list[calc.Result]] = defaultdict(list)
    for game_id, player_id, score, won in players.order_by("game_id", "seat").values_list(
        "game_id", "player_id", "score", "won"
    ):
        results[game_id].append(calc.Result(player=player_id, score=score, won=won))
    rows = games.values_list(
        "id",
        "number",
        "table__rank",
        "table__sitting__number",
        "table__sitting__session_id",
        "table__sitting__session__date",
        "table__sitting__session__started_at",
    )
    found = [
        _Game(
            id=game_id,
            key=order_key(
                day=day,
                started_at=started_at,
                session_id=session_id,
                sitting=sitting,
                game_number=number,
                table_rank=rank,
            ),
            results=results.get(game_id, []),
        )
        for game_id, number, rank, sitting, session_id, day, started_at in rows
    ]
    found.sort(key=lambda g: g.key)
    return found


def game_order_key(game_id: int) -> str | None:
    """The order key of a game, or None if it no longer exists."""
    row = (
        Game.objects.filter(pk=game_id)
        .values_list(
            "number",
            "table__rank",
            "table__sitting__number",
            "table__sitting__session_id",
            "table__sitting__session__date",
            "table__sitting__session__started_at",
        )
        .first()
    )
    if row is None:
        return None
    number, rank, sitting, session_id, day, started_at = row
    return order_key(
        day=day,
        started_at=started_at,
        session_id=session_id,
        sitting=sitting,
        game_number=number,
        table_rank=rank,
    )


@transaction.atomic
def ratings_recompute(*, club_id: int, rules_id: str, from_key: str = "", user: Caller) -> int:
    """Replay the club's finished games under the rules from the game with `from_key` on
    (every game when empty), starting from the history just before it. Returns the number
    of games applied. Safe to run twice: it always ends in the same state."""
    # One recompute per club at a time: two scorers finishing games at once would
    # otherwise replay over each other's history.
    if Club.objects.select_for_update().filter(pk=club_id).first() is None:
        return 0
    require_director(user, club_id, to=gettext_noop("recompute its ratings"))
    lower_is_better = fmt.format_for(rules_id).lower_is_better
    history = RatingHistory.objects.filter(club_id=club_id, rules_id=rules_id)
    affected: set[int] = set()
    if from_key:
        later = history.filter(order_key__gte=from_key)
        affected.update(later.values_list("player_id", flat=True).distinct())
        later.delete()
    else:
        history.delete()  # and every Rating of the scope, in _store_ratings
    since = date.fromisoformat(from_key[:10]) if from_key else None
    games = [g for g in _finished_games(club_id, rules_id, since=since) if g.key >= from_key]
    for game in games:
        affected.update(r.player for r in game.results)

    state: dict[int, calc.Skill] = {}
    if from_key and affected:
        earlier = history.filter(order_key__lt=from_key, player_id__in=sorted(affected))
        for player_id, mu, sigma, games_played in earlier.order_by("order_key").values_list(
            "player_id", "mu", "sigma", "games"
        ):
            state[player_id] = calc.Skill(mu=mu, sigma=sigma, games=games_played)

    rows: list[tuple[int | str | float, ...]] = []
    for game in games:
        if len(game.results) < 2:
            continue  # nobody to be ranked against
        ranks = calc.game_ranks(game.results, lower_is_better=lower_is_better)
        before = [state.get(r.player, calc.Skill()) for r in game.results]
        after = calc.update(before, ranks)
        for result, rank, old, new in zip(game.results, ranks, before, after, strict=True):
            state[result.player] = new
            rows.append(
                (
                    club_id,
                    rules_id,
                    result.player,
                    game.id,
                    game.key,
                    rank,
                    old.ordinal,
                    new.mu,
                    new.sigma,
                    new.ordinal,
                    new.games,
                )
            )
    _insert_history(rows)
    _store_ratings(
        club_id=club_id, rules_id=rules_id, players=affected, state=state, full=not from_key
    )
    return len(games)


# The columns of RatingHistory, in the order of the rows built above.
_HISTORY_COLUMNS = (
    "club_id",
    "rules_id",
    "player_id",
    "game_id",
    "order_key",
    "rank",
    "ordinal_before",
    "mu",
    "sigma",
    "ordinal",
    "games",
)


def _insert_history(rows: list[tuple[int | str | float, ...]]) -> None:
    """Plain multi-row INSERTs: a rebuild writes tens of thousands of rows, and building a
    model instance for each (bulk_create) costs more than the ratings themselves, while
    one statement per row (executemany) costs a round trip each on PostgreSQL
    (bench/ratings.py)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(name) for name in _HISTORY_COLUMNS)
    table = quote(RatingHistory._meta.db_table)
    if connection.vendor == "postgresql":
        # COPY loads rows several times faster than INSERT on PostgreSQL.
        with connection.cursor() as cursor:
            raw = cursor.cursor  # the psycopg cursor under Django's wrapper
            with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    row_marks = "(" + ", ".join(["%s"] * len(_HISTORY_COLUMNS)) + ")"
    # SQLite caps the parameters of one statement (999 on older builds).
    limit = connection.features.max_query_params or 20000
    per_statement = max(1, min(1000, limit // len(_HISTORY_COLUMNS)))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            sql = f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([row_marks] * len(chunk))
            cursor.execute(sql, [value for row in chunk for value in row])


def _store_ratings(
    *, club_id: int, rules_id: str, players: Iterable[int], state: dict[int, calc.Skill], full: bool
) -> None:
    current = Rating.objects.filter(club_id=club_id, rules_id=rules_id)
    if full:
        current.delete()
    else:
        current.filter(player_id__in=sorted(players)).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                club_id=club_id,
                rules_id=rules_id,
                player_id=player_id,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=skill.games,
            )
            for player_id, skill in sorted(state.items())
        ],
        batch_size=BATCH,
    )


def ratings_game_changed(*, club_id: int, rules_id: str, game_id: int, user: Caller) -> int:
    """A finished game changed (finished, corrected, reopened): recompute from it on.
    If the game is gone, rebuild the club's ratings under those rules from scratch."""
    key = game_order_key(game_id)
    return ratings_recompute(club_id=club_id, rules_id=rules_id, from_key=key or "", user=user)


def ratings_rebuild(*, club_id: int | None = None, user: Caller) -> dict[tuple[int, str], int]:
    """Rebuild every rating from scratch (one club, or all), each club and rules id in its
    own transaction. Returns the number of games applied per (club id, rules id). Refused
    before any club is touched unless `user` directs every club concerned."""
    games = Game.objects.filter(status=Game.Status.FINISHED)
    ratings = Rating.objects.all()
    if club_id is not None:
        games = games.filter(table__sitting__session__club_id=club_id)
        ratings = ratings.filter(club_id=club_id)
    scopes = set(
        games.values_list("table__sitting__session__club_id", "rules_id").distinct()
    ) | set(ratings.values_list("club_id", "rules_id").distinct())
    for cid in sorted({cid for cid, _ in scopes} | ({club_id} if club_id is not None else set())):
        require_director(user, cid, to=gettext_noop("rebuild its ratings"))
    return {
        (cid, rid): ratings_recompute(club_id=cid, rules_id=rid, user=user)
        for cid, rid in sorted(scopes)
    }
