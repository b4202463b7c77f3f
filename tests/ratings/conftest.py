"""Finished games built directly (no engine): the ratings only read each player's final
score and whether they won, so the tests can choose any result they need."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import pytest

from scoring.models import Game, GamePlayer
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, SessionFactory
from tournaments.models import Club, Player, Season, Session, Sitting, Table

Row = tuple[Player, int, bool]  # player, final score, won


def new_session(
    club: Club,
    season: Season,
    *,
    day: date,
    started_at: datetime | None = None,
    rules_id: str = "huckley-buck",
) -> Session:
    session: Session = SessionFactory(
        club=club,
        season=season,
        date=day,
        rules_id=rules_id,
        status=Session.Status.RUNNING,
        started_at=started_at or datetime(day.year, day.month, day.day, 19, tzinfo=UTC),
    )
    return session


def finished_game(
    session: Session,
    rows: Sequence[Row],
    *,
    sitting: int = 1,
    table: int = 1,
    number: int = 1,
    finished: bool = True,
) -> Game:
    sitting_row, _ = Sitting.objects.get_or_create(
        session=session, number=sitting, defaults={"games_per_sitting": 2}
    )
    table_row, _ = Table.objects.get_or_create(sitting=sitting_row, rank=table)
    game = Game.objects.create(
        table=table_row,
        number=number,
        rules_id=session.rules_id,
        first_dealer=rows[0][0],
        first_dealer_source=Game.DealerSource.DRAW,
        status=Game.Status.FINISHED if finished else Game.Status.PLAYING,
        round_count=1,
    )
    GamePlayer.objects.bulk_create(
        GamePlayer(game=game, player=p, seat=seat, name=p.name, score=score, won=won)
        for seat, (p, score, won) in enumerate(rows, start=1)
    )
    return game


@pytest.fixture
def rclub(db: None) -> Club:
    club: Club = ClubFactory(name="Rated Club", slug="rated")
    return club


@pytest.fixture
def rseason(rclub: Club) -> Season:
    season: Season = SeasonFactory(club=rclub, name="2026")
    return season


@pytest.fixture
def people(rclub: Club) -> list[Player]:
    return [PlayerFactory(club=rclub, name=f"P{i}") for i in range(1, 9)]


@pytest.fixture
def helpers() -> Any:
    class H:
        session = staticmethod(new_session)
        game = staticmethod(finished_game)

    return H
