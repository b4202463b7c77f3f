"""A move's I/O on the node's event loop (docs/architecture.md, "A move's path").

A move taken on a socket makes two or three round trips: who is present (one pipeline
to the cache's Redis, `play.presence`; only when the sights the node holds cannot decide
it, `play.taking.sights_known`), the one write (`play.moves.statement`) and the one
publish (`play.bus`; with the mover's sight when it was not read). On PostgreSQL they
are awaited here, on the node's loop, on
connections the node keeps while it holds tables (a few to PostgreSQL, a pool to each
Redis) and closes when it holds none: no hand-over to a thread and back, and no thread
and loop taking turns at the interpreter. On SQLite (the embedded default) a move's
I/O runs on the node's database threads (`play.taking.take`), as the node's reads of a
table do everywhere; with the cache or the channel layer in this process's memory
(the embedded default, some tests), presence and the publish are calls in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, OperationalError, connection
from django.utils import timezone

from play import bus, moves, presence, taking
from play.phases import TablePhase, TableState

logger = logging.getLogger(__name__)


#: The node's database work that stays on threads (a table read; a move on SQLite).
THREADS = 4
_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="huckley-node")
    return _executor


async def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn` on one of the node's database threads (`taking.with_connection`)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(), lambda: taking.with_connection(fn, *args, **kwargs))


#: The connections to PostgreSQL a node keeps for its moves on its loop.
CONNECTIONS = 4
#: The connections to each Redis (the cache's presence, the publishes) it keeps at most.
REDIS_CONNECTIONS = 16
#: How long a publish waits for Redis (a presence read or write waits `REDIS_TIMEOUT`).
PUBLISH_SECONDS = 2.0


def on_loop() -> bool:
    """Whether a move's I/O runs on the node's loop (PostgreSQL), not on its threads."""
    return connection.vendor == "postgresql"


class Links:
    """One node's connections for its moves' I/O (the module's docstring)."""

    def __init__(self) -> None:
        # Its connections to PostgreSQL, taken in turn: one runs a statement at a time
        # (psycopg queues the next), so a move waits only behind one of a few.
        self._pg: list[Any] = [None] * CONNECTIONS
        self._turn = 0
        self._connecting = asyncio.Lock()
        self._redis: dict[tuple[str, float], Any] = {}

    async def take(
        self,
        state: TableState,
        token: str | None,
        player_id: int,
        entry: dict[str, Any],
        now: datetime,
        *,
        origin: str,
        show: Callable[[], Awaitable[None]],
        wakes: Callable[[TablePhase], bool] = lambda phase: False,
    ) -> tuple[bool, TablePhase]:
        """`play.taking.take`, then `show` (the views sent to the node's sockets) once
        the move is written. On PostgreSQL its I/O is awaited on this loop, and the views
        go before the publish: the phones here do not wait for it (a node that hears a
        round's next deal before its last card is sent that card first by the scheduler,
        `play.push.last_move`). Else on a thread, the views after it. When `wakes` says
        so of the phase the move leaves (on PostgreSQL), the publish's round trip also
        asks the scheduler processes to look now (`play.bus.poke_schedulers`)."""
        if not on_loop():
            written, phase = await run(
                taking.take, state, token, player_id, entry, now, origin=origin, again=False
            )
            if written:
                await show()
            return written, phase
        sight: tuple[str, datetime] | None = None
        if token is not None:
            if taking.sights_known(state, token, now):
                sight = (token, now)  # written with the publish
            else:
                state.seen = await self.seen_and_read(token, list(state.tokens.values()), now)
        phase, after = taking.advance(state, entry, now)
        sql, params = moves.statement(**taking.write_of(state, player_id, entry, now, after, phase))
        if await self.write(sql, params):
            await show()
            message = taking.published(state, entry, now, origin)
            text = bus.message_text(message, {"state": after})
            await self.publish(state.table.pk, text, sight=sight, wake=wakes(phase))
            return True, phase
        if sight is not None:
            await self.seen(*sight)
        return False, phase

    async def seen_and_read(
        self, token: str, tokens: list[str], at: datetime
    ) -> dict[str, datetime]:
        """`play.presence.seen_and_read`, on this loop."""
        cache = presence.redis_cache()
        if cache is None:
            return presence.seen_and_read(token, tokens, at)  # this process's memory
        try:
            pipe = self._cache().pipeline(transaction=False)
            presence.stack(pipe, cache, token, tokens, at)
            _, values = await pipe.execute()
        except Exception:
            logger.warning("presence: Redis did not answer", exc_info=True)
            return {}
        return presence.read_back(cache, tokens, values)

    async def seen(self, token: str, at: datetime | None = None) -> None:
        """`play.presence.seen`, on this loop: a socket's heartbeat."""
        cache = presence.redis_cache()
        if cache is None:
            presence.seen(token, at)
            return
        try:
            key, value = presence.sight(cache, token, at or timezone.now())
            await self._cache().set(key, value, ex=presence.KEEP_SECONDS)
        except Exception:
            logger.warning("presence: Redis did not answer", exc_info=True)

    async def publish(
        self,
        table_id: int,
        text: str,
        *,
        sight: tuple[str, datetime] | None = None,
        wake: bool = False,
    ) -> None:
        """`play.bus.publish` of a message's text, on this loop, and the mover's `sight`
        (token, when) written in the same round trip when the cache is on the same Redis
        (as deployed); with `wake`, the ask to the scheduler processes to look now too
        (`play.bus.poke_schedulers`). A failure is logged: a scheduler not asked looks a
        moment later anyway (`play.scheduler.POLL_SECONDS`)."""
        url, cache = bus.redis_url(), presence.redis_cache()
        if sight is not None and (url is None or cache is None or url != self._cache_url()):
            await self.seen(*sight)
            sight = None
        try:
            if url is None:
                bus.local(table_id, text)
            elif sight is None and not wake:
                await self._client(url, PUBLISH_SECONDS).publish(bus.channel(table_id), text)
            else:
                pipe = self._client(url, PUBLISH_SECONDS).pipeline(transaction=False)
                if sight is not None:
                    key, value = presence.sight(cache, *sight)
                    pipe.set(key, value, ex=presence.KEEP_SECONDS)
                pipe.publish(bus.channel(table_id), text)
                if wake:
                    pipe.publish(bus.scheduler_channel(), b"")
                await pipe.execute()
        except Exception:
            logger.warning("the publish of table %s failed", table_id, exc_info=True)

    async def write(self, sql: str, params: list[Any]) -> bool:
        """The move's one statement (`play.moves.statement`): whether it moved the round.
        A connection that PostgreSQL dropped is replaced and the statement runs once
        more, as `play.taking.with_connection` does on the threads: had the first
        committed, the second finds the next state number and writes nothing. An error
        is Django's (`DatabaseError`), as on the threads."""
        import psycopg

        self._turn = turn = (self._turn + 1) % CONNECTIONS
        for again in (True, False):
            pg = await self._connection(turn)
            try:
                cursor = await pg.execute(sql, params)
                row = await cursor.fetchone()
                return bool(row and row[0])
            except psycopg.Error as exc:
                lost = pg.broken or pg.closed
                if lost:
                    with contextlib.suppress(Exception):
                        await pg.close()
                    if again:
                        continue
                kind = (
                    OperationalError if isinstance(exc, psycopg.OperationalError) else DatabaseError
                )
                raise kind(str(exc)) from exc
        raise AssertionError("unreachable")

    async def close(self) -> None:
        """The connections closed (the node holds no table)."""
        kept, self._pg = self._pg, [None] * CONNECTIONS
        clients, self._redis = list(self._redis.values()), {}
        for pg in kept:
            if pg is not None:
                with contextlib.suppress(Exception):
                    await pg.close()
        for client in clients:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _connection(self, turn: int) -> Any:
        """The node's connection `turn` to PostgreSQL, opened on first use (and again
        once closed) with Django's settings (the test database's in the tests), in
        autocommit: the move's one statement is its own transaction."""
        import psycopg

        pg = self._pg[turn]
        if pg is not None and not pg.closed:
            return pg
        async with self._connecting:
            pg = self._pg[turn]
            if pg is None or pg.closed:
                params = connection.get_connection_params()
                params.pop("cursor_factory", None)  # Django's, for its synchronous cursors
                pg = self._pg[turn] = await psycopg.AsyncConnection.connect(
                    autocommit=True, **params
                )
            return pg

    def _cache(self) -> Any:
        """The client of the cache's Redis."""
        return self._client(self._cache_url(), settings.REDIS_TIMEOUT)

    @staticmethod
    def _cache_url() -> str:
        return str(settings.CACHES["default"]["LOCATION"])

    def _client(self, url: str, timeout: float) -> Any:
        """A client of the Redis at `url`, its replies awaited `timeout` seconds, on a
        pool of `REDIS_CONNECTIONS` in which a command waits as long for a connection
        (a burst of moves and heartbeats queues; it is never refused as too many)."""
        client = self._redis.get((url, timeout))
        if client is None:
            import redis.asyncio

            pool = redis.asyncio.BlockingConnectionPool.from_url(
                url,
                max_connections=REDIS_CONNECTIONS,
                timeout=timeout,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
            )
            client = self._redis[(url, timeout)] = redis.asyncio.Redis.from_pool(pool)
        return client
