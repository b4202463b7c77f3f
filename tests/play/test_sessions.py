"""Online play through a session: the seat link follows its player through a movement
the director confirms as usual; a hybrid night (two online tables, two on paper) runs
through a movement to the standings; the director's seats list and table switch, and
who is refused them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from play import services as play_services
from play.models import SeatLink
from scoring.models import Game
from scoring.records import game_record
from tests.factories import ClubFactory, UserFactory
from tests.play.conftest import tokens_of
from tests.play.helpers import view_of
from tournaments.models import AuditEntry, Player, Seating, Table
from workflow.session.selectors import session_standings
from workflow.session.simulation import play_game

pytestmark = pytest.mark.django_db


def robots_play_out(table: Table) -> None:
    """The robots seated at an online table play its games of the sitting."""
    for _ in range(200):
        play_services.advance(table_id=table.pk)
        games = Game.objects.filter(table=table)
        if games.count() == table.sitting.games_per_sitting and all(
            g.status == Game.Status.FINISHED for g in games
        ):
            return
    raise AssertionError("the robots did not finish the sitting")


def seat_robots(tables: list[Table]) -> None:
    Player.objects.filter(seatings__table__in=tables, seatings__left_at__isnull=True).update(
        is_robot=True
    )


def test_the_seat_link_follows_its_player_through_the_movement(
    online_session: Any,
    director: Any,
    director_client: APIClient,
    phone: APIClient,
    django_capture_on_commit_callbacks: Any,
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    sitting = session.sittings.get()
    tables = list(sitting.tables.order_by("rank"))
    assert [t.online for t in tables] == [True, True]
    seat_robots(tables)
    for table in tables:
        robots_play_out(table)
    for game in Game.objects.filter(table__sitting=sitting):
        assert engine.check(game_record(game))["valid"]
        assert all(r.data["play"]["robots"] for r in game.rounds.all())
    before = {name: view_of(phone, t) for name, t in tokens.items()}
    assert {v["status"] for v in before.values()} == {"waiting"}
    assert {v["phase"] for v in before.values()} == {"done"}
    # The players are back at their phones (a robot is never ranked in the movement).
    Player.objects.update(is_robot=False)

    Player.objects.update(is_robot=False)  # the players are back at their phones
    with django_capture_on_commit_callbacks(execute=True):  # the movement's commit
        moved = director_client.post(
            f"/api/sessions/{session.pk}/movement/", {"sitting": 1}, format="json"
        )

    assert moved.status_code == 201, moved.content
    new = session.sittings.get(number=2)
    assert [t.online for t in new.tables.order_by("rank")] == [True, True]
    for name, token in tokens.items():
        view = view_of(phone, token)
        seat = Seating.objects.select_related("table").get(sitting=new, player__name=name)
        assert (view["sitting"], view["table"], view["seat"]) == (2, seat.table.rank, seat.seat)
        assert view["status"] == "playing"
        assert view["game"] == Game.objects.get(table=seat.table, number=1).pk
    assert SeatLink.objects.filter(session=session).count() == 8  # the same links


def test_a_hybrid_night_runs_through_a_movement_to_the_standings(
    online_session: Any, director: Any, director_client: APIClient, phone: APIClient
) -> None:
    session = online_session(16, online=False)
    sitting = session.sittings.get()
    tables = list(sitting.tables.order_by("rank"))
    assert len(tables) == 4
    assert not any(t.online for t in tables)
    for table in tables[:2]:
        answer = director_client.patch(f"/api/tables/{table.pk}/", {"online": True}, format="json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["online"] is True
    tokens = tokens_of(session, director)
    paper_player = Seating.objects.filter(table=tables[3]).first().player.name
    assert view_of(phone, tokens[paper_player])["status"] == "paper"
    assert view_of(phone, tokens[paper_player])["hand"] == []

    seat_robots(tables[:2])
    for table in tables[:2]:
        robots_play_out(table)
    for table in tables[2:]:
        for number in (1, 2):
            play_game(Game.objects.get(table=table, number=number), seed=number)
    Player.objects.update(is_robot=False)  # back at their phones: ranked as people
    moved = director_client.post(
        f"/api/sessions/{session.pk}/movement/", {"sitting": 1}, format="json"
    )
    assert moved.status_code == 201, moved.content

    new = list(session.sittings.get(number=2).tables.order_by("rank"))
    assert [t.online for t in new] == [True, True, False, False]
    standings = session_standings(session)
    assert len(standings) == 16
    assert all(row.games_played == 2 for row in standings)
    assert AuditEntry.objects.filter(session=session, action="play.table_online").count() == 2


@pytest.fixture
def running(online_session: Any) -> Any:
    return online_session(4)


def stranger_clients(running: Any) -> dict[str, APIClient]:
    no_role = APIClient()
    no_role.force_authenticate(UserFactory.create(username="no-role"))
    other = APIClient()
    elsewhere = UserFactory.create(username="other-director")
    ClubFactory.create().directors.add(elsewhere)
    other.force_authenticate(elsewhere)
    return {"anonymous": APIClient(), "no role": no_role, "another club": other}


def test_the_seats_list_is_for_the_clubs_directors_only(
    running: Any, director_client: APIClient
) -> None:
    for who, client in stranger_clients(running).items():
        answer = client.get(f"/api/sessions/{running.pk}/seats/")
        assert answer.status_code in (401, 403), who
        assert "token" not in answer.content.decode(), who
    assert not SeatLink.objects.exists()

    answer = director_client.get(f"/api/sessions/{running.pk}/seats/")

    assert answer.status_code == 200
    rows = answer.json()
    assert len(rows) == 4
    assert {r["table"] for r in rows} == {1}
    assert all(r["url"].endswith(f"/play/{r['token']}/") for r in rows)
    assert AuditEntry.objects.filter(action="play.seat_links").count() == 1
    assert director_client.get(f"/api/sessions/{running.pk}/seats/").json() == rows
    assert AuditEntry.objects.filter(action="play.seat_links").count() == 1


def test_the_table_switch_is_for_the_clubs_directors_only(
    running: Any, director_client: APIClient
) -> None:
    table = running.sittings.get().tables.get()
    for who, client in stranger_clients(running).items():
        answer = client.patch(f"/api/tables/{table.pk}/", {"online": False}, format="json")
        assert answer.status_code in (401, 403), who
    table.refresh_from_db()
    assert table.online is True
    switched = director_client.patch(
        f"/api/tables/{table.pk}/", {"online": False, "confirm": True}, format="json"
    )
    assert switched.json()["online"] is False


def test_the_online_settings_in_the_session_detail_and_its_patch(
    running: Any, director_client: APIClient
) -> None:
    url = f"/api/sessions/{running.pk}/"
    detail = director_client.get(url).json()
    assert (detail["online"], detail["online_grace_seconds"], detail["move_clock_seconds"]) == (
        True,
        60,
        None,
    )
    changed = director_client.patch(
        url, {"online_grace_seconds": 30, "move_clock_seconds": 45}, format="json"
    )
    assert changed.status_code == 200
    assert (changed.json()["online_grace_seconds"], changed.json()["move_clock_seconds"]) == (
        30,
        45,
    )
    refused = director_client.patch(url, {"online": False}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "session_started")
    bad = director_client.patch(url, {"move_clock_seconds": 1}, format="json")
    assert (bad.status_code, bad.json()["field"]) == (400, "move_clock_seconds")


def test_a_new_session_may_be_online(club: Any, season: Any, director_client: APIClient) -> None:
    answer = director_client.post(
        f"/api/clubs/{club.slug}/sessions/",
        {"season": season.pk, "name": "Snowed in", "date": str(season.starts_on), "online": True},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["online"] is True
