"""Right after a movement, before any table has a result in the new sitting, every view of
the session's order (the standings page, the projector, the API, the printed standings)
puts each table's players in the order of their session totals so far: no coin flip
decides a place before anything is played (workflow.session.selectors.ladder_order)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from printing.sheets import session_ladder
from scoring.models import Game, GamePlayer
from tournaments.models import Seating, Session
from workflow.session import movements, selectors
from workflow.session.simulation import play_game, play_sitting

pytestmark = pytest.mark.django_db


@pytest.fixture
def moved(make_session: Callable[..., Session], director: Any) -> Session:
    """Sitting 1 played and the movement confirmed: sitting 2 has no result yet."""
    session = make_session(16)
    play_sitting(session.sittings.get(), seed=5)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    return session


def points(session: Session) -> dict[str, int]:
    """Each player's points over the session's finished games, summed here, apart from the
    code under test."""
    return {
        name: total or 0
        for name, total in GamePlayer.objects.filter(
            game__table__sitting__session=session, game__status=Game.Status.FINISHED
        )
        .values("player__name")
        .annotate(total=Sum("score"))
        .values_list("player__name", "total")
    }


def tables(session: Session) -> dict[str, int]:
    return dict(
        Seating.objects.filter(sitting__session=session, sitting__number=2).values_list(
            "player__name", "table__rank"
        )
    )


def assert_ordered_by_table_then_session_points(session: Session, names: list[str]) -> None:
    at, scored = tables(session), points(session)
    assert sorted(names) == sorted(at)
    keys = [(at[name], -scored[name]) for name in names]
    assert keys == sorted(keys), list(zip(names, keys, strict=True))


def test_the_scenario_is_one_a_coin_flip_would_get_wrong(moved: Session) -> None:
    at, scored = tables(moved), points(moved)
    for rank in set(at.values()):
        assert len({scored[n] for n in at if at[n] == rank}) > 1  # unequal at every table


def test_before_a_tables_first_result_its_players_are_in_the_order_of_their_session_points(
    moved: Session,
) -> None:
    rows = selectors.session_standings(moved)
    assert_ordered_by_table_then_session_points(moved, [r.name for r in rows])
    for row in rows:
        assert "coin flip" not in row.why
        assert "no result at this table yet in this sitting" in row.why
        assert f"{row.points} point" in row.why


def test_a_tables_first_result_puts_it_back_in_the_order_of_the_sitting(moved: Session) -> None:
    sitting = moved.sittings.get(number=2)
    game = Game.objects.get(table__sitting=sitting, table__rank=1, number=1)
    play_game(game, seed=3)
    rows = selectors.session_standings(moved)
    at_one = [r for r in rows if r.table_rank == 1]
    order = selectors.sitting_order(sitting, selectors.fmt.format_for(moved.rules_id))
    expected = [p.player for p in order.tables[0].placings]
    assert [r.player_id for r in at_one] == expected
    assert all("no result at this table yet" not in r.why for r in at_one)
    assert all("no result at this table yet" in r.why for r in rows if r.table_rank == 2)


def test_the_standings_page_shows_that_order_with_no_coin_flip(moved: Session) -> None:
    html = Client().get(reverse("tournaments:standings", args=[moved.pk])).content.decode()
    names = re.findall(
        r'<tr class="standing"><td class="num">\d+</td><td class="name"><a [^>]*>([^<]+)</a>', html
    )
    assert_ordered_by_table_then_session_points(moved, names)
    assert "the coin flip" not in html  # no player's line says a coin decided it


def test_the_projector_shows_that_order(moved: Session) -> None:
    html = Client().get(reverse("tournaments:screen_live", args=[moved.pk])).content.decode()
    standings = html[html.index('class="screen-standings"') :]
    names = re.findall(r'<tr><td class="num">\d+</td><td class="name">([^<]+)', standings)
    assert_ordered_by_table_then_session_points(moved, names)


def test_the_api_gives_that_order(moved: Session) -> None:
    rows = APIClient().get(f"/api/sessions/{moved.pk}/standings/").json()
    assert_ordered_by_table_then_session_points(moved, [r["name"] for r in rows])


def test_the_printed_standings_give_that_order(moved: Session) -> None:
    ladder = session_ladder(moved)
    assert_ordered_by_table_then_session_points(moved, [row[1] for row in ladder.rows])
