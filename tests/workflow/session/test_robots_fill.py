"""Robots fill seats (docs/tournament.md, "Robots fill seats"): an online session with
`fill_with_robots` seats everyone at the start and at every movement, robots taking the
seats the format leaves (Buck Euchre: tables of exactly four; Huckley Buck: three to
seven), and the robots are never ranked: not in the movement, the standings, the ladder,
the awards or the ratings. The session's settings for it are in tests/api and tests/web."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ratings import services as ratings
from ratings.models import Rating, RatingHistory
from scoring.models import Game
from scoring.records import game_record
from tournaments.models import AuditEntry, Placing, Player, Seating, Session, SitOut, Sitting
from tournaments.permissions import SYSTEM
from workflow.club import selectors as club_selectors
from workflow.session import movements, online_settings, selectors, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed, generated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def filled(club: Any, season: Any, director: Any) -> Any:
    """`filled(players, rules_id=...)`: an online session that fills with robots, its
    players checked in, started (unless `start=False`)."""

    def make(
        players: int,
        *,
        rules_id: str = "buck-euchre",
        fill: bool = True,
        start: bool = True,
        seed: int = 7,
    ) -> Session:
        session = services.session_create(
            club=club,
            season=season,
            name="Robots night",
            date=season.starts_on,
            rules_id=rules_id,
            games_per_sitting=2,
            new_names=generated_names(players),
            seed=seed,
            online=True,
            fill_with_robots=fill,
            user=director,
        )
        session.entries.update(checked_in=True)
        if start:
            start_finish.session_start(session_id=session.pk, user=director)
        session.refresh_from_db()
        return session

    return make


def tables_of(sitting: Sitting) -> list[list[tuple[str, bool]]]:
    """Each table of the sitting, in rank order: (name, robot) in seat order."""
    result: dict[int, list[tuple[str, bool]]] = {}
    for rank, name, robot in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True)
        .order_by("table__rank", "seat")
        .values_list("table__rank", "player__name", "player__is_robot")
    ):
        result.setdefault(rank, []).append((name, robot))
    return [result[rank] for rank in sorted(result)]


def people(session: Session) -> set[str]:
    return set(
        session.entries.filter(player__is_robot=False).values_list("player__name", flat=True)
    )


def robots_at(tables: list[list[tuple[str, bool]]]) -> list[int]:
    return [sum(robot for _, robot in table) for table in tables]


# -- The start -----------------------------------------------------------------------------


def test_seven_players_of_buck_euchre_start_at_two_tables_with_one_robot(filled: Any) -> None:
    session = filled(7)
    sitting = session.sittings.get()
    tables = tables_of(sitting)
    # Nobody sits out: two tables of four, the robot in the bottom table's last seat.
    assert [len(t) for t in tables] == [4, 4]
    assert robots_at(tables) == [0, 1]
    assert tables[1][-1] == ("Robot 1", True)
    assert not SitOut.objects.filter(sitting=sitting).exists()
    assert {name for t in tables for name, robot in t if not robot} == people(session)
    # The robot is on the roster, checked in, and plays the game of its table.
    robot = Player.objects.get(name="Robot 1", club=session.club)
    assert session.entries.get(player=robot).checked_in
    game = Game.objects.get(table__sitting=sitting, table__rank=2, number=1)
    assert "Robot 1" in game_record(game)["players"]
    assert game_record(game)["robots"] == ["Robot 1"]
    start = AuditEntry.objects.get(session=session, action="session.start")
    assert start.summary == "Started the session: 7 players at 2 tables, 1 robot"


def test_without_robots_seven_players_of_buck_euchre_leave_three_out(filled: Any) -> None:
    sitting = filled(7, fill=False).sittings.get()
    assert [len(t) for t in tables_of(sitting)] == [4]
    assert SitOut.objects.filter(sitting=sitting).count() == 3
    assert not Player.objects.filter(is_robot=True).exists()


def test_three_players_of_buck_euchre_make_a_table_with_a_robot(filled: Any) -> None:
    session = filled(3, start=False)
    assert start_finish.start_refusal(session, 3) is None
    without = filled(3, fill=False, start=False, seed=8)
    refusal = start_finish.start_refusal(without, 3)
    assert refusal is not None
    assert "a table needs at least 4" in refusal.message

    start_finish.session_start(session_id=session.pk, user=SYSTEM)

    tables = tables_of(session.sittings.get())
    assert [len(t) for t in tables] == [4]
    assert robots_at(tables) == [1]


@pytest.mark.parametrize(
    ("players", "sizes", "robots"),
    [(2, [3], [1]), (3, [3], [0]), (7, [7], [0]), (11, [6, 5], [0, 0])],
)
def test_huckley_buck_takes_a_robot_only_below_three_players(
    filled: Any, players: int, sizes: list[int], robots: list[int]
) -> None:
    tables = tables_of(filled(players, rules_id="huckley-buck").sittings.get())
    assert [len(t) for t in tables] == sizes
    assert robots_at(tables) == robots


def test_a_robot_on_the_roster_is_never_a_player_of_the_split(filled: Any) -> None:
    session = filled(8, start=False)
    robot = Player.objects.create(club=session.club, name="Robot 1", is_robot=True)
    session.entries.create(player=robot, checked_in=True)
    start_finish.session_start(session_id=session.pk, user=SYSTEM)
    tables = tables_of(session.sittings.get())
    assert [len(t) for t in tables] == [4, 4]
    assert robots_at(tables) == [0, 0]


# -- The movement and its undo -------------------------------------------------------------


def move_on(session: Session, director: Any, seed: int = 1) -> Sitting:
    sitting = selectors.require_current_sitting(session)
    finish_sitting_unplayed(sitting, random.Random(seed))
    return movements.sitting_move_players(
        session_id=session.pk, sitting_number=sitting.number, user=director
    )


def test_the_movement_ranks_the_people_and_fills_the_robots_seat_again(
    filled: Any, director: Any
) -> None:
    session = filled(7)
    first = session.sittings.get()
    finish_sitting_unplayed(first, random.Random(3))
    preview = movements.movement_preview(sitting=first)
    # The robot is never ranked: the preview places the people only, 4 and 3.
    assert [len(placings) for _, placings in preview.tables] == [4, 3]
    robot = Player.objects.get(is_robot=True)
    assert robot.pk not in {m.player for m in preview.moves}

    second = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)

    assert not Placing.objects.filter(sitting=first, player=robot).exists()
    assert Placing.objects.filter(sitting=first).count() == 7
    tables = tables_of(second)
    assert [len(t) for t in tables] == [4, 4]
    # Table 1 keeps its better two and takes table 2's best: three people and the robot.
    assert robots_at(tables) == [1, 0]
    assert {name for t in tables for name, robot in t if not robot} == people(session)
    assert not SitOut.objects.filter(sitting=second).exists()
    # Each table's first game seats its four, the robot's record naming it.
    records = [game_record(g) for g in Game.objects.filter(table__sitting=second, number=1)]
    assert sorted(len(r["players"]) for r in records) == [4, 4]
    assert sorted(r.get("robots", []) for r in records) == [[], ["Robot 1"]]
    third = move_on(session, director, seed=4)
    assert sum(robots_at(tables_of(third))) == 1


def test_the_undo_of_a_movement_gives_back_the_sitting_with_its_robot(
    filled: Any, director: Any
) -> None:
    session = filled(7)
    before = tables_of(session.sittings.get())
    move_on(session, director)

    back = movements.sitting_undo_movement(session_id=session.pk, user=director)

    assert back.number == 1
    assert tables_of(back) == before
    again = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    assert sum(robots_at(tables_of(again))) == 1


def test_three_players_of_buck_euchre_keep_their_robot_through_the_movements(
    filled: Any, director: Any
) -> None:
    session = filled(3)
    for _ in range(2):
        tables = tables_of(move_on(session, director))
        assert [len(t) for t in tables] == [4]
        assert robots_at(tables) == [1]


def test_filling_turned_on_mid_session_brings_those_sitting_out_back(
    filled: Any, director: Any
) -> None:
    session = filled(7, fill=False)
    assert SitOut.objects.filter(sitting=session.sittings.get()).count() == 3
    online_settings.session_online_settings(
        session_id=session.pk,
        online_grace_seconds=60,
        move_clock_seconds=None,
        fill_with_robots=True,
        user=director,
    )
    tables = tables_of(move_on(session, director))
    assert [len(t) for t in tables] == [4, 4]
    assert sum(robots_at(tables)) == 1
    assert {name for t in tables for name, robot in t if not robot} == people(session)


def test_huckley_buck_after_a_withdrawal_fills_only_what_the_players_cannot(
    filled: Any, director: Any
) -> None:
    from workflow.session import withdrawals

    session = filled(2, rules_id="huckley-buck")
    assert robots_at(tables_of(session.sittings.get())) == [1]
    services.session_add_players(session_id=session.pk, new_names=["Late Lou"], user=director)
    # Three people now: the robot's seat is not filled again.
    tables = tables_of(move_on(session, director))
    assert robots_at(tables) == [0]
    assert len(tables[0]) == 3
    quitter = Seating.objects.filter(sitting__number=2, player__is_robot=False).first()
    assert quitter is not None
    withdrawals.session_withdraw(session_id=session.pk, player_id=quitter.player_id, user=director)
    assert robots_at(tables_of(move_on(session, director, seed=5))) == [1]


# -- Never ranked, rated or awarded -----------------------------------------------------------


def test_standings_ladder_awards_and_ratings_never_list_a_robot(
    filled: Any, director: Any, club: Any, season: Any
) -> None:
    session = filled(7)
    move_on(session, director)
    finish_sitting_unplayed(selectors.require_current_sitting(session), random.Random(9))
    robot = Player.objects.get(is_robot=True)
    # The robot played and won games: its results are kept on its games, never ranked.
    assert Game.objects.filter(game_players__player=robot).count() == 4
    start_finish.session_finish(session_id=session.pk, user=director)

    standings = selectors.session_standings(session)
    assert {r.name for r in standings} == people(session)
    assert [r.position for r in standings] == list(range(1, 8))
    assert selectors.session_robots(session) == ["Robot 1"]
    assert not session.standings.filter(player=robot).exists()
    ladder = club_selectors.season_standings(season.pk)
    assert {r.player.name for r in ladder} == people(session)
    awards = club_selectors.season_awards(season.pk)
    assert robot.pk not in {r.player.pk for r in awards.most_wins}
    for criterion in ("hooks", "points"):
        suggested = club_selectors.big_loser_suggestion(season.pk, criterion)
        assert robot.pk not in {r.player.pk for r in suggested}
    ratings.ratings_rebuild(club_id=club.pk, user=SYSTEM)
    assert not Rating.objects.filter(player=robot).exists()
    assert Rating.objects.filter(club=club).count() == 7
    # Each game of the robot's table is rated among its three people.
    games = Game.objects.filter(game_players__player=robot)
    assert {RatingHistory.objects.filter(game=g).count() for g in games} == {3}
