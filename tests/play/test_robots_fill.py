"""A Buck Euchre online session of seven with `fill_with_robots` plays a whole sitting: the
people's phones move through the API, the robot plays itself (`play.scheduler`, on
every move and read), every stored game is one the engine accepts and names its robot,
and the movement seats everyone again with the robot's seat filled anew."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from scoring.models import Game
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import play_table, settle, view_of
from tournaments.models import Seating, Session, SitOut, Table
from workflow.session import services, start_finish
from workflow.session.simulation import generated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club: Any, season: Any, director: Any) -> Session:
    session = services.session_create(
        club=club,
        season=season,
        name="Seven and a robot",
        date=season.starts_on,
        rules_id="buck-euchre",
        games_per_sitting=2,
        new_names=generated_names(7),
        seed=11,
        online=True,
        fill_with_robots=True,
        user=director,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    settle(session.pk)  # the tables dealt, as the start's commit would
    session.refresh_from_db()
    return session


def sitting_over(table: Table) -> Callable[[], bool]:
    def over() -> bool:
        games = Game.objects.filter(table=table)
        return games.count() == table.sitting.games_per_sitting and all(
            g.status == Game.Status.FINISHED for g in games
        )

    return over


def people_at(table: Table) -> list[str]:
    return list(
        Seating.objects.filter(table=table, left_at__isnull=True, player__is_robot=False)
        .order_by("seat")
        .values_list("player__name", flat=True)
    )


def test_seven_of_buck_euchre_and_a_robot_play_a_whole_sitting_and_move_on(
    night: Session,
    director: Any,
    director_client: APIClient,
    phone: APIClient,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tokens = tokens_of(night, director)
    sitting = night.sittings.get()
    tables = list(sitting.tables.order_by("rank"))
    assert [len(people_at(t)) for t in tables] == [4, 3]

    def never_asked_of_the_robot(token: str, view: dict[str, Any]) -> None:
        assert view["to_act"] != "Robot 1"
        if view["status"] == "playing":
            marked = {p["name"]: p["robot"] for p in view["players"]}
            assert marked.get("Robot 1", True) is True
            assert not any(robot for name, robot in marked.items() if name != "Robot 1")

    for table in tables:
        mine = {name: tokens[name] for name in people_at(table)}
        play_table(
            phone,
            mine,
            rng=random.Random(table.rank),
            until=sitting_over(table),
            check=never_asked_of_the_robot,
        )

    for game in Game.objects.filter(table__sitting=sitting):
        record = game_record(game)
        assert engine.check(record)["valid"]
        robot_table = game.table_id == tables[1].pk
        assert record.get("robots", []) == (["Robot 1"] if robot_table else [])
        # The robot played every move of its seat; nobody else's moves were a robot's.
        for stored in record["rounds"]:
            marks = stored["play"].get("robots", [])
            if robot_table:
                assert [m["player"] for m in marks] == ["Robot 1"]
                assert marks[0]["moves"] > 0
            else:
                assert marks == []

    with django_capture_on_commit_callbacks(execute=True):  # the movement's commit
        moved = director_client.post(
            f"/api/sessions/{night.pk}/movement/", {"sitting": 1}, format="json"
        )

    assert moved.status_code == 201, moved.content
    new = night.sittings.get(number=2)
    assert not SitOut.objects.filter(sitting=new).exists()
    seatings = [t["seatings"] for t in moved.json()["tables"]]
    assert [len(s) for s in seatings] == [4, 4]
    assert sum(s["robot"] for table in seatings for s in table) == 1
    # Every person's seat link follows them to the new sitting, where the cards are dealt.
    people = [name for name in tokens if name != "Robot 1"]
    assert len(people) == 7
    for name in people:
        view = view_of(phone, tokens[name])
        seat = Seating.objects.select_related("table").get(sitting=new, player__name=name)
        assert (view["sitting"], view["table"], view["seat"]) == (2, seat.table.rank, seat.seat)
        assert view["status"] == "playing"
    standings = director_client.get(f"/api/sessions/{night.pk}/standings/").json()
    assert sorted(r["name"] for r in standings) == sorted(people)
    assert all(r["games_played"] == 2 for r in standings)
