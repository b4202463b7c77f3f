"""The ASGI worker's WebSocket protocol (huckley/workers.py): its `Inbox` and `Flag` do
what uvicorn asks of the queue and the event they replace, and `LeanSocket`, under a
real uvicorn server, carries a socket's messages both ways, in order, through a full
write buffer, and lets the handshake go once it is answered."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import connect

from huckley.workers import AsgiWorker, Flag, Inbox, LeanSocket


def run(coroutine: Any) -> Any:
    """The coroutine on an event loop of its own, in a thread of its own: a browser test
    earlier in the same pytest worker leaves Playwright's loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# Inbox ----------------------------------------------------------------------------------


def test_the_inbox_gives_its_messages_in_the_order_they_came() -> None:
    async def scenario() -> list[int]:
        inbox = Inbox()
        for n in range(5):
            inbox.put_nowait(n)
        return [await inbox.get() for _ in range(5)]

    assert run(scenario()) == [0, 1, 2, 3, 4]


def test_a_reader_waits_for_the_next_message_and_empty_says_when_none_is_left() -> None:
    async def scenario() -> tuple[bool, bool, str, bool]:
        inbox = Inbox()
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        waiting = not reader.done()
        inbox.put_nowait("connect")
        got = await reader
        return waiting, inbox.empty(), got, Inbox().empty()

    assert run(scenario()) == (True, True, "connect", True)


def test_a_second_reader_at_once_is_refused_and_a_cancelled_reader_leaves_the_inbox_usable() -> (
    None
):
    async def scenario() -> str:
        inbox = Inbox()
        first = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one reader"):
            await inbox.get()
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        inbox.put_nowait("after")
        got: str = await asyncio.wait_for(inbox.get(), 1)
        return got

    assert run(scenario()) == "after"


# Flag -----------------------------------------------------------------------------------


def test_the_flag_lets_waiters_through_only_while_set_and_wakes_them_all() -> None:
    async def scenario() -> tuple[bool, bool, bool, bool]:
        flag = Flag()
        unset = flag.is_set()
        waiters = [asyncio.ensure_future(flag.wait()) for _ in range(3)]
        await asyncio.sleep(0)
        held = not any(w.done() for w in waiters)
        flag.set()
        woken = await asyncio.gather(*waiters)
        flag.clear()
        late = asyncio.ensure_future(flag.wait())
        await asyncio.sleep(0)
        held_again = not late.done()
        flag.set()
        return unset, held and all(woken), held_again, await late

    assert run(scenario()) == (False, True, True, True)


def test_a_cancelled_waiter_is_forgotten() -> None:
    async def scenario() -> bool:
        flag = Flag()
        waiter = asyncio.ensure_future(flag.wait())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        flag.set()
        return await asyncio.wait_for(flag.wait(), 1)

    assert run(scenario()) is True


# LeanSocket under uvicorn -----------------------------------------------------------------

#: What the echo application saw of its sockets: the scopes' headers at connect.
SEEN: list[dict[bytes, bytes]] = []


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Each text message sent back; `flood N` answered with N messages of 64 KiB (more
    than the transport's write buffer holds) and then `done`."""
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            SEEN.append(dict(scope["headers"]))
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            text = message["text"]
            if text.startswith("flood "):
                for n in range(int(text.split()[1])):
                    await send({"type": "websocket.send", "text": f"{n:05d}" + "x" * 65536})
                await send({"type": "websocket.send", "text": "done"})
            else:
                await send({"type": "websocket.send", "text": text})
        elif message["type"] == "websocket.disconnect":
            return


@contextmanager
def server() -> Iterator[tuple[str, uvicorn.Server]]:
    """uvicorn in a thread of this process, with the worker's WebSocket settings."""
    config = uvicorn.Config(
        echo,
        host="127.0.0.1",
        port=0,
        ws=AsgiWorker.CONFIG_KWARGS["ws"],
        ws_per_message_deflate=AsgiWorker.CONFIG_KWARGS["ws_per_message_deflate"],
        lifespan="off",
        log_level="warning",
    )
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    for _ in range(500):
        if served.started:
            break
        threading.Event().wait(0.01)
    assert served.started, "uvicorn did not start"
    port = served.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/ws/", served
    finally:
        served.should_exit = True
        thread.join(timeout=10)


def test_a_socket_carries_its_messages_in_order_and_holds_no_handshake_once_accepted() -> None:
    SEEN.clear()
    with server() as (url, served), connect(url, additional_headers={"X-Phone": "1"}) as socket:
        sent = [f"card {n}" for n in range(50)]
        for text in sent:
            socket.send(text)
        assert [socket.recv(timeout=10) for _ in sent] == sent
        (protocol,) = served.server_state.connections
        assert isinstance(protocol, LeanSocket)
        assert protocol.request is None
        assert protocol.response is None
    # The application saw the handshake's headers when it was asked to accept.
    assert SEEN[0][b"x-phone"] == b"1"


def test_a_socket_sends_through_a_full_write_buffer_and_closes_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The socket's writes wait on its `Flag` while the client reads nothing, and go on
    once it reads: every message arrives, in order."""
    paused: list[Flag] = []
    clear = Flag.clear
    monkeypatch.setattr(Flag, "clear", lambda flag: (paused.append(flag), clear(flag))[1])
    with server() as (url, _served), connect(url, max_size=2**20) as socket:
        socket.send("flood 64")
        threading.Event().wait(0.5)  # the server fills its buffer and waits
        got = [socket.recv(timeout=10) for _ in range(64)]
        assert [text[:5] for text in got] == [f"{n:05d}" for n in range(64)]
        assert socket.recv(timeout=10) == "done"
        assert paused, "the write buffer never filled: nothing waited on the flag"
        socket.close()
        with pytest.raises(ConnectionClosedOK):
            socket.recv(timeout=10)
