"""The bench's ASGI application (`bench/play.py`): the product's, with the bare WebSocket
echo that sets the floor.

The echo answers each message with itself, with no database and no channel layer, on the
same server and under the same load as the phones' sockets, so a card's delivery time
divided by the echo's round trip, measured in the same run, says how close to the floor
online play is. It is a bare ASGI application, not a Channels consumer: a consumer's
`dispatch` hops to Django's sync thread on every message (to close the old database
connections), which is no part of a bare round trip. It exists only here, never in the
product's routes.

With `BENCH_HEAP=1` in its environment, the process answers on `ws/bench/heap/`: `mark`
starts tracing its allocations (`tracemalloc`), `diff` sends those made since and still
held, largest first, grouped by where they were made (one process's: run it with
`--workers 1`). `bench/play.py --heap` uses it to say what a
connected phone holds.
"""

from __future__ import annotations

import json
import os
import tracemalloc
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from bench.floor import floor
from huckley import asgi

HEAP = os.environ.get("BENCH_HEAP") == "1"


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The bare echo: each message sent back as it came, until the client goes."""
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif kind == "websocket.receive":
            text, data = message.get("text"), message.get("bytes")
            await send({"type": "websocket.send", "text": text, "bytes": data})
        elif kind == "websocket.disconnect":
            return


class Heap(AsyncWebsocketConsumer):
    """The process's allocations since `mark`, on `diff` (with `BENCH_HEAP=1`)."""

    channel_layer_alias = None  # type: ignore[assignment]

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not HEAP:
            await self.send(text_data=json.dumps({"error": "BENCH_HEAP is not 1"}))
        elif text_data == "mark":
            tracemalloc.stop()
            tracemalloc.start(12)
            await self.send(text_data=json.dumps({"marked": True}))
        elif tracemalloc.is_tracing():
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            await self.send(text_data=json.dumps(self.held(snapshot)))

    @staticmethod
    def held(snapshot: tracemalloc.Snapshot) -> dict[str, object]:
        """What is held, in all, by file, and by the innermost frame outside asyncio
        (who asked for the memory)."""
        stats = snapshot.statistics("traceback")
        total = sum(s.size for s in stats)
        by_file: dict[str, int] = {}
        by_caller: dict[str, int] = {}
        for stat in stats:
            frames = list(stat.traceback)  # innermost last
            first = frames[-1]
            by_file[first.filename] = by_file.get(first.filename, 0) + stat.size
            caller = next((f for f in reversed(frames) if "/asyncio/" not in f.filename), first)
            key = f"{caller.filename}:{caller.lineno}"
            by_caller[key] = by_caller.get(key, 0) + stat.size

        def top(sizes: dict[str, int]) -> list[tuple[str, int]]:
            return sorted(sizes.items(), key=lambda kv: -kv[1])[:25]

        return {"total": total, "by_file": top(by_file), "by_caller": top(by_caller)}


application = ProtocolTypeRouter(
    {
        "http": asgi.application.application_mapping["http"],
        "websocket": URLRouter(
            [
                path("ws/bench/echo/", echo),
                path("ws/bench/floor/", floor),
                path("ws/bench/heap/", Heap.as_asgi()),
                *asgi.websocket_urlpatterns,
            ]
        ),
        # The product's scheduler (play.scheduler) runs in each process, as deployed.
        "lifespan": asgi.lifespan,
    }
)
