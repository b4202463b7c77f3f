"""The push of a table's change to its phones and watchers (docs/api.md, "WebSocket").

After a change commits, every seat of the table gets its own view on the group
`play.<token>` and the watchers the watcher's view on `watch.<table id>`, as
`{"type": "play.view", "view": ...}` messages of the channel layer; the WebSocket
consumers hand them on. Without a channel layer (Channels not configured) or with one
that fails, the push is skipped: the phones that poll read the same views.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync

from play import selectors

logger = logging.getLogger(__name__)


def _layer() -> Any:
    try:
        from channels.layers import get_channel_layer
    except ImportError:  # pragma: no cover - channels is a dependency
        return None
    try:
        return get_channel_layer()
    except Exception:
        logger.warning("no channel layer: the push of online play is off")
        return None


def table_changed(table_id: int) -> None:
    """Send every seat and watcher of the table its view now (after a commit)."""
    layer = _layer()
    if layer is None:
        return
    try:
        views = selectors.table_views(table_id)
        watch = selectors.watch_view(table_id)
        send = async_to_sync(_send_all)
        send(layer, table_id, views, watch)
    except Exception:
        logger.warning("the push of table %s failed", table_id, exc_info=True)


async def _send_all(
    layer: Any, table_id: int, views: dict[str, dict[str, Any]], watch: dict[str, Any]
) -> None:
    for token, view in views.items():
        await layer.group_send(f"play.{token}", {"type": "play.view", "view": view})
    await layer.group_send(f"watch.{table_id}", {"type": "play.view", "view": watch})
