"""The Big Loser across seasons (docs/tournament.md, Seasons): a director records a past
season's Big Loser from any player of the club, or by a name for one who left or was never
entered, even for a season with no session; the next season's first session seats them at
the bottom table."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from common.errors import UserError
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import AuditEntry, BigLoserAward, Player, Seating
from tournaments.permissions import SYSTEM
from workflow.club import services as club_services
from workflow.session import start_finish

pytestmark = pytest.mark.django_db


def open_last_year(club: Any, director: Any) -> Any:
    """A season of last year with no session, as a new club opens it for its Big Loser."""
    return club_services.season_open(
        club_id=club.pk,
        name="2025",
        starts_on=date(2025, 1, 1),
        ends_on=date(2025, 12, 31),
        user=director,
    )


def test_a_new_club_opens_a_past_season_and_records_a_player_who_never_played_it(
    club: Any, director: Any
) -> None:
    last_year = open_last_year(club, director)
    assert not last_year.sessions.exists()
    player = PlayerFactory(club=club, name="Cy Young")
    award = start_finish.big_loser_award(season_id=last_year.pk, player_id=player.pk, user=director)
    assert award.player == player
    assert BigLoserAward.objects.get(season=last_year).player == player


def test_a_name_typed_for_one_who_left_adds_them_to_the_club(club: Any, director: Any) -> None:
    last_year = open_last_year(club, director)
    award = start_finish.big_loser_award(
        season_id=last_year.pk, name="  Old   Tom ", note="left in May", user=director
    )
    tom = Player.objects.get(club=club, name="Old Tom")
    assert award.player == tom
    assert award.note == "left in May"
    assert AuditEntry.objects.filter(action="player.add").count() == 1


def test_a_name_the_club_knows_is_that_player_whatever_the_case(club: Any, director: Any) -> None:
    last_year = open_last_year(club, director)
    gone = PlayerFactory(club=club, name="Old Tom", active=False)
    award = start_finish.big_loser_award(season_id=last_year.pk, name="old tom", user=director)
    assert award.player == gone
    assert Player.objects.filter(club=club).count() == 1
    gone.refresh_from_db()
    assert not gone.active  # recording an old award does not bring them back


def test_a_look_alike_name_asks_first_then_adds_a_different_person(
    club: Any, director: Any
) -> None:
    last_year = open_last_year(club, director)
    PlayerFactory(club=club, name="Rosa Díaz")
    with pytest.raises(UserError) as caught:
        start_finish.big_loser_award(season_id=last_year.pk, name="Rosa Diaz", user=director)
    assert caught.value.code == "player_name_looks_like"
    assert not BigLoserAward.objects.exists()
    award = start_finish.big_loser_award(
        season_id=last_year.pk, name="Rosa Diaz", new_anyway=True, user=director
    )
    assert award.player.name == "Rosa Diaz"


def test_neither_a_player_nor_a_name_is_refused(club: Any, director: Any) -> None:
    last_year = open_last_year(club, director)
    with pytest.raises(UserError) as caught:
        start_finish.big_loser_award(season_id=last_year.pk, player_id=None, user=director)
    assert caught.value.code == "unknown_player"


def test_a_non_director_is_refused_and_nothing_is_added(club: Any, director: Any) -> None:
    last_year = open_last_year(club, director)
    stranger = UserFactory(username="stranger")
    with pytest.raises(PermissionDenied):
        start_finish.big_loser_award(season_id=last_year.pk, name="Old Tom", user=stranger)
    assert not Player.objects.filter(name="Old Tom").exists()
    assert not BigLoserAward.objects.exists()


def test_the_next_seasons_first_session_seats_last_years_big_loser_at_the_bottom_table(
    club: Any, season: Any, director: Any, make_session: Any
) -> None:
    last_year = open_last_year(club, director)
    session = make_session(13, start=False)  # three tables in the season 2026
    holder = Player.objects.get(club=club, name="Cy")
    start_finish.big_loser_award(season_id=last_year.pk, name="cy", user=SYSTEM)
    start_finish.session_start(session_id=session.pk, user=director)
    seating = Seating.objects.get(sitting__session=session, player=holder)
    assert seating.table.rank == 3
    session.refresh_from_db()
    assert session.big_loser == holder
