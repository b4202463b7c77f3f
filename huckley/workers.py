"""The ASGI server's worker for gunicorn (deploy/huckley-ws.service, `make venue`, the
benches and the tests' nodes): uvicorn's, with the WebSocket's per-message compression
(permessage-deflate) off.

A phone's socket that negotiates compression keeps a zlib compressor and decompressor for
as long as it is open: about 44 KiB of the node's memory a phone, half of what a phone
cost in all (docs/performance.md, "Memory a phone"). A view is a JSON text of one or two
KiB sent a few times a minute, so compression saves a phone little data and costs the
node that memory and the CPU of compressing every view for every phone.
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]  # no types shipped


class AsgiWorker(UvicornWorker):  # type: ignore[misc]  # its base is untyped
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        **UvicornWorker.CONFIG_KWARGS,
        "ws_per_message_deflate": False,
    }
