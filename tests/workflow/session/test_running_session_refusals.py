"""Every refusal of the services of a running session leaves the database exactly as it
was: movements and their undo, a second start, withdrawals, rebalancing and the finish.
The refusals of setting a session up are in test_service_refusals.py, whose rule (every
row of the project's tables compared before and after) these follow."""

from __future__ import annotations

import random

import pytest

from common.errors import ConflictError
from scoring import services as scoring
from scoring.models import Game
from tests.factories import PlayerFactory
from tests.workflow.session.test_service_refusals import (
    MakeSession,
    finished,
    first_round,
    refused,
    seated_at,
)
from tournaments.models import Session
from tournaments.permissions import SYSTEM
from workflow.session import movements, start_finish, withdrawals
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


# sitting_move_players -------------------------------------------------------------------


def test_a_movement_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


def test_a_movement_after_the_finish_is_refused(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_not_running",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


def test_a_movement_of_another_sitting_than_the_current_is_a_conflict(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(4))
    error = refused(
        "movement_already_confirmed",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=2, user=SYSTEM
        ),
    )
    assert isinstance(error, ConflictError)


def test_a_movement_while_tables_play_records_no_placing(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "sitting_unfinished",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


# sitting_undo_movement ------------------------------------------------------------------


def test_undoing_a_movement_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_there_is_no_movement_to_undo_in_the_first_sitting(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "nothing_to_undo",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_an_undo_after_the_new_sitting_has_a_round_keeps_both_sittings_whole(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(5))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    game = Game.objects.filter(table__sitting__session=session, table__sitting__number=2)[0]
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    refused(
        "new_sitting_started",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_an_undo_after_the_finish_is_refused(make_session: MakeSession) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(6))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    refused(
        "session_not_running",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


# session_start --------------------------------------------------------------------------


def test_a_second_start_draws_no_new_tables(make_session: MakeSession) -> None:
    session = make_session(8)
    error = refused(
        "session_started", lambda: start_finish.session_start(session_id=session.pk, user=SYSTEM)
    )
    assert isinstance(error, ConflictError)


# session_withdraw -----------------------------------------------------------------------


def test_withdrawing_a_player_who_is_not_on_the_roster_is_refused(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    outsider = PlayerFactory.create(club=session.club)
    refused(
        "not_on_roster",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=outsider.pk, user=SYSTEM
        ),
    )


def test_a_player_cannot_withdraw_twice(make_session: MakeSession) -> None:
    session = make_session(9)
    leaver = seated_at(session, 1)[0]
    withdrawals.session_withdraw(session_id=session.pk, player_id=leaver, user=SYSTEM)
    refused(
        "already_withdrawn",
        lambda: withdrawals.session_withdraw(session_id=session.pk, player_id=leaver, user=SYSTEM),
    )


def test_nobody_withdraws_from_a_finished_session(make_session: MakeSession) -> None:
    session = finished(make_session)
    player_id = seated_at(session, 1)[0]
    refused(
        "session_not_running",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_id, user=SYSTEM
        ),
    )


def test_a_refused_withdrawal_mid_game_leaves_every_seat_and_game_alone(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    player_id = seated_at(session, 1)[0]
    refused(
        "withdrawal_mid_game",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_id, user=SYSTEM
        ),
    )


# rebalance_proposal and session_rebalance -----------------------------------------------


def test_no_rebalance_is_proposed_before_the_start(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused("session_not_started", lambda: movements.rebalance_proposal(session=session))


def test_a_rebalance_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.session_rebalance(session_id=session.pk, expected=[], user=SYSTEM),
    )


def test_a_rebalance_of_too_few_players_to_make_a_table_is_refused(
    make_session: MakeSession,
) -> None:
    session = make_session(5)  # one table of five
    for player_id in seated_at(session, 1)[:3]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    refused(
        "too_few_players",
        lambda: movements.session_rebalance(session_id=session.pk, expected=[], user=SYSTEM),
    )


def test_a_stale_rebalance_moves_nobody(make_session: MakeSession) -> None:
    session = make_session(8)
    for player_id in seated_at(session, 2)[:2]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    proposal = movements.rebalance_proposal(session=session)
    assert proposal
    stale = [(m.player, m.from_rank, m.to_rank + 1) for m in proposal]
    error = refused(
        "proposal_changed",
        lambda: movements.session_rebalance(session_id=session.pk, expected=stale, user=SYSTEM),
    )
    assert isinstance(error, ConflictError)


def test_a_rebalance_that_would_move_a_player_mid_game_moves_nobody(
    make_session: MakeSession,
) -> None:
    """Four tables of four; three withdrawals from the top table leave 1-4-4-4, and the
    rebalance moves one player up from table 2, then one from table 3. Table 3 is mid-game:
    the second move is refused, and the first, already made, must be undone with it."""
    session = make_session(16)
    for player_id in seated_at(session, 1)[:3]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    proposal = movements.rebalance_proposal(session=session)
    assert [(m.from_rank, m.to_rank) for m in proposal] == [(2, 1), (3, 1)]
    game = Game.objects.get(table__sitting__session=session, table__rank=3)
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    expected = [(m.player, m.from_rank, m.to_rank) for m in proposal]
    error = refused(
        "move_mid_game",
        lambda: movements.session_rebalance(session_id=session.pk, expected=expected, user=SYSTEM),
    )
    assert "table 3" in error.message


# session_finish -------------------------------------------------------------------------


def test_a_session_that_has_not_started_cannot_be_finished(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM),
    )


def test_a_session_cannot_be_finished_twice(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_not_running",
        lambda: start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM),
    )


def test_finishing_with_unplayed_games_without_saying_early_keeps_no_standing(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    refused(
        "sitting_unfinished",
        lambda: start_finish.session_finish(session_id=session.pk, user=SYSTEM),
    )
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
