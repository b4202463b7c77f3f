"""A WebSocket's tick timer stops when its socket closes, even when the close lands
while the timer's tick runs in its thread: when the cancellation reaches a call the
thread made back into the event loop (the tick's push) and that call ends without
raising it, asgiref's `sync_to_async` returns the thread's result instead of raising,
and such a timer used to tick its table on for ever (a robot playing for a player who
had gone, from a socket long shut)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, async_to_sync

from api import consumers


def test_a_timer_stopped_while_its_tick_runs_ticks_no_more(monkeypatch: Any) -> None:
    pushing = threading.Event()
    ticks: list[int] = []

    async def pushed() -> None:
        """The first tick's push, through the server's loop, still under way when the
        socket closes; it ends quietly when cancelled, as a network call may."""
        if len(ticks) > 1:
            return
        pushing.set()
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            return

    def tick(table_id: int) -> None:
        ticks.append(table_id)
        async_to_sync(pushed)()

    monkeypatch.setattr(consumers.services, "tick", tick)

    async def scenario() -> bool:
        # The timer's calls to the database get a thread of their own, as a socket's do
        # in the server: not the process's shared one, which another test may hold.
        async with ThreadSensitiveContext():
            socket = consumers.PlayConsumer()
            socket.next_due = lambda: (7, time.time())  # type: ignore[method-assign]
            socket.schedule_tick(True, (7, time.time()))
            timer = socket._timer
            assert timer is not None
            assert await asyncio.to_thread(pushing.wait, 10), "the tick never pushed"
            await socket.disconnect(1000)  # the phone goes while the tick pushes
            # Time for the timer to come round again, were it still running.
            await asyncio.sleep(2 * consumers.MIN_TICK_INTERVAL + 0.5)
            return timer.done()

    # In a thread of its own: the browser tests leave an event loop marked running in
    # the main thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(asyncio.run, scenario()).result(timeout=30)
    assert ticks == [7]
