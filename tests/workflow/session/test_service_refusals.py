"""Every refusal of the tournament services leaves the database exactly as it was.

Each test triggers one `UserError` of one service of the session's workflow
(`workflow.session.services`, `workflow.session.start_finish`,
`workflow.session.withdrawals`) and compares every row of the project's tables before
and after, so that a write that did part of its work before finding the reason to refuse
(a roster entry, a seat, the board version) cannot pass. Refusals already proven with the
whole database elsewhere are not repeated: `test_sessions.py` (bad session settings,
check-in all or nothing, too few players).
Here, setting a session up; the refusals of a running session (movements, withdrawals,
rebalancing, the finish) are in `test_running_session_refusals.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from common.errors import UserError
from scoring import records
from scoring.models import Game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import BigLoserAward, Club, Player, Season, Seating, Session, SessionPlayer
from tournaments.permissions import SYSTEM
from workflow.session import movements, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db

MakeSession = Callable[..., Session]


def refused(code: str, call: Callable[[], object]) -> UserError:
    """Run `call`, expect the refusal `code`, and check that no table changed."""
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert caught.value.message.strip()
    assert changed_tables(before) == []
    return caught.value


def first_round(game: Game) -> dict[str, Any]:
    """A valid first round: the first dealer's left-hand neighbour takes all five tricks."""
    record = records.game_record(game)
    players = record["players"]
    taker = players[(players.index(record["first_dealer"]) + 1) % len(players)]
    return {"tricks": {taker: 5}}


def finished(make_session: MakeSession, players: int = 8) -> Session:
    session = make_session(players)
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    session.refresh_from_db()
    return session


def seated_at(session: Session, rank: int) -> list[int]:
    return list(
        Seating.objects.filter(
            sitting__session=session, table__rank=rank, left_at__isnull=True
        ).values_list("player_id", flat=True)
    )


# session_create -------------------------------------------------------------------------


def new_session(club: Any, season: Any, **kw: Any) -> Callable[[], object]:
    args: dict[str, Any] = {
        "club": club,
        "season": season,
        "name": "Night",
        "date": season.starts_on,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "user": SYSTEM,
        **kw,
    }
    return lambda: services.session_create(**args)


def test_a_session_in_a_season_of_another_club_is_refused(club: Any) -> None:
    elsewhere = SeasonFactory.create()
    error = refused("season_not_in_club", new_session(club, elsewhere, new_names=["Ann"]))
    assert error.field == "season"


def test_a_session_with_a_player_of_another_club_creates_no_new_player(
    club: Any, season: Any
) -> None:
    stranger = PlayerFactory.create()
    mine = PlayerFactory.create(club=club)
    call = new_session(club, season, player_ids=[mine.pk, stranger.pk], new_names=["Fresh"])
    refused("unknown_player", call)
    assert not Player.objects.filter(name="Fresh").exists()


def test_a_new_name_over_sixty_characters_refuses_the_whole_roster(club: Any, season: Any) -> None:
    refused("name_too_long", new_session(club, season, new_names=["Ann", "x" * 61]))
    assert not Player.objects.filter(club=club).exists()


# session_update_settings ----------------------------------------------------------------


def test_a_sitting_of_four_games_is_refused(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "games_per_sitting",
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=4,
            is_public=False,
            double_entry=True,
            user=SYSTEM,
        ),
    )


def test_a_finished_session_keeps_its_sitting_length(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_finished",
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=3,
            is_public=False,
            double_entry=True,
            user=SYSTEM,
        ),
    )


# scorer_link_create ---------------------------------------------------------------------


