"""ASGI entry point: every page and the API over HTTP, online play over WebSocket.

`http`: Django's ASGI application (the same views, middleware and settings as WSGI); in a
local run (`make run`: DEBUG, no WhiteNoise) wrapped in Django's static files handler, as
`runserver` serves `/static/` itself. `websocket`: the consumers of `api/consumers.py`
behind `AllowedHostsOriginValidator` (a browser's Origin must name one of ALLOWED_HOSTS),
at `ws/play/<seat_token>/` (a player's seat) and `ws/watch/<table_id>/` (a watcher: the
projector, a director; who watches is read from the session cookie, `channels.auth`).
A seat token that could not be a token (`common.tokens`) reaches the seat's consumer as
no token, and a socket at any other path is refused the same way: accepted, then closed
with 4404, as an unknown seat token or table is.
`lifespan`: online play's scheduler runs in each server process (`play.scheduler`), and
what the process made before it serves is frozen out of the garbage collector's sight
(`gc.freeze`).
docs/api.md, "WebSocket"; docs/operations.md, "The ASGI server".
"""

from __future__ import annotations

import asyncio
import gc
import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "huckley.settings")
# Read by the settings: an ASGI process keeps no database connection between requests.
os.environ["HUCKLEY_ASGI"] = "1"
# First: it sets Django up, before anything below imports a model.
django_asgi = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from api import consumers  # noqa: E402
from common import tokens  # noqa: E402, F401  # registers <token:...>
from play import scheduler  # noqa: E402


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels has no types
    """A socket at a path no pattern takes (`/ws/play/../../x/`, `/ws/watch/abc/`):
    accepted and closed with 4404, as `api.consumers` refuses an unknown seat token, where
    Channels' router would raise and the handshake would fail as a server error."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=consumers.CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    path("ws/play/<token:seat_token>/", consumers.PlayConsumer.as_asgi()),
    # Who watches is read from the session cookie: a private session's tables, and those
    # of a duplicate sitting, are for some only (api.consumers.watch_read).
    path("ws/watch/<int:table_id>/", AuthMiddlewareStack(consumers.WatchConsumer.as_asgi())),
    # Last: whatever else a socket asks for.
    re_path(r"", NoSuchSocket.as_asgi()),
]


def _http() -> object:
    """Django's application; with Django's own static files handler where `runserver`
    would serve them (DEBUG on and WhiteNoise not in the middleware)."""
    whitenoise = "whitenoise.middleware.WhiteNoiseMiddleware" in settings.MIDDLEWARE
    if (
        settings.DEBUG
        and not whitenoise
        and "django.contrib.staticfiles" in settings.INSTALLED_APPS
    ):
        return ASGIStaticFilesHandler(django_asgi)
    return django_asgi


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The server's startup and shutdown: online play's scheduler (`play.scheduler`)
    runs in every server process from startup to shutdown."""
    stop = asyncio.Event()
    runner: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            # What the process has made by now (Django, the apps, every module imported)
            # lives as long as it does: out of the collector's sight, a full collection
            # walks only what came after (a pause of 33-43 ms at 250 tables, against
            # 77-176 ms: docs/performance.md, "What a server made before it serves").
            gc.collect()
            gc.freeze()
            if settings.HUCKLEY_SCHEDULER:
                runner = asyncio.ensure_future(scheduler.run_forever(stop))
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            stop.set()
            if runner is not None:
                await runner
            gc.unfreeze()  # a server run inside another process (a test) leaves it as it was
            await send({"type": "lifespan.shutdown.complete"})
            return


application = ProtocolTypeRouter(
    {
        "http": _http(),
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
        "lifespan": lifespan,
    }
)
