"""The director's robots: a robot fills a short online table (never a paper or a full
one, nor once a move was made), is marked apart from the standings, gets no rating; the director
and the standings are told when the clock ran out and a robot played. The director's other
pages for online play are in test_director_pages.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings import services as ratings
from ratings.models import Rating
from tests.play.director_sessions import online_session
from tests.play.rounds import store_online_round
from tournaments.models import Player, Seating, Session, Table
from tournaments.permissions import SYSTEM
from workflow.session import selectors
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


# -- Robots ----------------------------------------------------------------------------


def short_table(session: Session) -> Table:
    return min(
        Table.objects.filter(sitting__session=session),
        key=lambda t: t.seatings.filter(left_at__isnull=True).count(),
    )


def test_a_robot_fills_a_short_online_table_and_is_marked_apart_from_the_standings(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session, 3)
    table = short_table(session)
    assert table.seatings.count() == 3
    url = reverse("tournaments:online_robots", args=[table.pk])
    assert url in dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert dclient.get(url).status_code == 200  # the question
    dclient.post(url)
    robot = Seating.objects.get(table=table, seat=4).player
    assert (robot.name, robot.is_robot) == ("Robot 1", True)
    assert sorted(table.games.get(number=1).game_players.values_list("name", flat=True)) == sorted(
        Seating.objects.filter(table=table).values_list("player__name", flat=True)
    )
    # Never ranked: the standings list the three people, and name the robot apart.
    rows = [r.name for r in selectors.session_standings(session)]
    assert sorted(rows) == sorted(
        Seating.objects.filter(table=table, player__is_robot=False).values_list(
            "player__name", flat=True
        )
    )
    assert selectors.session_robots(session) == ["Robot 1"]
    page = dclient.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert 'Robot 1 <span class="muted">(robot)</span>' in page
    assert "are not ranked" in page


def test_a_robot_is_refused_at_a_paper_table_and_at_a_full_one(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(3)
    table = short_table(session)
    response = dclient.post(reverse("tournaments:online_robots", args=[table.pk]), follow=True)
    assert "plays on paper: a robot can only fill an online table" in response.content.decode()
    full = short_table(online_session(make_session, 4, seed=5))
    response = dclient.post(reverse("tournaments:online_robots", args=[full.pk]), follow=True)
    assert "is not short" in response.content.decode()
    assert not Player.objects.filter(is_robot=True).exists()


def test_a_second_robot_of_the_club_is_robot_2_and_a_robot_is_seated_again_next_night(
    make_session: Callable[..., Session], director: Any
) -> None:
    from play import director as play_director

    first = online_session(make_session, 6, rules_id="bluke")  # tables of three and three
    tables = list(Table.objects.filter(sitting__session=first).order_by("rank"))
    assert [t.seatings.count() for t in tables] == [3, 3]
    assert play_director.table_robot_seat(table_id=tables[0].pk, user=director) == ["Robot 1"]
    assert play_director.table_robot_seat(table_id=tables[1].pk, user=director) == ["Robot 2"]
    next_night = online_session(make_session, 3, seed=9)
    table = short_table(next_night)
    assert play_director.table_robot_seat(table_id=table.pk, user=director) == ["Robot 1"]
    assert Player.objects.filter(is_robot=True).count() == 2


def test_robots_get_no_rating_and_do_not_count(
    make_session: Callable[..., Session], director: Any, club: Any
) -> None:
    from play import director as play_director

    session = online_session(make_session, 3)
    table = short_table(session)
    play_director.table_robot_seat(table_id=table.pk, user=director)
    finish_sitting_unplayed(session.sittings.get(), __import__("random").Random(2))
    ratings.ratings_rebuild(club_id=club.pk, user=SYSTEM)
    rated = set(Rating.objects.filter(club=club).values_list("player__name", flat=True))
    assert "Robot 1" not in rated
    humans = set(
        Seating.objects.filter(table=table, player__is_robot=False).values_list(
            "player__name", flat=True
        )
    )
    assert humans <= rated
    # The humans of the robot's table ranked among themselves: three results a game.
    from ratings.models import RatingHistory

    game_ids = set(table.games.values_list("pk", flat=True))
    per_game = {g: RatingHistory.objects.filter(game_id=g).count() for g in game_ids}
    assert set(per_game.values()) == {3}


# -- A robot at a table under way ------------------------------------------------------


def test_the_director_sees_when_the_clock_ran_out_and_a_robot_played(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from play import services as play_services
    from play.models import LiveRound

    session = online_session(make_session, 4)
    Session.objects.filter(pk=session.pk).update(move_clock_seconds=5, online_grace_seconds=600)
    table = Table.objects.get(sitting__session=session)
    play_services.seat_links_ensure(session_id=session.pk, user=SYSTEM)
    live = LiveRound.objects.get(game__table=table)  # dealt once the tables went online
    first = play_services.selectors.watch_view(table.pk)["to_act"]
    manage = reverse("tournaments:manage", args=[session.pk])
    assert "a robot played" not in dclient.get(manage).content.decode()
    LiveRound.objects.filter(pk=live.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=10)
    )
    assert play_services.advance(table_id=table.pk)
    line = f"Round 1 of game 1: the move clock ran out for {first}; a robot played 1 move for them"
    assert line in dclient.get(manage).content.decode()
    watch = dclient.get(reverse("tournaments:online_watch", args=[table.pk])).content.decode()
    assert line in watch


def test_the_standings_say_how_many_moves_a_robot_made_for_a_player(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    game = table.games.get(number=1)
    first, second = game.game_players.order_by("seat").values_list("name", flat=True)[:2]
    store_online_round(game, seed=4, robots=[first])
    store_online_round(game, seed=5, robots=[first, second])
    rows = {r.name: r for r in selectors.session_standings(session)}
    assert (rows[first].robot_moves, rows[second].robot_moves) == (10, 5)
    assert sum(r.robot_moves for r in rows.values()) == 15
    page = client.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert "(a robot played 10 moves for them)" in page
    assert "(a robot played 5 moves for them)" in page


def test_a_robot_seated_after_the_deal_but_before_the_first_card_is_dealt_in(
    make_session: Callable[..., Session], director: Any
) -> None:
    from play import director as play_director
    from play import selectors as play_selectors
    from play import services as play_services

    session = online_session(make_session, 3)
    table = short_table(session)
    play_services.advance(table_id=table.pk)
    assert len(play_selectors.watch_view(table.pk)["counts"]) == 3
    play_director.table_robot_seat(table_id=table.pk, user=director)
    play_services.advance(table_id=table.pk)
    view = play_selectors.watch_view(table.pk)
    assert "Robot 1" in view["counts"]
    assert len(view["counts"]) == 4


def test_a_robot_is_refused_once_a_move_was_made_at_the_table(
    dclient: Client, make_session: Callable[..., Session], director: Any
) -> None:
    import random

    from rest_framework.test import APIClient

    from play.models import LiveRound
    from tests.play.conftest import tokens_of
    from tests.play.helpers import play_table

    session = online_session(make_session, 3)
    table = short_table(session)
    tokens = tokens_of(session, director)

    def moved() -> bool:
        return any(live.history for live in LiveRound.objects.filter(game__table=table))

    play_table(APIClient(), tokens, rng=random.Random(1), until=moved)
    response = dclient.post(reverse("tournaments:online_robots", args=[table.pk]), follow=True)
    assert "a robot can only fill a seat before the first card" in response.content.decode()
    assert not Player.objects.filter(is_robot=True).exists()
