"""The one scheduled path of online play: every deadline of every online table (a round
to deal, a robot's move due, a grace time or a move clock running out) is one row,
`TableDeadline`, at most one per table, kept by the writes that change the table's phase
(`play.rounds.plan`, docs/architecture.md, "The phases of a table"). The scheduler runs
the rows whose time has come (`run_due`), each through `play.services.advance`, which
takes the table's locks, finds its phase again and moves it on or plans its next
deadline: a row run twice, or by two schedulers at once, moves the table once.

Who runs it: the embedded default's ASGI server (`make run`), in its process
(`huckley.asgi`, on the server's startup: `run_forever`); a deployment, in processes of
its own (`manage.py run_scheduler`: `serve`, deploy/huckley-scheduler.service), so that a
burst of rounds' ends never holds an ASGI node's interpreter while its sockets' moves
wait, and the nodes, with `HUCKLEY_SCHEDULER=false`, ask them on Redis to look now
(`poke`). Each scheduler takes due rows a few times a second, in one short transaction
(`due_tables`), so that two share a burst of rounds' ends rather than walking the same
tables one after the other.
Nothing is queued anywhere else, so an unattended table holds one row for the whole
night and a busy one never more.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from common import rows
from play import bus, phases, services
from play.models import TableDeadline
from play.phases import Phase, TablePhase
from tournaments.models import Seating, Sitting, Table
from workflow.sittings import current_sittings

logger = logging.getLogger(__name__)

#: The longest the scheduler sleeps between two looks at the deadlines: a deadline set
#: by another process is run at most this late.
POLL_SECONDS = 0.25
#: The most tables one look runs; the next look runs the rest at once.
BATCH = 50
#: How long the due tables a look took stay its own: each one's step plans its deadline
#: again at once, so this counts only when a process stops in the middle of a look.
LEASE = timedelta(seconds=30)
#: When a table that failed to move on is tried again (the error is in the log).
RETRY_AFTER = timedelta(minutes=1)


def wake(table_ids: Iterable[int], now: datetime | None = None) -> int:
    """Ask the scheduler to look at these tables now (a change made outside play: the
    movement, a withdrawal...): each one's deadline is brought forward to now, in one
    statement; the look finds each table's phase and moves it on or plans its next
    deadline. The tables that play on paper are left out; how many were woken."""
    now = now or timezone.now()
    rows = [
        TableDeadline(table_id=pk, due_at=now, phase="changed")
        for pk in Table.objects.filter(pk__in=list(table_ids), online=True).values_list(
            "pk", flat=True
        )
    ]
    TableDeadline.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["table"], update_fields=["due_at", "phase"]
    )
    return len(rows)


#: The most woken tables the process that made a change moves on itself, at once.
AT_ONCE = 20


def run_now(table_ids: Iterable[int]) -> int:
    """Wake the tables (`wake`) and move the first `AT_ONCE` of them on in this process
    now, so that the change's own tables are dealt before its answer; the rest are left
    due for the schedulers. How many moved on."""
    woken = sorted(set(table_ids))
    if not wake(woken):
        return 0
    moved = 0
    for table_id in woken[:AT_ONCE]:
        moved += _advance(table_id)
    return moved


def _advance(table_id: int, session_id: int | None = None) -> int:
    """`services.advance` at one table (of `session_id`, when read with it); a failure is
    logged and the table tried again a minute later (its deadline moved on)."""
    try:
        return int(services.advance(table_id=table_id, session_id=session_id))
    except Exception:
        logger.exception("the scheduler could not move table %s on", table_id)
        TableDeadline.objects.filter(table_id=table_id).update(due_at=timezone.now() + RETRY_AFTER)
        return 0


def tables_of(
    session_id: int, player_ids: frozenset[int] | None, table_ids: frozenset[int] | None
) -> set[int]:
    """The tables of the session's current sitting a change concerns: every one when
    neither players nor tables are named, else the tables named and those where the
    players named sit."""
    tables = Table.objects.filter(sitting__in=current_sittings(session_id))
    if player_ids is None and table_ids is None:
        return set(tables.values_list("pk", flat=True))
    found = set(table_ids or ())
    if player_ids:
        found |= set(
            Seating.objects.filter(
                sitting__in=current_sittings(session_id),
                player_id__in=player_ids,
                left_at__isnull=True,
            ).values_list("table_id", flat=True)
        )
    return found


def due_tables(now: datetime | None = None, limit: int = BATCH) -> list[tuple[int, int]]:
    """The tables whose deadline has come, the oldest first, each with its session (read
    here, in the same query, rather than by each table's step), taken by this look: their
    deadlines move `LEASE` on, so that the other processes' schedulers take the next
    tables rather than the same ones (on PostgreSQL, rows another look is taking are
    skipped). Each table's step plans its deadline again at once."""
    now = now or timezone.now()
    if connection.features.has_select_for_update_skip_locked:
        return _due_tables_at_once(now, limit)
    with transaction.atomic():
        due = list(
            TableDeadline.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(due_at__lte=now)
            .order_by("due_at")
            .values_list("table_id", "table__sitting__session_id")[:limit]
        )
        if due:
            taken = [table_id for table_id, _ in due]
            TableDeadline.objects.filter(table_id__in=taken).update(due_at=now + LEASE)
    return due


@functools.cache
def _due_sql() -> str:
    """`due_tables` on PostgreSQL: the due rows taken (skipping those another look is
    taking), their lease set and their tables' sessions read, in one statement. It runs
    at every look, a few times a second and at every poke, where the ORM's transaction
    of two statements cost the scheduler close to a millisecond a round's end."""
    deadline, table, sitting = (
        TableDeadline._meta.db_table,
        Table._meta.db_table,
        Sitting._meta.db_table,
    )
    key = TableDeadline._meta.pk.column  # the table's id
    table_id, sitting_id = Table._meta.pk.column, Table._meta.get_field("sitting").column
    session_id = Sitting._meta.get_field("session").column
    return (
        f"WITH due AS (SELECT d.{key}, d.due_at FROM {deadline} d WHERE d.due_at <= %s"
        " ORDER BY d.due_at LIMIT %s FOR UPDATE OF d SKIP LOCKED)"
        f" UPDATE {deadline} SET due_at = %s FROM due, {table} t, {sitting} s"
        f" WHERE {deadline}.{key} = due.{key} AND t.{table_id} = due.{key}"
        f" AND s.{Sitting._meta.pk.column} = t.{sitting_id}"
        f" RETURNING due.{key}, s.{session_id}, due.due_at"
    )


def _due_tables_at_once(now: datetime, limit: int) -> list[tuple[int, int]]:
    taken = rows.fetch(_due_sql(), [now, limit, now + LEASE])
    return [(table_id, session_id) for table_id, session_id, _ in sorted(taken, key=lambda r: r[2])]


def run_due(now: datetime | None = None, limit: int = BATCH) -> int:
    """Run the deadlines that have come (`services.advance` at each table); how many
    tables moved on. A table that fails is logged and the others run."""
    return sum(_advance(table_id, session_id) for table_id, session_id in due_tables(now, limit))


def _look() -> int:
    """One look from the server's loop, in a thread: the due tables run, and the
    connections closed as a request would leave them."""
    close_old_connections()
    try:
        return run_due()
    finally:
        close_old_connections()


#: Each running scheduler's wake-up, by event loop (`poke`).
_pokes: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}


