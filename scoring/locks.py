"""The lock order: every write that locks rows of a running session takes them through
these functions, in this order, so that no two writes can wait for each other in a
circle (docs/architecture.md, "Lock order"):

1. the **session**: exclusively (`lock_session`) for the writes that change the whole
   session (the movement and its undo, a withdrawal, a rebalance, the finish, the timer,
   arrivals, settings, the start, scorer links and cards); shared (`share_session`,
   `FOR KEY SHARE`) for the writes at one table (a round entered, corrected, deleted or
   restored). Shared holders do not wait for each other, so the tables of one session
   are entered in parallel, while an exclusive holder waits for every round being stored
   and every round waits for it: a movement never starts while a round is being stored,
   and a round is checked against the sitting as the movement left it.
2. the **sitting** (`lock_sitting`), exclusively (the timer);
3. the **table** (`lock_table`): every write to the games of one table, one at a time
   (the next game at the table follows from this one);
4. the **game** (`lock_game`).

A row of a lower level (a round, a change, a pending entry, an idempotency record) is
taken after these. Each function names exactly its own row with `of=`, so that a join
read alongside (the session's club and season) is never locked by the way. A shared
lock is `FOR KEY SHARE`: it is compatible with the `UPDATE` of the session's page
versions that every round makes (`pagecache.live_changed`), which takes `FOR NO KEY
UPDATE`; a `FOR SHARE` lock would not be, and two rounds would deadlock upgrading it.

SQLite has no row locks: it lets one write transaction run at a time, so there the
functions only read.
"""

from __future__ import annotations

from django.db import connection

from common import rows
from scoring.models import Game
from tournaments.models import Session, Sitting, Table


def lock_session(session_id: int) -> Session:
    """The session, locked exclusively (`FOR UPDATE`); its club and season are read with
    it, not locked."""
    return (
        Session.objects.select_related("club", "season")
        .select_for_update(of=("self",))
        .get(pk=session_id)
    )


def share_session(session_id: int) -> None:
    """The session, locked shared (`FOR KEY SHARE`) by a write at one table: it waits for
    an exclusive holder to commit, and holds the next one back until this write commits.
    Read the session after it to see it as the last exclusive holder left it."""
    if connection.vendor == "postgresql":  # Django's select_for_update has no FOR KEY SHARE
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Session._meta.db_table} WHERE id = %s FOR KEY SHARE",
                [session_id],
            )


def lock_sitting(sitting_id: int) -> Sitting:
    """A sitting, exclusively; take the session's lock first."""
    return Sitting.objects.select_for_update(of=("self",)).get(pk=sitting_id)


def lock_table(table_id: int, *, related: bool = False) -> Table:
    """A table, so that the writes to its games run one at a time; after the session.
    With `related`, its sitting and session are read alongside (only the table is
    locked), in SQL written once (`common.rows`: every move over HTTP and every step
    of online play's scheduler takes it)."""
    if not related:
        return Table.objects.select_for_update(of=("self",), no_key=True).get(pk=table_id)
    found = rows.fetch(
        f"SELECT {rows.columns(Table, 't')}, {rows.columns(Sitting, 's')},"
        f" {rows.columns(Session, 'e')}"
        f" FROM {Table._meta.db_table} t"
        f" INNER JOIN {Sitting._meta.db_table} s ON s.id = t.sitting_id"
        f" INNER JOIN {Session._meta.db_table} e ON e.id = s.session_id"
        f" WHERE t.id = %s{rows.lock('NO KEY UPDATE', 't')}",
        [table_id],
    )
    if not found:
        raise Table.DoesNotExist("Table matching query does not exist.")
    row = found[0]
    table = rows.build(Table, row)
    sitting = rows.build(Sitting, row, rows.width(Table))
    session = rows.build(Session, row, rows.width(Table) + rows.width(Sitting))
    sitting.session = session
    table.sitting = sitting
    return table


def lock_current_game(table: Table) -> Game | None:
    """The table's current game (`scoring.tables.table_current_game`) locked as
    `lock_game` locks one, in the same query (written once, `common.rows`); its table
    is `table` as the caller holds it. After the session and the table."""
    found = rows.select(
        Game,
        f"SELECT {rows.columns(Game, 'g')} FROM {Game._meta.db_table} g"
        f" WHERE g.table_id = %s ORDER BY g.number DESC LIMIT 1"
        f"{rows.lock('NO KEY UPDATE', 'g')}",
        [table.pk],
    )
    if not found:
        return None
    game = found[0]
    game.table = table
    return game


def lock_game(game_id: int) -> Game:
    """A game with its table, sitting and session read alongside (only the game is
    locked); after the session and the game's table."""
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("table__sitting__session")
        .get(pk=game_id)
    )
