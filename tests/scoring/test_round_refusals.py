"""Every refusal of round entry, correction and deletion leaves the database as it was.

Each test triggers one `UserError` of `scoring.services` and compares every row of the
project's tables before and after: no round, no history line, no pending entry, no game
summary and no next game may be half-written. The refusals of the rules themselves
(a wrong total, a drop at four, a round after the end) are in `test_round_entry.py`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from common.errors import ConflictError, UserError
from scoring import services, tables
from scoring.models import Game, Round
from tests.scoring.helpers import (
    A_WINS,
    B_WINS_ROUND_4,
    MakeSession,
    play,
    split,
    top_game,
)
from tests.snapshots import changed_tables, db_snapshot
from tournaments.permissions import SYSTEM
from workflow.session import movements, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def refused(code: str, call: Callable[[], object]) -> UserError:
    """Run `call`, expect the refusal `code`, and check that no table changed."""
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert changed_tables(before) == []
    return caught.value


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    """Game 1 at the top table of two tables of four."""
    return top_game(make_session(8))


@pytest.fixture
def decided(game: Game) -> Game:
    """Game 1 won by its first dealer, and game 2 started with one round entered."""
    play(game, A_WINS)
    following = Game.objects.get(table=game.table, number=2)
    services.round_submit(game_id=following.pk, number=1, data=split(following, 3, 2), actor=SYSTEM)
    return game


Write = Callable[[Game], object]


def submit(number: int, data: Any = None) -> Write:
    return lambda g: services.round_submit(
        game_id=g.pk, number=number, data=split(g, 3, 2) if data is None else data, actor=SYSTEM
    )


def correct(number: int, data: Any = None) -> Write:
    return lambda g: services.round_correct(
        game_id=g.pk, number=number, data=split(g, 2, 3) if data is None else data, actor=SYSTEM
    )


def delete(number: int) -> Write:
    return lambda g: services.round_delete(game_id=g.pk, number=number, actor=SYSTEM)


WRITES = {
    "enter": submit(2),
    "correct": correct(1),
    "delete": delete(1),
}


def test_no_write_reaches_a_game_that_does_not_exist(game: Game) -> None:
    submit(1)(game)
    data = split(game, 2, 3)
    missing = 10**9
    for call in [
        lambda: services.round_submit(game_id=missing, number=2, data=data, actor=SYSTEM),
        lambda: services.round_correct(game_id=missing, number=1, data=data, actor=SYSTEM),
        lambda: services.round_delete(game_id=missing, number=1, actor=SYSTEM),
    ]:
        refused("no_such_game", call)


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_no_result_changes_once_the_session_is_finished(game: Game, write: Write) -> None:
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM)
    session = game.table.sitting.session
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    refused("session_not_running", lambda: write(game))


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_no_result_changes_once_the_players_moved_on(
    make_session: MakeSession, write: Write
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(2))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    old = top_game(session)
    error = refused("sitting_closed", lambda: write(old))
    assert "undo the movement" in error.message


# Not a mapping, on purpose: what a client that sends a JSON list or string passes on.
NOT_AN_OBJECT: Any = ["tricks"]


@pytest.mark.parametrize(
    "write",
    [
        lambda g: services.round_submit(game_id=g.pk, number=1, data=NOT_AN_OBJECT, actor=SYSTEM),
        lambda g: services.round_correct(game_id=g.pk, number=1, data=NOT_AN_OBJECT, actor=SYSTEM),
    ],
    ids=["enter", "correct"],
)
def test_a_round_that_is_not_an_object_is_refused(game: Game, write: Write) -> None:
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM)
    refused("round_not_an_object", lambda: write(game))


def test_a_round_number_ahead_of_the_game_stores_nothing(game: Game) -> None:
    error = refused("round_number_out_of_order", lambda: submit(2)(game))
    assert isinstance(error, ConflictError)


def test_a_different_round_under_a_taken_number_stores_nothing(game: Game) -> None:
    submit(1)(game)
    error = refused("round_number_taken", lambda: submit(1, split(game, 2, 3))(game))
    assert isinstance(error, ConflictError)


@pytest.mark.parametrize(
    "write", [correct(2), delete(2), delete(0)], ids=["correct", "delete", "0"]
)
def test_a_round_that_was_never_entered_cannot_be_changed(game: Game, write: Write) -> None:
    submit(1)(game)
    refused("no_such_round", lambda: write(game))


def test_a_correction_the_rules_refuse_stores_nothing(game: Game) -> None:
    submit(1)(game)
    error = refused("round_invalid", lambda: correct(1, split(game, 3, 3))(game))
    assert error.details
    assert all(e["round"] == 1 for e in error.details)


def test_a_correction_that_ends_the_game_before_a_later_round_stores_nothing(
    game: Game,
) -> None:
    play(game, A_WINS)
    # Five tricks in round 3 take the first dealer to 11 there: round 4 would come after
    # the end of the game.
    error = refused("later_round_invalid", lambda: correct(3, split(game, 5, 0))(game))
    assert "round 4" in error.message


def test_a_correction_that_hands_a_started_next_game_another_dealer_is_refused(
    decided: Game,
) -> None:
    error = refused(
        "next_game_started", lambda: correct(4, split(decided, *B_WINS_ROUND_4))(decided)
    )
    assert "game 2" in error.message


def test_deleting_the_winning_round_while_the_next_game_has_rounds_is_refused(
    decided: Game,
) -> None:
    refused("next_game_started", lambda: delete(4)(decided))


def test_a_correction_that_keeps_the_winner_leaves_the_started_next_game_alone(
    decided: Game,
) -> None:
    following = Game.objects.get(table=decided.table, number=2)
    services.round_correct(game_id=decided.pk, number=4, data=split(decided, 4, 1), actor=SYSTEM)
    assert Game.objects.get(table=decided.table, number=2).pk == following.pk
    assert Round.objects.filter(game=following).count() == 1


def test_a_game_with_rounds_keeps_its_players(game: Game) -> None:
    submit(1)(game)
    game.refresh_from_db()
    refused("game_in_progress", lambda: tables.game_refresh_players(game=game))
