"""The ASGI application's lifespan (huckley/asgi.py): what a server process made before
it serves is frozen out of the garbage collector's sight while it serves, so a full
collection walks only what came after, and given back at its shutdown
(docs/performance.md, "What a server made before it serves")."""

from __future__ import annotations

import gc
from typing import Any

from huckley.asgi import lifespan
from tests.play.sockets import run


class Made:
    """Something a process made before it serves."""


def test_a_server_process_freezes_what_it_made_before_it_serves(settings: Any) -> None:
    settings.HUCKLEY_SCHEDULER = False
    made_before = Made()  # an object the collector tracks
    answers: list[str] = []
    frozen: list[int] = []
    walked: list[bool] = []

    async def receive() -> dict[str, str]:
        if not answers:
            return {"type": "lifespan.startup"}
        # Started: what the serving process's collections walk.
        frozen.append(gc.get_freeze_count())
        walked.append(any(made_before is o for o in gc.get_objects()))
        return {"type": "lifespan.shutdown"}

    async def send(message: dict[str, str]) -> None:
        answers.append(message["type"])

    async def serve() -> None:
        await lifespan({"type": "lifespan"}, receive, send)

    gc.unfreeze()
    try:
        run(serve)
        shut_down = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert answers == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert frozen[0] > 0
    assert walked == [False]
    assert shut_down == 0
