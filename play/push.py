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


def table_changed(table_id: int) -> selectors.TableNow | None:
    """Send every seat and watcher of the table its view now (after a commit), all from
    one load of the table's state; what was sent, or None when nothing could be. Each
    message also says when a robot's move may next fall due at the table (`due`, seconds
    since the epoch, or None) and the table, for the sockets' timers: the consumers do not
    read it back from the database after every move."""
    layer = _layer()
    if layer is None:
        return None
    try:
        now = selectors.table_now(table_id)
        send = async_to_sync(_send_all)
        send(layer, table_id, now)
    except Exception:
        logger.warning("the push of table %s failed", table_id, exc_info=True)
        return None
    return now


async def _send_all(layer: Any, table_id: int, now: selectors.TableNow) -> None:
    due = None if now.due is None else now.due[1].timestamp()
    for token, view in now.views.items():
        await layer.group_send(
            f"play.{token}", {"type": "play.view", "view": view, "due": due, "table": table_id}
        )
    await layer.group_send(
        f"watch.{table_id}", {"type": "play.view", "view": now.watch, "due": due, "table": table_id}
    )