def poke() -> None:
    """Ask a scheduler to look now rather than at its next poll: a move on a socket left
    its table something due at once (a round to store, a robot to play). Called on the
    server's loop: this process's scheduler is woken when it runs one; otherwise the
    scheduler processes are asked on Redis (`bus.poke_schedulers`, from a thread: the
    loop never waits on Redis), and without Redis nothing happens (the deadline waits
    for the next look)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    event = _pokes.get(loop)
    if event is not None:
        event.set()
    elif bus.redis_url() is not None:
        loop.run_in_executor(None, bus.poke_schedulers)


def asked_with_move(phase: TablePhase) -> bool:
    """Whether a node's move that leaves its table at `phase` asks the scheduler
    processes to look now with its publish, in the same round trip to Redis
    (`play.node_io.Links.take`), rather than by `poke`: something is due at once that
    the node leaves to a scheduler (a round to store, the next to deal, a robot covering
    someone or a clock run out; not a robot player's move, which the node makes itself),
    and `poke` from this thread's running loop would ask on Redis (no scheduler of this
    process runs on the loop, and Redis is there)."""
    if phase.phase not in phases.AT_ONCE or (
        phase.phase == Phase.ROBOT_DUE and phase.reason == "robot"
    ):
        return False
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False
    return loop not in _pokes and bus.redis_url() is not None


def serve(stop: threading.Event) -> None:
    """A scheduler process's loop, until `stop` is set (`manage.py run_scheduler`): a
    look at the due deadlines every `POLL_SECONDS`, or at once when a process asks for
    one on Redis (`poke`)."""
    url = bus.redis_url()
    pubsub = None
    if url is not None:
        import redis

        client: Any = redis.Redis.from_url(url, socket_timeout=None)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(bus.scheduler_channel())
    try:
        while not stop.is_set():
            try:
                _look()
            except Exception:
                logger.exception("the scheduler's look failed")
            _wait(pubsub, stop)
    finally:
        if pubsub is not None:
            with contextlib.suppress(Exception):
                pubsub.close()


def _wait(pubsub: Any, stop: threading.Event) -> None:
    """Until the next look: `POLL_SECONDS`, or less when asked on Redis (every ask
    heard meanwhile is answered by the one look)."""
    if pubsub is None:
        stop.wait(POLL_SECONDS)
        return
    until = time.monotonic() + POLL_SECONDS
    try:
        # None on a timeout, and also at once for what is not an ask (the confirmation
        # of the subscription): the wait goes on to its end.
        while not stop.is_set() and (left := until - time.monotonic()) > 0:
            if pubsub.get_message(timeout=left) is not None:
                while pubsub.get_message(timeout=0) is not None:
                    pass
                return
    except Exception:
        logger.warning("the scheduler's subscription failed", exc_info=True)
        stop.wait(POLL_SECONDS)


async def run_forever(stop: asyncio.Event) -> None:
    """The scheduler of one server process, until `stop` is set: a look at the due
    deadlines every `POLL_SECONDS`, or at once when poked."""
    loop = asyncio.get_running_loop()
    wake = _pokes[loop] = asyncio.Event()

    async def stopping() -> None:
        await stop.wait()
        wake.set()

    watcher = asyncio.ensure_future(stopping())
    try:
        while not stop.is_set():
            wake.clear()
            try:
                await sync_to_async(_look, thread_sensitive=False)()
            except Exception:
                logger.exception("the scheduler's look failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=POLL_SECONDS)
    finally:
        watcher.cancel()
        _pokes.pop(loop, None)
