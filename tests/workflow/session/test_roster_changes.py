"""Late arrivals, withdrawals, rebalancing and finishing (docs/format.md rule 7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from common.errors import UserError
from scoring import records
from scoring import services as scoring
from scoring.models import Game
from tournaments.models import Seating, Session, SessionPlayer, SessionStanding
from tournaments.permissions import SYSTEM
from workflow.session import movements, selectors, services, start_finish, withdrawals
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.session.simulation import play_game

pytestmark = pytest.mark.django_db


def first_round(game: Game) -> dict[str, Any]:
    record = records.game_record(game)
    players = record["players"]
    taker = players[(players.index(record["first_dealer"]) + 1) % len(players)]
    return {"tricks": {taker: 5}}


def test_a_late_arrival_joins_the_bottom_table(make_session: Any) -> None:
    session = make_session(9)  # tables of 5 and 4
    services.session_add_players(session_id=session.pk, new_names=["Latecomer"], user=SYSTEM)
    seating = Seating.objects.get(sitting__session=session, player__name="Latecomer")
    assert seating.table.rank == 2
    assert seating.seat == 5
    entry = SessionPlayer.objects.get(session=session, player__name="Latecomer")
    assert entry.arrived_late
    assert entry.checked_in
    # The bottom table's game had no round yet, so the newcomer plays in it.
    game = Game.objects.get(table=seating.table, number=1)
    assert "Latecomer" in set(game.game_players.values_list("name", flat=True))


def test_a_late_arrival_waits_for_the_next_game_when_one_is_under_way(make_session: Any) -> None:
    session = make_session(8)
    bottom = Game.objects.get(table__sitting__session=session, table__rank=2)
    scoring.round_submit(game_id=bottom.pk, number=1, data=first_round(bottom), actor=SYSTEM)
    services.session_add_players(session_id=session.pk, new_names=["Latecomer"], user=SYSTEM)
    assert "Latecomer" not in set(bottom.game_players.values_list("name", flat=True))
    assert Seating.objects.filter(table=bottom.table, left_at__isnull=True).count() == 5


def test_withdrawal_mid_game_is_refused(make_session: Any) -> None:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    leaver = game.game_players.first().player
    with pytest.raises(UserError) as caught:
        withdrawals.session_withdraw(session_id=session.pk, player_id=leaver.pk, user=SYSTEM)
    assert caught.value.code == "withdrawal_mid_game"
    assert SessionPlayer.objects.get(session=session, player=leaver).withdrawn_at is None


def test_withdrawal_between_games_leaves_the_table_and_keeps_finished_games(
    make_session: Any,
) -> None:
    session = make_session(9)
    top = Game.objects.get(table__sitting__session=session, table__rank=1)
    leaver = top.game_players.first().player
    withdrawals.session_withdraw(session_id=session.pk, player_id=leaver.pk, user=SYSTEM)
    assert not Seating.objects.filter(player=leaver, left_at__isnull=True).exists()
    new_game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    assert leaver.name not in set(new_game.game_players.values_list("name", flat=True))
    assert new_game.game_players.count() == 4


def test_rebalance_proposes_and_applies_the_fewest_moves(make_session: Any) -> None:
    session = make_session(8)  # two tables of four
    bottom_players = list(
        Seating.objects.filter(sitting__session=session, table__rank=2).values_list(
            "player_id", flat=True
        )
    )
    for pid in bottom_players[:2]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=pid, user=SYSTEM)
    proposal = movements.rebalance_proposal(session=session)
    assert len(proposal) >= 1
    moved = movements.session_rebalance(
        session_id=session.pk,
        expected=[(m.player, m.from_rank, m.to_rank) for m in proposal],
        user=SYSTEM,
    )
    assert moved == len(proposal)
    sitting = session.sittings.get()
    for _table, ids in selectors.sitting_active_tables(sitting):
        assert 3 <= len(ids) <= 7
    assert movements.rebalance_proposal(session=session) == []


def test_a_stale_rebalance_is_refused(make_session: Any) -> None:
    session = make_session(8)
    with pytest.raises(UserError) as caught:
        movements.session_rebalance(session_id=session.pk, expected=[(1, 1, 2)], user=SYSTEM)
    assert caught.value.code == "proposal_changed"


def test_finishing_early_needs_confirmation_and_fixes_standings(make_session: Any) -> None:
    session = make_session(8)
    top = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    play_game(top, seed=3)
    with pytest.raises(UserError) as caught:
        start_finish.session_finish(session_id=session.pk, user=SYSTEM)
    assert caught.value.code == "sitting_unfinished"
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    session.refresh_from_db()
    assert session.status == Session.Status.FINISHED
    assert session.ended_early
    # Only the top table finished a game: only its four players are placed.
    assert SessionStanding.objects.filter(session=session).count() == 4


def test_standings_follow_the_tables_after_a_full_session(make_session: Any) -> None:
    session = make_session(8)
    fake_results(session.sittings.get(), random.Random(5))
    start_finish.session_finish(session_id=session.pk, user=SYSTEM)
    rows = selectors.session_standings(session)
    assert [r.position for r in rows] == list(range(1, 9))
    assert [r.table_rank for r in rows] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert [r.place for r in rows] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert all(r.games_played == 2 for r in rows)
