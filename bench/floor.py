"""The floor under a card's path (`bench/play.py --floor`): what a bare server takes to
write one row durably and answer, beside the bare echo, on the same nodes, under the same
load.

A card online goes from the mover's phone to its node, is written (one statement,
committed: a phone is never shown a move that a crash could lose), and goes out to the
other phones: on the same node at once, on another node through Redis. The floor does
that and nothing else, with no Django, no engine and no view: a message on
`/ws/bench/floor/?table=N` runs `UPDATE bench_floor SET n = n + 1 WHERE id = N RETURNING n`
as a node runs a move's statement, on the connections it keeps for them, in autocommit
(`play.node_io.Links.write`), then

- `same ...`: the message goes to the table's hearing sockets (`?table=N&hear=1`) on
  this node: a card to the other phones on the mover's node;
- `cross ...`: the message is published on Redis, and each other node sends it to the
  table's hearing sockets there: a card to phones on another node.

So a card's time over the echo's can come no nearer to 1 than the floor's: what is left
above the floor is the product's work. The rows are made with the bench's database
(`bench/play.py`, `make_rows`); this serves only the bench, never the product.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any
from urllib.parse import parse_qs

CHANNEL = "bench:floor"
STATEMENT = "UPDATE bench_floor SET n = n + 1 WHERE id = %s RETURNING n"

_links: Any = None  # play.node_io.Links, made on the first message
_hearers: dict[int, list[Any]] = {}  # table -> its hearing sockets' sends here
_redis: Any = None
_listening: list[asyncio.Task[None]] = []
_subscribing = asyncio.Lock()


def make_rows(tables: list[int]) -> None:
    """Inside Django: one row a table to write."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_floor")
        cursor.execute("CREATE TABLE bench_floor (id integer PRIMARY KEY, n bigint NOT NULL)")
        cursor.executemany("INSERT INTO bench_floor VALUES (%s, 0)", [(t,) for t in tables])


async def _write(table: int) -> None:
    """The row written on the connections a node keeps for its moves (`play.node_io`)."""
    global _links
    if _links is None:
        from play.node_io import Links

        _links = Links()
    await _links.write(STATEMENT, [table])


def _client() -> Any:
    global _redis
    if _redis is None:
        import redis.asyncio
        from django.conf import settings

        _redis = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    return _redis


async def _listen(pubsub: Any) -> None:
    """Each message published by another process, sent to the table's hearing sockets
    here."""
    me = str(os.getpid())
    async for message in pubsub.listen():
        if message["type"] != "message":
            continue
        table, origin, text = message["data"].decode().split(" ", 2)
        if origin != me:
            await _fan(int(table), text)


async def _fan(table: int, text: str) -> None:
    for send in list(_hearers.get(table, ())):
        with contextlib.suppress(Exception):
            await send({"type": "websocket.send", "text": text})


async def floor(scope: dict[str, Any], receive: Any, send: Any) -> None:
    query = parse_qs(scope["query_string"].decode())
    table, hear = int(query["table"][0]), "hear" in query
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            if hear:
                async with _subscribing:  # subscribed before the socket is open
                    if not _listening:
                        pubsub = _client().pubsub()
                        await pubsub.subscribe(CHANNEL)
                        _listening.append(asyncio.create_task(_listen(pubsub)))
                _hearers.setdefault(table, []).append(send)
            await send({"type": "websocket.accept"})
        elif kind == "websocket.receive":
            text = message["text"]
            await _write(table)
            if text.startswith("cross"):
                await _client().publish(CHANNEL, f"{table} {os.getpid()} {text}")
            else:
                await _fan(table, text)
        elif kind == "websocket.disconnect":
            if hear:
                _hearers[table].remove(send)
            return


def report(tally: Any, echo95: float | None, card95: float | None, p: Any) -> dict[str, Any]:
    """The floor's figures, beside the echo's and a card's (p95, on the same node)."""
    same95, cross95 = p(tally.floor, 0.95), p(tally.floor_cross, 0.95)

    def ratio(a: float | None, b: float | None) -> float | None:
        return round(a / b, 2) if a and b else None

    return {
        "floor_ms": {
            "same_node": {"p50": p(tally.floor, 0.5), "p95": same95, "n": len(tally.floor)},
            "cross_node": {
                "p50": p(tally.floor_cross, 0.5),
                "p95": cross95,
                "n": len(tally.floor_cross),
            },
        },
        "floor_over_echo_p95": ratio(same95, echo95),
        "card_over_floor_p95": ratio(card95, same95),
        "floor_cross_over_same_p95": ratio(cross95, same95),
    }