def test_no_scorer_link_for_a_table_of_a_sitting_that_has_moved_on(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    finish_sitting_unplayed(sitting, random.Random(3))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    old_table = sitting.tables.get(rank=1)
    refused(
        "sitting_closed", lambda: table_links.scorer_link_create(table_id=old_table.pk, user=SYSTEM)
    )


def test_no_scorer_link_once_the_session_is_finished(make_session: MakeSession) -> None:
    session = finished(make_session)
    table = session.sittings.get().tables.get(rank=1)
    refused(
        "sitting_closed", lambda: table_links.scorer_link_create(table_id=table.pk, user=SYSTEM)
    )


# session_add_players --------------------------------------------------------------------


def test_no_player_joins_a_finished_session(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_finished",
        lambda: services.session_add_players(
            session_id=session.pk, new_names=["Late"], user=SYSTEM
        ),
    )
    assert not Player.objects.filter(name="Late").exists()


@pytest.mark.parametrize("names", [[], ["   ", ""]], ids=["nothing", "blank names"])
def test_adding_nobody_is_refused(make_session: MakeSession, names: list[str]) -> None:
    session = make_session(8)
    refused(
        "no_players",
        lambda: services.session_add_players(session_id=session.pk, new_names=names, user=SYSTEM),
    )


def test_a_player_already_on_the_roster_is_not_added_twice_before_the_start(
    make_session: MakeSession,
) -> None:
    session = make_session(8, start=False)
    on_roster = session.entries.first()
    assert on_roster is not None
    refused(
        "already_on_roster",
        lambda: services.session_add_players(
            session_id=session.pk, player_ids=[on_roster.player_id], user=SYSTEM
        ),
    )


def test_a_refused_late_arrival_seats_nobody_who_came_with_them(
    make_session: MakeSession,
) -> None:
    """The newcomer is seated first, then the player already playing is refused: the
    newcomer's seat, roster entry and player row must all go with the refusal."""
    session = make_session(9)
    playing = session.entries.first()
    assert playing is not None
    error = refused(
        "already_on_roster",
        lambda: services.session_add_players(
            session_id=session.pk,
            player_ids=[playing.player_id],
            new_names=["Newcomer"],
            user=SYSTEM,
        ),
    )
    assert playing.player.name in error.message
    assert not SessionPlayer.objects.filter(player__name="Newcomer").exists()


# session_check_in -----------------------------------------------------------------------


def test_checking_in_after_the_start_changes_nobody(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "session_started",
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=None, checked_in=False, user=SYSTEM
        ),
    )


# big_loser_award ------------------------------------------------------------------------


def test_the_big_loser_must_be_a_player_of_the_club(club: Any, season: Any) -> None:
    outsider = PlayerFactory.create(club=ClubFactory.create())
    error = refused(
        "unknown_player",
        lambda: start_finish.big_loser_award(
            season_id=season.pk, player_id=outsider.pk, user=SYSTEM
        ),
    )
    assert error.field == "player"
    assert not BigLoserAward.objects.exists()


def test_a_refused_big_loser_keeps_the_award_already_made(club: Any, season: Any) -> None:
    holder = PlayerFactory.create(club=club)
    start_finish.big_loser_award(season_id=season.pk, player_id=holder.pk, user=SYSTEM)
    refused(
        "unknown_player",
        lambda: start_finish.big_loser_award(season_id=season.pk, player_id=10**9, user=SYSTEM),
    )
    assert BigLoserAward.objects.get(season=season).player == holder


def test_a_session_dated_outside_its_season_is_refused_and_the_covering_season_named(
    club: Club, season: Season, director: Any
) -> None:
    later = SeasonFactory(club=club, name="2027")
    with pytest.raises(UserError) as refused:
        services.session_create(
            club=club,
            season=season,
            name="Spring night",
            date=date(2027, 3, 1),
            rules_id="huckley-buck",
            games_per_sitting=2,
            new_names=["Ann", "Bob", "Cy"],
            user=director,
        )
    assert refused.value.code == "date_outside_season"
    assert refused.value.field == "date"
    assert "2027-03-01 is outside the season 2026" in refused.value.message
    assert f"Choose the season {later.name}" in refused.value.message
    assert not Session.objects.filter(name="Spring night").exists()


def test_a_session_dated_where_no_season_covers_it_is_told_to_open_one(
    club: Club, season: Season, director: Any
) -> None:
    with pytest.raises(UserError) as refused:
        services.session_create(
            club=club,
            season=season,
            name="Spring night",
            date=date(2031, 3, 1),
            rules_id="huckley-buck",
            games_per_sitting=2,
            new_names=["Ann", "Bob", "Cy"],
            user=director,
        )
    assert "open a season that covers it" in refused.value.message
