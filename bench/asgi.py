"""The bench's ASGI application (`bench/play.py`): the product's, with the bare WebSocket
echo that sets the floor.

The echo answers each message with itself, with no database and no channel layer, on the
same server and under the same load as the phones' sockets, so a card's delivery time
divided by the echo's round trip, measured in the same run, says how close to the floor
online play is. It exists only here, never in the product's routes.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from huckley import asgi


class Echo(AsyncWebsocketConsumer):
    channel_layer_alias = None  # type: ignore[assignment]  # bare: no channel layer

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data, bytes_data=bytes_data)


application = ProtocolTypeRouter(
    {
        "http": asgi.application.application_mapping["http"],
        "websocket": URLRouter(
            [path("ws/bench/echo/", Echo.as_asgi()), *asgi.websocket_urlpatterns]
        ),
        # The product's scheduler (play.scheduler) runs in each process, as deployed.
        "lifespan": asgi.lifespan,
    }
)
