"""The phones and watchers of the WebSocket tests: in process, Channels' test
communicator against the whole ASGI application on the in-memory channel layer
(test_websocket.py, test_seat_pushes.py); across nodes, a real WebSocket client to a
gunicorn node (test_websocket_nodes.py, test_seat_pushes_nodes.py)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import connections
from websockets.sync.client import ClientConnection, connect

from huckley.asgi import application
from tests.servers import Node

ORIGIN = (b"origin", b"http://testserver")
TIMEOUT = 10
#: A node's socket waits this long for a message (a node may be slow on a busy machine).
NODE_TIMEOUT = 15


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """The scenario in a thread of its own: the browser tests' session-wide Playwright
    leaves an event loop marked running in the main thread, where `async_to_sync` refuses
    to start. The consumers' database calls run in that thread (the tests are
    transactional, so it sees the rows); its connection is closed at the end."""

    def in_thread() -> None:
        try:
            async_to_sync(scenario)()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(in_thread).result()


def phone(token: str, *, origin: tuple[bytes, bytes] = ORIGIN) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/play/{token}/", headers=[origin])


def watcher(table_id: int) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/watch/{table_id}/", headers=[ORIGIN])


async def opened(socket: WebsocketCommunicator) -> dict[str, Any]:
    """Connect; the first message, which must be the view."""
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    message = await socket.receive_json_from(timeout=TIMEOUT)
    assert message["type"] == "view", message
    return message["view"]  # type: ignore[no-any-return]


async def next_view(socket: WebsocketCommunicator) -> dict[str, Any]:
    message = await socket.receive_json_from(timeout=TIMEOUT)
    assert message["type"] == "view", message
    return message["view"]  # type: ignore[no-any-return]


def socket_to(node: Node, path: str) -> ClientConnection:
    # The Origin a browser sends for a page of the node: the server checks it.
    return connect(f"ws://127.0.0.1:{node.port}{path}", origin=node.url, open_timeout=NODE_TIMEOUT)


def received(socket: ClientConnection, timeout: float = NODE_TIMEOUT) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=timeout))
    return message


def a_view(socket: ClientConnection) -> dict[str, Any]:
    message = received(socket)
    assert message["type"] == "view", message
    view: dict[str, Any] = message["view"]
    return view
