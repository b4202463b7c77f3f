"""The ASGI server's worker for gunicorn (deploy/huckley-ws@.service, `make venue`, the
benches and the tests' nodes): uvicorn's, with its WebSocket protocol holding less for
each open socket.

- **No per-message compression** (permessage-deflate). A phone's socket that negotiates
  it keeps a zlib compressor and decompressor for as long as it is open: about 44 KiB of
  the node's memory a phone, half of what a phone cost in all at the time
  (docs/performance.md, "Moves on the socket, taken by the node"). A view is a JSON
  text of one or two KiB sent a few times a minute, so compression saves a phone little
  data and costs the node that memory and the CPU of compressing every view for every
  phone.
- **`LeanSocket`**: uvicorn's own WebSocket protocol (websockets-sansio), which keeps
  for the life of a socket the handshake's request and response (their headers parsed
  twice over), an `asyncio.Queue` for the client's messages (four deques, 3.3 KB empty)
  and an `asyncio.Event` for its write buffer (another deque). A node holds a socket for
  every phone of a night, so these are most of what a phone costs it once its table's
  state is counted. `LeanSocket` lets the handshake go once the socket is accepted, and
  keeps the messages in an `Inbox` and the buffer's state in a `Flag`: the same
  operations for the one reader and the few writers a socket has, with nothing allocated
  until someone waits (docs/performance.md, "Less held a phone").

uvicorn run alone (`make run`, and `make venue` on Windows, where gunicorn cannot run)
keeps its own protocol: its command line passes none.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]  # no types shipped


class Inbox:
    """What uvicorn's protocol asks of its `asyncio.Queue` (`put_nowait`, `get`,
    `empty`), for a socket's one reader: its application, which awaits one message at
    a time. A second reader waiting at once is refused, where a queue would serve both."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("A socket's messages have one reader at a time.")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class Flag:
    """What uvicorn's protocol asks of its `asyncio.Event` (`set`, `clear`, `is_set`,
    `wait`): whether the socket's write buffer has room. Set, every waiter is woken, as
    an event wakes them; a list of waiters exists only while someone waits."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if self._set:
            return
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        if self._set:
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
        return True


class LeanSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, holding less while a socket is open (above)."""

    # Read by the protocol only until the handshake is answered.
    request: Any = None
    response: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # What the protocol calls of them, not their types (the classes above).
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and self.response is not None:
            # Answered (accepted or refused): the handshake is never read again.
            self.request = None
            self.response = None


class AsgiWorker(UvicornWorker):  # type: ignore[misc]  # its base is untyped
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        **UvicornWorker.CONFIG_KWARGS,
        "ws": LeanSocket,
        "ws_per_message_deflate": False,
    }
