"""Signals of the tournament core, for the layers above it: a write of any layer sends
them, and the layers that care (online play) listen, so no write imports them.

`seats_changed` says that who sits where in a session, or how a table plays, has changed
(docs/architecture.md, "Seats changed"): the movement and its undo, a rebalance, a
withdrawal and its substitute, a late arrival, a table switched online or to paper, a
director's robot seating, a correction of a round, the start and the end of the session.
Its arguments: `session_id`; `player_ids`, the players whose seat changed; `table_ids`,
the tables whose seats or way of play changed. Both None: every seat of the session (the
movement, its undo, the finish). Otherwise the change is the players named and everyone
seated at the tables named (a frozenset, maybe empty). Online play pushes each affected
phone its new view (`play.push.seats_changed`).

The writes send it through `seats_changed_on_commit`, never directly: the phones must
read the change, so it goes once the transaction commits, and never for one rolled back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import Session

logger = logging.getLogger(__name__)

#: Sent after the commit of a write that changed seats (the module's docstring), with
#: `session_id: int`, `player_ids: frozenset[int] | None`, `table_ids: frozenset[int] |
#: None`. Its sender is `Session`.
seats_changed = Signal()


@dataclass
class _Change:
    """What the writes of one transaction changed in one session, so far (None: every
    seat or every table)."""

    session_id: int
    players: frozenset[int] | None
    tables: frozenset[int] | None
    sent: bool = False

    def add(self, players: frozenset[int] | None, tables: frozenset[int] | None) -> None:
        if self.players is None or players is None or self.tables is None or tables is None:
            self.players = self.tables = None
        else:
            self.players |= players
            self.tables |= tables


@dataclass(frozen=True, eq=False)
class _Send:
    """The callback run on commit: the first of a transaction's callbacks for a session
    sends what they all gathered, the others nothing."""

    change: _Change

    def __call__(self) -> None:
        change = self.change
        if change.sent:
            return
        change.sent = True
        for receiver, answer in seats_changed.send_robust(
            sender=Session,
            session_id=change.session_id,
            player_ids=change.players,
            table_ids=change.tables,
        ):
            if isinstance(answer, Exception):
                # The write has committed: a receiver's failure is logged, never the
                # writer's answer.
                logger.error(
                    "a receiver of seats_changed (%s) failed",
                    receiver,
                    exc_info=(type(answer), answer, answer.__traceback__),
                )


def seats_changed_on_commit(
    session_id: int, *, players: Iterable[int] | None = None, tables: Iterable[int] | None = None
) -> None:
    """Send `seats_changed` for the session once the transaction commits (at once outside
    one): for the `players` and `tables` named, or for every seat when neither is named.
    The calls of one transaction for one session merge into one send; a call made in a
    savepoint rolled back may still widen it (a view pushed once more is harmless; one
    never pushed is not)."""
    if players is None and tables is None:
        player_ids: frozenset[int] | None = None
        table_ids: frozenset[int] | None = None
    else:
        player_ids, table_ids = frozenset(players or ()), frozenset(tables or ())
    connection = transaction.get_connection()
    change = None
    if connection.in_atomic_block:
        # Django keeps the callbacks to run on commit as (savepoints, callback, robust).
        for entry in connection.run_on_commit:
            callback = entry[1]
            if (
                isinstance(callback, _Send)
                and callback.change.session_id == session_id
                and not callback.change.sent  # run early: a test's captured callbacks
            ):
                change = callback.change
                change.add(player_ids, table_ids)
                break
    if change is None:
        change = _Change(session_id, player_ids, table_ids)
    transaction.on_commit(_Send(change))
