"""A move's I/O on the node's loop (play/node_io.py): the same presence as the threads'
(`play.presence`), and the one write on the node's own PostgreSQL connection, which
says whether it moved the round, keeps its connection across an error in a statement,
and replaces one PostgreSQL dropped."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.utils import timezone

from play import moves, node_io, presence
from play.models import LiveRound
from play.node_io import Links
from play.phases import Phase, TablePhase
from tests.play.conftest import tokens_of
from tests.play.sockets import run


def on_a_loop(scenario: Callable[[Links], Awaitable[None]]) -> None:
    """`scenario` with a node's links, on a loop of its own (in a thread: `run`); the
    links closed after."""

    async def with_links() -> None:
        links = Links()
        try:
            await scenario(links)
        finally:
            await links.close()

    run(with_links)


@pytest.mark.django_db
def test_a_sight_and_the_table_s_sights_on_the_loop_are_the_threads() -> None:
    """`Links.seen_and_read` answers as `presence.seen_and_read` and writes the same
    sight (on Redis under CI, in memory otherwise); `seen`, a heartbeat, a sight now."""
    now = timezone.now().replace(microsecond=0)
    presence.seen("other", now - timedelta(seconds=40))
    presence.seen("mover", now - timedelta(seconds=90))
    found: dict[str, Any] = {}

    async def scenario(links: Links) -> None:
        found.update(await links.seen_and_read("mover", ["mover", "other", "never"], now))
        await links.seen("other")

    on_a_loop(scenario)

    assert found == {"mover": now, "other": now - timedelta(seconds=40)}
    assert presence.last_seen("mover") == now
    other = presence.last_seen("other")
    assert other is not None
    assert other > now


def _statement(row: LiveRound, move: int, table_id: int, player_id: int) -> tuple[str, list[Any]]:
    entry = {"move": move, "player": "x", "action": {}, "robot": False, "reason": None}
    return moves.statement(
        live_id=row.pk,
        move=move,
        state='{"made": "here"}',
        entry=entry,
        now=timezone.now(),
        table_id=table_id,
        player_id=player_id,
        phase=TablePhase(Phase.TO_ACT),
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
def test_the_write_on_the_loop_moves_the_round_once_and_survives_errors(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """At the round's state number it writes and says so; at the same number again
    (another move got there first) it writes nothing and says so. A statement that
    fails is Django's `DatabaseError`, and the connection serves the next; one that
    PostgreSQL dropped is opened again and the statement runs on it."""
    monkeypatch.setattr(node_io, "CONNECTIONS", 1)  # the one the test kills
    session = online_session(4)
    tokens_of(session, director)  # the live round dealt
    row = LiveRound.objects.select_related("game__table").get()
    table_id = row.game.table_id
    seated = row.game.table.seatings.filter(left_at__isnull=True).first()
    assert seated is not None
    answers: list[Any] = []

    async def scenario(links: Links) -> None:
        answers.append(await links.write(*_statement(row, row.move, table_id, seated.player_id)))
        answers.append(await links.write(*_statement(row, row.move, table_id, seated.player_id)))
        try:
            await links.write("SELECT 1 / 0", [])
        except DatabaseError:
            answers.append("refused")
        pg = await links._connection(0)
        answers.append(await links.write("SELECT count(*) FROM (SELECT 1) AS one", []))
        (pid,) = await (await pg.execute("SELECT pg_backend_pid()")).fetchone()
        await asyncio.to_thread(_terminate, pid)
        answers.append(
            await links.write(*_statement(row, row.move + 1, table_id, seated.player_id))
        )
        answers.append((await links._connection(0)) is not pg)

    on_a_loop(scenario)

    assert answers == [True, False, "refused", True, True, True]
    after = LiveRound.objects.get(pk=row.pk)
    assert after.move == row.move + 2
    assert [h["move"] for h in after.history[-2:]] == [row.move, row.move + 1]


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.close()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_burst_of_sights_and_publishes_waits_for_a_connection_and_none_is_lost(
    caplog: Any,
) -> None:
    """Many tables at once (a movement's reconnects, a busy node): far more commands
    in flight than the node keeps connections to Redis, each waits for one, and every
    sight is written and every publish sent (redis-py's own pool refused those past
    its hundredth connection, and a publish refused stalled a table's other node)."""
    from django.core.cache import cache

    from play import bus

    # Ten times the pool, and past the hundred redis-py's own pool refused: a burst far
    # larger queued past Redis's timeout on a loaded 2-core machine (the wait for a
    # connection is `REDIS_TIMEOUT`), which is no more a pool's refusal.
    many = 10 * node_io.REDIS_CONNECTIONS
    tokens = [f"burst-{n}" for n in range(many)]
    heard: list[int] = []

    async def scenario(links: Links) -> None:
        import redis.asyncio

        listener = redis.asyncio.Redis.from_url(str(bus.redis_url()))
        pubsub = listener.pubsub()
        await pubsub.subscribe(bus.channel(0))
        await pubsub.get_message(timeout=2)  # the confirmation
        await asyncio.gather(
            *(links.seen(token) for token in tokens),
            *(links.publish(0, f"m{n}") for n in range(many)),
        )
        while len(heard) < many:
            message = await pubsub.get_message(timeout=2)
            if message is None:
                break
            heard.append(int(message["data"][1:]))
        await pubsub.aclose()
        await listener.aclose()

    with caplog.at_level("WARNING", logger="play.node_io"):
        on_a_loop(scenario)

    assert [r.getMessage() for r in caplog.records] == []
    assert sorted(heard) == list(range(many))
    assert len(cache.get_many([f"play:seen:{t}" for t in tokens])) == many


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_write_cancelled_in_the_middle_leaves_a_connection_that_serves_the_next(
    monkeypatch: Any,
) -> None:
    """A move's task stopped while its statement runs (its socket's server stopping):
    the connection it was on is not left busy with it (psycopg cancels the statement
    on the server and waits for the end of it); the next write, on the same turn, is
    answered."""
    monkeypatch.setattr(node_io, "CONNECTIONS", 1)
    answers: list[Any] = []

    async def scenario(links: Links) -> None:
        slow = asyncio.ensure_future(links.write("SELECT count(*) FROM pg_sleep(2)", []))
        await asyncio.sleep(0.3)
        slow.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await slow
        answers.append(
            await asyncio.wait_for(links.write("SELECT count(*) FROM (SELECT 1) AS one", []), 5)
        )

    on_a_loop(scenario)

    assert answers == [True]
