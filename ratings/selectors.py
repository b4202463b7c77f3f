"""Reads of the ratings: a club's list, a player's page, the season's most improved."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Max, Q, QuerySet, Sum

from ratings.models import Rating, RatingHistory
from scoring.models import Game, GamePlayer
from tournaments.models import BigLoserAward, Placing, Player, Seating, Session


def club_ratings(club_id: int, rules_id: str) -> list[Rating]:
    """The club's ratings under the rules, best first (highest ordinal; equal ordinals
    by name)."""
    return list(
        Rating.objects.filter(club_id=club_id, rules_id=rules_id)
        .select_related("player")
        .order_by("-ordinal", "player__name", "player_id")
    )


def club_usual_rules(club_id: int) -> str | None:
    """The rules the club has finished the most games under (on a tie, those played most
    recently): what its ratings page opens on. With no finished game, the rules of its
    last session; None for a club with no session."""
    played = (
        Game.objects.filter(table__sitting__session__club_id=club_id, status=Game.Status.FINISHED)
        .values("rules_id")
        .annotate(games=Count("pk"), last=Max("table__sitting__session__date"))
        .order_by("-games", "-last", "rules_id")
        .values_list("rules_id", flat=True)
        .first()
    )
    if played is not None:
        return played
    return (
        Session.objects.filter(club_id=club_id)
        .order_by("-date", "-pk")
        .values_list("rules_id", flat=True)
        .first()
    )


def ordinals(player_ids: list[int], rules_id: str) -> dict[int, float]:
    """The players' current ordinals under the rules; players with no rating are absent."""
    return dict(
        Rating.objects.filter(player_id__in=player_ids, rules_id=rules_id).values_list(
            "player_id", "ordinal"
        )
    )


def seeding_strengths(player_ids: list[int], rules_id: str) -> dict[int, float]:
    """How strong each player counts when a session seeds its tables: the rating earned
    in games under the rules, else the rating the club's roster import brought in
    (`Player.seed_rating`, on the same scale), else nothing (a newcomer, 0)."""
    imported = {
        pk: rating
        for pk, rating in Player.objects.filter(
            pk__in=player_ids, seed_rating__isnull=False
        ).values_list("pk", "seed_rating")
        if rating is not None
    }
    return {**imported, **ordinals(player_ids, rules_id)}


@dataclass(frozen=True)
class Point:
    game_id: int
    session_id: int
    day: str
    ordinal: float


@dataclass
class RulesHistory:
    rules_id: str
    rating: Rating | None
    points: list[Point] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerSummary:
    player: Player
    sessions: int
    games: int
    wins: int
    hooks: int
    placings: list[tuple[int, int]]  # (place at the table, how often), best place first
    big_losers: list[BigLoserAward]
    histories: list[RulesHistory]


def player_sessions(player: Player) -> QuerySet[Session]:
    """The sessions a player is on the roster of or played a game in."""
    return Session.objects.filter(
        Q(entries__player=player) | Q(sittings__tables__games__game_players__player=player)
    ).distinct()


def player_summary(player: Player, *, seen: QuerySet[Session] | None = None) -> PlayerSummary:
    """Everything the player page shows, in a fixed number of queries. With `seen` (the
    sessions the visitor may see: `tournaments.permissions.visible_sessions`), only what
    those sessions hold: games, sessions, placings and the rating's points; a rating that
    counts a game of another session is left out, as its value would tell of that game."""
    in_seen = Q() if seen is None else Q(game__table__sitting__session__in=seen)
    sitting_seen = Q() if seen is None else Q(sitting__session__in=seen)
    finished = GamePlayer.objects.filter(in_seen, player=player, game__status=Game.Status.FINISHED)
    totals = finished.aggregate(
        games=Count("id"), wins=Count("id", filter=Q(won=True)), hooks=Sum("hooks")
    )
    sessions = (
        Seating.objects.filter(sitting_seen, player=player)
        .values("sitting__session_id")
        .distinct()
        .count()
    )
    places = Counter(
        Placing.objects.filter(sitting_seen, player=player).values_list("place", flat=True)
    )
    awards = list(
        BigLoserAward.objects.filter(player=player)
        .select_related("season")
        .order_by("season__starts_on")
    )
    unseen: set[str] = set()
    if seen is not None:
        unseen = set(
            RatingHistory.objects.filter(player=player)
            .exclude(in_seen)
            .values_list("rules_id", flat=True)
            .distinct()
        )
    histories: dict[str, RulesHistory] = {}
    for rating in Rating.objects.filter(player=player).order_by("rules_id"):
        shown = rating if rating.rules_id not in unseen else None
        histories[rating.rules_id] = RulesHistory(rules_id=rating.rules_id, rating=shown)
    rows = (
        RatingHistory.objects.filter(in_seen, player=player)
        .order_by("rules_id", "order_key")
        .values_list(
            "rules_id", "game_id", "game__table__sitting__session_id", "order_key", "ordinal"
        )
    )
    for rules_id, game_id, session_id, key, value in rows:
        history = histories.setdefault(rules_id, RulesHistory(rules_id=rules_id, rating=None))
        history.points.append(
            Point(game_id=game_id, session_id=session_id, day=key[:10], ordinal=value)
        )
    return PlayerSummary(
        player=player,
        sessions=sessions,
        games=totals["games"] or 0,
        wins=totals["wins"] or 0,
        hooks=totals["hooks"] or 0,
        placings=sorted(places.items()),
        big_losers=awards,
        histories=list(histories.values()),
    )


@dataclass(frozen=True)
class Improvement:
    player: Player
    rules_id: str
    before: float  # the ordinal before the player's first game of the season
    after: float  # the ordinal after their last game of the season
    games: int

    @property
    def rise(self) -> float:
        return self.after - self.before


def season_most_improved(season_id: int) -> list[Improvement]:
    """The player, or the players sharing it, whose ordinal rose most over the season's
    games: from before their first game of the season to after their last, under the
    rules they played (a player's best rules counts). Empty when no one's rating rose."""
    rows = (
        RatingHistory.objects.filter(game__table__sitting__session__season_id=season_id)
        .order_by("order_key")
        .values_list("player_id", "rules_id", "ordinal_before", "ordinal")
    )
    spans: dict[tuple[int, str], list[float]] = {}
    counts: Counter[tuple[int, str]] = Counter()
    for player_id, rules_id, before, after in rows:
        span = spans.setdefault((player_id, rules_id), [before, after])
        span[1] = after
        counts[(player_id, rules_id)] += 1
    best: dict[int, tuple[float, str, float, float]] = {}
    for (player_id, rules_id), (before, after) in spans.items():
        rise = after - before
        if player_id not in best or rise > best[player_id][0]:
            best[player_id] = (rise, rules_id, before, after)
    if not best:
        return []
    top = max(rise for rise, *_ in best.values())
    if top <= 0:
        return []
    # Ties within a rounding hair are ties: the rise is shown to two decimals.
    winners = {pid: v for pid, v in best.items() if top - v[0] < 1e-9}
    players = Player.objects.in_bulk(list(winners))
    return sorted(
        (
            Improvement(
                player=players[pid],
                rules_id=rules_id,
                before=before,
                after=after,
                games=counts[(pid, rules_id)],
            )
            for pid, (_, rules_id, before, after) in winners.items()
        ),
        key=lambda i: (i.player.name, i.player.pk),
    )
