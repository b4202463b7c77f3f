"""Every write that changes a seat says so (`tournaments.signals.seats_changed`), once it
commits, for the players and tables it changed: online play pushes their phones the new
place from it (tests/play/test_seat_pushes.py).

The writes are the ones `test_every_write_checks.py` finds and calls (the `CALLS` and
`OWN_RULE` tables of write_services.py, with the same arguments). Each one is made by the
club's director while the seats are watched: who sits at which table and seat of every
session there was before (a seating made, moved, left), each table's way of play
(online or paper), its sittings (the movement) and whether it runs or is over. A write
that changes any of them must send the signal naming each change (its player or its
table, or every seat); a write in `SEAT_CHANGES` must send it, and the others must not.
A correction changes no seat but the scores the table's phones show: it names its table.
"""

from __future__ import annotations

from typing import Any

import pytest

from play import director as play_director
from play import services as play
from scoring import corrections
from scoring import services as scoring
from scoring.models import Game, RoundChange
from tests.tournaments.conftest import Sent
from tests.tournaments.write_services import CALLS, OWN_RULE
from tests.tournaments.write_world import Function, World, call, label
from tournaments.models import Seating, Session, Sitting, Table
from workflow.session import movements, services, start_finish, withdrawals

pytestmark = pytest.mark.django_db

EVERY = "every seat of the session"

# The writes that change seats, and what they name.
SEAT_CHANGES: dict[Function, str] = {
    start_finish.session_start: EVERY + " (the first sitting, through sitting_create)",
    movements.sitting_move_players: EVERY + " (the next sitting, through sitting_create)",
    movements.sitting_undo_movement: EVERY,
    start_finish.session_finish: EVERY,
    movements.session_rebalance: "the players moved, the tables they left and joined",
    withdrawals.session_withdraw: "the player, the substitute if any, the table",
    services.session_add_players: "the bottom table a late arrival joins",
    play.table_online_set: "the table switched",
    play_director.table_robot_seat: "the table the robots joined",
    scoring.round_correct: "the game's table",
    scoring.round_delete: "the game's table",
    corrections.round_change_restore: "the game's table",
}

#: The corrections: a stored round changes, no seat; their table's phones see the scores.
CORRECTIONS = (scoring.round_correct, scoring.round_delete, corrections.round_change_restore)


def seats(session_ids: set[int]) -> dict[str, dict[Any, Any]]:
    """The seats of these sessions as the rows say: each seating's (player, table, seat,
    whether still seated), each table's (session, online), each sitting's (session,
    moved), each session's state when it runs or is over."""
    return {
        "seatings": {
            pk: (player, table, seat, left is None, session)
            for pk, player, table, seat, left, session in Seating.objects.filter(
                sitting__session__in=session_ids
            ).values_list("pk", "player_id", "table_id", "seat", "left_at", "sitting__session_id")
        },
        "tables": {
            pk: (session, online)
            for pk, session, online in Table.objects.filter(
                sitting__session__in=session_ids
            ).values_list("pk", "sitting__session_id", "online")
        },
        "sittings": {
            pk: (session, moved is not None)
            for pk, session, moved in Sitting.objects.filter(session__in=session_ids).values_list(
                "pk", "session_id", "moved_at"
            )
        },
        "sessions": {
            pk: status
            for pk, status in Session.objects.filter(
                pk__in=session_ids,
                status__in=[Session.Status.RUNNING, Session.Status.FINISHED],
            ).values_list("pk", "status")
        },
    }


def changes(
    before: dict[str, dict[Any, Any]], after: dict[str, dict[Any, Any]]
) -> list[tuple[int, str, int | None, set[int]]]:
    """What changed: (session, what, player or None, tables)."""
    found: list[tuple[int, str, int | None, set[int]]] = []
    for pk in before["seatings"].keys() | after["seatings"].keys():
        was, now = before["seatings"].get(pk), after["seatings"].get(pk)
        if was != now:
            row = now or was
            tables = {r[1] for r in (was, now) if r is not None}
            found.append((row[4], f"seating {pk}: {was} -> {now}", row[0], tables))
    for pk in before["tables"].keys() | after["tables"].keys():
        was, now = before["tables"].get(pk), after["tables"].get(pk)
        if was != now:
            found.append(((now or was)[0], f"table {pk}: {was} -> {now}", None, {pk}))
    for key in ("sittings", "sessions"):
        for pk in before[key].keys() | after[key].keys():
            was, now = before[key].get(pk), after[key].get(pk)
            if was != now:
                session = pk if key == "sessions" else (now or was)[0]
                found.append((session, f"{key} {pk}: {was} -> {now}", None, set()))
    return found


def named(sends: list[Sent], session: int, player: int | None, tables: set[int]) -> bool:
    """Whether a send names the change: every seat of its session, its player, or one
    of its tables."""
    for session_id, players, table_ids in sends:
        if session_id != session:
            continue
        if players is None and table_ids is None:
            return True
        if not tables and player is None:
            continue  # a sitting or the session itself: only "every seat" names it
        if player is not None and players is not None and player in players:
            return True
        if table_ids is not None and tables & table_ids:
            return True
    return False


def table_of(function: Function, arguments: dict[str, Any]) -> int:
    """The table of a correction's game."""
    if "change_id" in arguments:
        return RoundChange.objects.get(pk=arguments["change_id"]).game.table_id
    return Game.objects.get(pk=arguments["game_id"]).table_id


def test_every_write_that_changes_seats_is_a_write_service() -> None:
    assert set(SEAT_CHANGES) <= {*CALLS, *OWN_RULE}


@pytest.mark.parametrize("function", [pytest.param(f, id=label(f)) for f in [*CALLS, *OWN_RULE]])
def test_the_write_says_which_seats_it_changed_once_it_commits(
    world: World,
    function: Function,
    sent: list[Sent],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # what the world's own writes say
        arguments = (CALLS.get(function) or OWN_RULE[function])(world)
    sent.clear()
    known = set(Session.objects.values_list("pk", flat=True))
    before = seats(known)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        call(function, arguments, world.director)
    assert sent == [], f"{label(function)} said seats changed before it committed"
    for callback in callbacks:
        callback()
    changed = changes(before, seats(known))
    for session, what, player, tables in changed:
        assert named(sent, session, player, tables), (
            f"{label(function)} changed a seat ({what}) and did not say so: call "
            "tournaments.signals.seats_changed_on_commit(session_id, players=..., tables=...) "
            "inside its transaction, and add it to SEAT_CHANGES"
        )
    if function in SEAT_CHANGES:
        assert sent, f"{label(function)} is in SEAT_CHANGES and said nothing"
        assert len(sent) == 1, f"{label(function)} said it {len(sent)} times, not once"
    else:
        assert sent == [], f"{label(function)} said seats changed: add it to SEAT_CHANGES"
    if function in CORRECTIONS:
        ((_, _, tables),) = sent
        assert tables is not None
        assert table_of(function, arguments) in tables
