"""Movement between sittings (docs/format.md rules 4-6), its preview and its undo."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import ConflictError, UserError
from scoring import records
from scoring import services as scoring
from scoring.models import Game
from tournaments.models import Placing, Seating, Session, Sitting
from tournaments.permissions import SYSTEM
from workflow.session import movements, withdrawals
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.session.simulation import play_sitting

pytestmark = pytest.mark.django_db


def seated(sitting: Sitting) -> dict[int, int]:
    return dict(
        Seating.objects.filter(sitting=sitting, left_at__isnull=True).values_list(
            "player_id", "table__rank"
        )
    )


def test_preview_is_refused_while_a_table_is_playing(make_session: Any) -> None:
    session = make_session(13)
    sitting = session.sittings.get()
    with pytest.raises(UserError) as caught:
        movements.movement_preview(sitting=sitting)
    assert caught.value.code == "sitting_unfinished"
    assert "Table 1, 2, 3" in caught.value.message


def test_movement_moves_halves_and_records_every_placing(make_session: Any, director: Any) -> None:
    session = make_session(13, seed=11)
    sitting = session.sittings.get()
    play_sitting(sitting, seed=11)
    before = seated(sitting)
    preview = movements.movement_preview(sitting=sitting)
    new = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    after = seated(new)
    assert sorted(after) == sorted(before)
    placings = {p.player_id: p for p in Placing.objects.filter(sitting=sitting)}
    assert len(placings) == 13
    for table, rows in preview.tables:
        n = len(rows)
        for row in rows:
            placing = placings[row.player]
            half = n // 2
            if row.place <= half:
                expected = max(1, table.rank - 1)
            elif row.place > n - half:
                expected = min(3, table.rank + 1)
            else:
                expected = table.rank
            assert after[row.player] == expected == placing.to_rank
    sizes = Counter(after.values())
    assert all(4 <= size <= 7 for size in sizes.values())
    assert new.number == 2
    assert Game.objects.filter(table__sitting=new, number=1).count() == 3


def test_the_same_movement_cannot_be_confirmed_twice(make_session: Any) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(1))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    with pytest.raises(ConflictError):
        movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    assert session.sittings.count() == 2


def test_undo_restores_the_previous_sitting(make_session: Any) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(2))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM)
    sitting.refresh_from_db()
    assert sitting.moved_at is None
    assert session.sittings.count() == 1
    assert not Placing.objects.filter(sitting=sitting).exists()


def test_undo_is_refused_once_the_new_sitting_has_a_round(make_session: Any) -> None:
    session = make_session(8)
    fake_results(session.sittings.get(), random.Random(3))
    new = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    game = Game.objects.filter(table__sitting=new).first()
    record = records.game_record(game)
    dealer = record["first_dealer"]
    taker = record["players"][(record["players"].index(dealer) + 1) % 4]
    scoring.round_submit(game_id=game.pk, number=1, data={"tricks": {taker: 5}}, actor=SYSTEM)
    with pytest.raises(UserError) as caught:
        movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM)
    assert caught.value.code == "new_sitting_started"
    assert session.sittings.count() == 2


def test_results_of_a_moved_sitting_are_locked(make_session: Any) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(4))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    game = Game.objects.filter(table__sitting=sitting).first()
    with pytest.raises(UserError) as caught:
        scoring.round_delete(game_id=game.pk, number=1, actor=SYSTEM)
    assert caught.value.code == "sitting_closed"


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(min_value=8, max_value=200), seed=st.integers(1, 10**6))
def test_movement_keeps_tables_in_size_and_everyone_seated_once(
    make_session: Any, players: int, seed: int
) -> None:
    """For any head count and any results: tables stay within 4-7, nobody is lost or
    seated twice, and the better half never moves down."""
    session = make_session(players, seed=seed)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(seed))
    before = seated(sitting)
    new = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    after_rows = list(Seating.objects.filter(sitting=new).values_list("player_id", "table__rank"))
    assert sorted(pid for pid, _ in after_rows) == sorted(before)
    assert all(4 <= n <= 7 for n in Counter(rank for _, rank in after_rows).values())
    table_size = Counter(before.values())
    for p in Placing.objects.filter(sitting=sitting).select_related("table"):
        half = table_size[p.table.rank] // 2
        if p.place <= half:
            assert p.direction != "down"
        if p.place > table_size[p.table.rank] - half:
            assert p.direction != "up"
    Session.objects.filter(pk=session.pk).delete()


def test_a_movement_that_would_leave_a_table_of_two_evens_the_tables_first(
    make_session: Any, director: Any
) -> None:
    """Huckley Buck tables of 3, 4 and 3 (two withdrew before a game) would move to 4, 2
    and 4, and a table of two cannot start its game: the movement makes the fewest moves
    that let every table play, as the rebalancing would (docs/format.md rule 7)."""
    session = make_session(12)
    sitting = session.sittings.get()
    for rank in (1, 3):
        leaver = Seating.objects.filter(sitting=sitting, table__rank=rank).order_by("seat").last()
        assert leaver is not None
        withdrawals.session_withdraw(
            session_id=session.pk, player_id=leaver.player_id, user=director
        )
    assert [
        t.seatings.filter(left_at__isnull=True).count() for t in sitting.tables.order_by("rank")
    ] == [3, 4, 3]
    fake_results(sitting, random.Random(1))

    nxt = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)

    sizes = [t.seatings.count() for t in nxt.tables.order_by("rank")]
    assert sum(sizes) == 10
    assert all(3 <= size <= 7 for size in sizes), sizes


def test_a_movement_whose_tables_can_all_play_is_seated_as_the_format_moves_them(
    make_session: Any, director: Any
) -> None:
    session = make_session(12)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(1))

    nxt = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)

    assert [t.seatings.count() for t in nxt.tables.order_by("rank")] == [4, 4, 4]
