"""A move taken on a socket, written (docs/architecture.md, "A move's path"): the round's
new state and the move appended to its history, checked against the state number the
move was made in and the mover's seat, and the table's one deadline moved to its new
phase, in one statement on PostgreSQL (two in one transaction on SQLite).

The statement takes the row locks of the `LiveRound`, then of the `TableDeadline`: the
tail of the order of `scoring.locks` that every write at a table takes (the session,
the table, the game, the live round, its deadline). A write that races it (another
move, the robots, the deal, a switch to paper, the movement) either holds the live
round's row first and changes its state number, so that this statement changes
nothing and the move is answered as stale, or comes after it and finds it made.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict, Unpack

from django.db import connection, transaction

from common import jsontext
from play.models import LiveRound, TableDeadline
from play.phases import TablePhase
from tournaments.models import Seating

_LIVE = LiveRound._meta.db_table
_DEADLINE = TableDeadline._meta.db_table
_SEATING = Seating._meta.db_table

_SEATED = (
    f"EXISTS (SELECT 1 FROM {_SEATING} WHERE table_id = %s AND player_id = %s AND left_at IS NULL)"
)

_POSTGRES_MOVE = f"""
WITH moved AS (
    UPDATE {_LIVE} SET state = %s::jsonb, move = %s,
        history = history || jsonb_build_array(%s::jsonb),
        turn_started_at = %s, updated_at = %s
    WHERE id = %s AND move = %s AND {_SEATED}
    RETURNING id
), planned AS (
    {{plan}}
)
SELECT count(*) FROM moved
"""
_POSTGRES_PLAN = (
    f"INSERT INTO {_DEADLINE} (table_id, due_at, phase) SELECT %s, %s, %s FROM moved"
    " ON CONFLICT (table_id) DO UPDATE SET due_at = EXCLUDED.due_at, phase = EXCLUDED.phase"
)
_POSTGRES_UNPLAN = f"DELETE FROM {_DEADLINE} WHERE table_id = %s AND EXISTS (SELECT 1 FROM moved)"

_SQLITE_MOVE = f"""
UPDATE {_LIVE} SET state = %s, move = %s, history = json_insert(history, '$[#]', json(%s)),
    turn_started_at = %s, updated_at = %s
WHERE id = %s AND move = %s AND {_SEATED}
"""


class Move(TypedDict):
    """A move to write: made in state `move` of the live round `live_id`, its new
    `state` (the round's JSON text), the history's new `entry`, the turn started `now`,
    the mover `player_id` at table `table_id`, and the table's `phase` after it."""

    live_id: int
    move: int
    state: str
    entry: dict[str, Any]
    now: datetime
    table_id: int
    player_id: int
    phase: TablePhase


def write(**made: Unpack[Move]) -> bool:
    """Write the move (`Move`): its state, its history entry, the turn's start, and
    the table's deadline at `phase.due` (none when None). Whether it was written: False
    when the round is no longer in state `move` or the mover no longer sits at the
    table."""
    if connection.vendor == "postgresql":
        sql, params = statement(**made)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
            return bool(row and row[0])
    at = connection.ops.adapt_datetimefield_value(made["now"])
    move, phase = made["move"], made["phase"]
    row = [made["state"], move + 1, jsontext.dumps(made["entry"]), at, at, made["live_id"], move]
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(_SQLITE_MOVE, [*row, made["table_id"], made["player_id"]])
            if cursor.rowcount != 1:
                return False
        TableDeadline.keep(made["table_id"], phase.due, phase.phase)
    return True


def statement(**made: Unpack[Move]) -> tuple[str, list[Any]]:
    """`write`'s one statement on PostgreSQL and its parameters (`write`, or a node's
    own connection, `play.node_io`): it returns one row, the count of rows moved (0 or
    1)."""
    move, now, phase, table_id = made["move"], made["now"], made["phase"], made["table_id"]
    moved: list[Any] = [made["state"], move + 1, jsontext.dumps(made["entry"]), now, now]
    where: list[Any] = [made["live_id"], move, table_id, made["player_id"]]
    if phase.due is None:
        return _POSTGRES_MOVE.format(plan=_POSTGRES_UNPLAN), [*moved, *where, table_id]
    plan = [table_id, phase.due, phase.phase]
    return _POSTGRES_MOVE.format(plan=_POSTGRES_PLAN), [*moved, *where, *plan]
