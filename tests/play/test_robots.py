"""Robots: a robot player's seat plays at once; a player away beyond the grace time is
played by a robot until they come back, through the following rounds, with no second
wait; a move whose clock runs out is a robot's; the record marks every robot's moves
(`play.robots`) and the engine accepts it. The robots move when the scheduler looks at
the table (`look`: what the scheduler does once the table's deadline comes) or inside
another player's move, never on a read."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from play import presence
from play.models import LiveRound
from scoring.models import Game, Round
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, look, play_table, send, settle, view_of
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def live(game: Game) -> LiveRound:
    return LiveRound.objects.get(game=game)


def turn_began(game: Game, seconds_ago: float) -> None:
    LiveRound.objects.filter(game=game).update(
        turn_started_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def not_seen_since(token: str, seconds_ago: float) -> None:
    """The holder of `token` was last at the phone `seconds_ago` (the first read may have
    been theirs)."""
    presence.seen(token, at=timezone.now() - timedelta(seconds=seconds_ago))


def test_a_robot_players_seat_plays_at_once_and_the_record_marks_it(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, start=False)
    robot = session.entries.order_by("player__name").first().player
    Player.objects.filter(pk=robot.pk).update(is_robot=True)
    from workflow.session import start_finish

    start_finish.session_start(session_id=session.pk, user=director)
    settle(session.pk)
    tokens = tokens_of(session, director)
    humans = {name: t for name, t in tokens.items() if name != robot.name}
    game = Game.objects.get(table__sitting__session=session, number=1)

    def never_the_robots_turn(token: str, view: dict[str, Any]) -> None:
        assert view["to_act"] != robot.name
        assert {p["name"]: p["robot"] for p in view["players"]}[robot.name] is True

    play_table(
        phone,
        humans,
        rng=random.Random(4),
        until=lambda: Round.objects.filter(game=game).exists(),
        check=never_the_robots_turn,
    )

    stored = Round.objects.get(game=game, number=1).data
    marks = stored["play"]["robots"]
    assert [m["player"] for m in marks] == [robot.name]
    assert marks[0]["moves"] >= len(stored["play"]["tricks"]) - 0  # a card a trick at least
    assert engine.check(game_record(game))["valid"]


def test_a_player_away_beyond_the_grace_time_is_played_by_a_robot_until_they_return(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, online_grace_seconds=30)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    others = [t for t in tokens.values()]
    view = view_of(phone, others[0])
    away = view["to_act"]
    not_seen_since(tokens[away], 3600)
    present = [t for name, t in tokens.items() if name != away]
    # Within the grace time nothing happens, and a read changes nothing.
    turn_began(game, 10)
    look(game.table_id)
    assert view_of(phone, present[0])["to_act"] == away
    assert live(game).history == []
    # Beyond it, the scheduler makes the robot's move for them.
    turn_began(game, 31)
    assert view_of(phone, present[0])["to_act"] == away
    look(game.table_id)
    after = view_of(phone, present[0])
    assert after["to_act"] != away
    last = live(game).history[-1]
    assert (last["player"], last["robot"], last["reason"]) == (away, True, "away")
    assert {p["name"]: p["away"] for p in after["players"]}[away] is True

    # While they stay away, each of their turns is played at once (no new wait).
    rng = random.Random(5)

    def robot_moves() -> list[dict[str, Any]]:
        return [h for h in live(game).history if h["player"] == away]

    for _ in range(40):
        if len(robot_moves()) >= 2:
            break
        view = view_of(phone, present[0])
        assert view["round"] == 1
        assert view["to_act"] != away
        token = tokens[view["to_act"]]
        mine = view_of(phone, token)
        answer = send(phone, token, choice_body(mine, rng.choice(mine["legal"]), rng))
        assert answer.status_code == 200
    assert len(robot_moves()) >= 2
    assert all(h["robot"] and h["reason"] == "away" for h in robot_moves())

    # They come back: their next turn is theirs to play.
    mine = view_of(phone, tokens[away])
    assert presence.last_seen(tokens[away]) is not None
    for _ in range(40):
        view = view_of(phone, tokens[away])
        if view["to_act"] == away:
            break
        token = tokens[view["to_act"]]
        theirs = view_of(phone, token)
        assert (
            send(phone, token, choice_body(theirs, rng.choice(theirs["legal"]), rng)).status_code
            == 200
        )
        view_of(phone, tokens[away])  # the phone keeps reading
    assert view["to_act"] == away
    assert view["legal"]
    assert mine["player"] == away


def test_the_move_clock_gives_a_present_players_move_to_a_robot(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, move_clock_seconds=30)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    view = view_of(phone, next(iter(tokens.values())))
    slow = view["to_act"]
    view_of(phone, tokens[slow])  # at the phone, thinking
    turn_began(game, 10)
    assert view_of(phone, tokens[slow])["to_act"] == slow
    assert view_of(phone, tokens[slow])["clock_seconds"] == 30

    turn_began(game, 31)
    look(game.table_id)
    after = view_of(phone, tokens[slow])

    assert after["to_act"] != slow
    last = live(game).history[-1]
    assert (last["player"], last["robot"], last["reason"]) == (slow, True, "clock")
    # The next player's clock starts afresh.
    assert after["to_act"] is not None
    assert view_of(phone, tokens[after["to_act"]])["to_act"] == after["to_act"]


def test_a_round_with_robot_moves_is_stored_with_its_marks(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, online_grace_seconds=30)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    view = view_of(phone, next(iter(tokens.values())))
    away = view["to_act"]
    not_seen_since(tokens[away], 3600)
    turn_began(game, 31)
    look(game.table_id)
    present = {name: t for name, t in tokens.items() if name != away}

    play_table(
        phone,
        present,
        rng=random.Random(8),
        until=lambda: Round.objects.filter(game=game).exists(),
    )

    stored = Round.objects.get(game=game, number=1).data
    history_moves = len(stored["play"]["robots"]) and stored["play"]["robots"][0]["moves"]
    assert stored["play"]["robots"][0]["player"] == away
    assert history_moves >= 1
    assert engine.check(game_record(game))["valid"]


def test_a_covered_player_is_played_at_once_in_the_next_round_with_no_second_wait(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, online_grace_seconds=30)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    away = view_of(phone, next(iter(tokens.values())))["to_act"]
    not_seen_since(tokens[away], 3600)
    turn_began(game, 31)
    look(game.table_id)
    present = {name: t for name, t in tokens.items() if name != away}
    play_table(phone, present, rng=random.Random(3), until=lambda: live(game).number == 2)
    # Round 2: every turn of theirs so far was the robot's, at once, inside the others'
    # moves or the deal: nobody waited the grace time again.
    play_table(
        phone,
        present,
        rng=random.Random(4),
        until=lambda: any(h["player"] == away for h in live(game).history),
    )
    theirs = [h for h in live(game).history if h["player"] == away]
    assert theirs
    assert all((h["robot"], h["reason"]) == (True, "away") for h in theirs)
    # Back at the phone: the seat is theirs at once.
    assert view_of(phone, tokens[away])["players"][0] is not None
    assert not {p["name"]: p["away"] for p in view_of(phone, tokens[away])["players"]}[away]
