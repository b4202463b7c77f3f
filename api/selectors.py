"""Reads the API needs that the pages do inline in their views: querysets with their
joins in place. The derived views (progress, standings, movement) stay in
`workflow.session.selectors` and `workflow.session.services`; nothing here decides a rule."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tournaments.models import (
    BigLoserAward,
    Club,
    Player,
    ScorerLink,
    Season,
    Session,
    SessionPlayer,
    Sitting,
    Table,
)
from tournaments.permissions import live_links


def clubs() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def club_seasons(club: Club) -> QuerySet[Season]:
    return club.seasons.order_by("-starts_on")


def season_awards(season_ids: list[int]) -> dict[int, BigLoserAward]:
    awards = BigLoserAward.objects.filter(season_id__in=season_ids).select_related("player")
    return {a.season_id: a for a in awards}


def club_players(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).order_by("name")


def session_qs() -> QuerySet[Session]:
    return Session.objects.select_related("club", "season")


def session_entries(session: Session) -> QuerySet[SessionPlayer]:
    return (
        SessionPlayer.objects.filter(session=session)
        .select_related("player")
        .order_by("player__name")
    )


def session_sittings(session: Session) -> QuerySet[Sitting]:
    return session.sittings.order_by("number")


def sitting_qs() -> QuerySet[Sitting]:
    return Sitting.objects.select_related("session__club", "session__season")


def sitting_session_id(sitting_id: int) -> int | None:
    found: int | None = (
        Sitting.objects.filter(pk=sitting_id).values_list("session_id", flat=True).first()
    )
    return found


def table_qs() -> QuerySet[Table]:
    return Table.objects.select_related("sitting__session__club")


def table_games(table: Table) -> QuerySet[Game]:
    return Game.objects.filter(table=table).order_by("number")


def game_qs() -> QuerySet[Game]:
    """Games with what `game_record` reads: players in seat order (with whether each is
    a robot) and rounds in order."""
    return Game.objects.select_related("table__sitting__session__club").prefetch_related(
        Prefetch(
            "game_players", queryset=GamePlayer.objects.order_by("seat").select_related("player")
        ),
        Prefetch("rounds", queryset=Round.objects.order_by("number")),
    )


def game_round(game: Game, number: int) -> Round | None:
    return Round.objects.filter(game=game, number=number).first()


def game_changes(game: Game) -> QuerySet[RoundChange]:
    return RoundChange.objects.filter(game=game).select_related("user", "scorer_link")


def pending_rounds(game: Game) -> QuerySet[PendingRound]:
    return PendingRound.objects.filter(game=game).select_related("entered_by", "scorer_link")


def table_live_links(table: Table) -> QuerySet[ScorerLink]:
    # A table card's own links belong to the card (workflow.tables.links), not listed here.
    tokens = ScorerLink.objects.filter(table=table, card=None, club_card=None).values_list(
        "token", flat=True
    )
    return live_links(tokens).filter(table=table)
