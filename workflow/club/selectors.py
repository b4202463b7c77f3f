"""Reads for the club's pages, the API and the exports over a season and a club's
history: the season ladder (`season_standings`, cached by season and refreshed after each
session), the Big Loser suggestion (`big_loser_suggestion`), the season's awards, a
player's own history, and the club's long lists (players, sessions), each in a fixed
number of queries however long the season. The reads of one running session live in
`workflow.session.selectors`."""

from __future__ import annotations

import importlib
from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet

import engine
from scoring.models import Game, GamePlayer
from tournaments import format as fmt
from tournaments.models import (
    Player,
    Seating,
    Session,
    SessionStanding,
)


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
    # v2: the rows carry the ladder scoring's fields (`counted`, `score`); v3: only the
    # nights with a finished game count.
    return (
        f"season-standings:v3:{season_id}:{seen['rows']}:{seen['newest'] or 0}:"
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
        ordered = sorted(
            nights, key=lambda n: engine.score_key(n.points, lower_is_better=n.lower_is_better)
        )
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
    # The club's choice rides along on every row: no query more than before. A robot is
    # never on the ladder, nor awarded (a night kept before robots left the standings may
    # have kept one).
    # Only a night with a finished game counts, and a place only for a player who finished
    # one (docs/tournament.md, Standings): rows kept before that rule gave others a place
    # too, so the places left are counted again, in their order.
    rows = list(
        SessionStanding.objects.filter(
            session__season_id=season_id, player__is_robot=False, games_played__gt=0
        ).order_by("session_id", "position").values_list(
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
    place: dict[int, int] = defaultdict(int)
    for player_id, session_id, _position, points, won, hooks, rules_id, *_club in rows:
        place[session_id] += 1
        nights[player_id].append(
            _Night(
                place[session_id], field[session_id], points, won, hooks, rules_id in lower_rules
            )
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
        result.sort(
            key=lambda r: (
                engine.score_key(r.score, lower_is_better=all_lower),
                -r.games_won,
                r.player.name,
            )
        )
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


def session_not_counted(session: Session) -> bool:
    """A finished session in which no game finished: it gives no places and counts
    nowhere in the season (its page says so, docs/tournament.md)."""
    return (
        session.status == Session.Status.FINISHED
        and not Game.objects.filter(
            table__sitting__session=session, status=Game.Status.FINISHED
        ).exists()
    )


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
        SessionStanding.objects.filter(player__in=players, games_played__gt=0)
        .select_related("session__club")
        .order_by("-session__date")[:limit]
    )
    return PlayerPage(players=players, seatings=seatings, games=games, history=history)


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
