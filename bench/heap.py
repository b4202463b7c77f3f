"""What the Python heap of one ASGI process holds for the phones (`bench/play.py --heap`):
the process's heap socket (bench/asgi.py, `BENCH_HEAP=1`), asked to mark and to diff."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class Heap:
    """The bench's heap socket of one ASGI process (bench/asgi.py, `BENCH_HEAP=1`)."""

    def __init__(self, port: int) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/bench/heap/"

    def ask(self, what: str) -> dict[str, Any]:
        from websockets.sync.client import connect

        with connect(self.url, max_size=2**22, open_timeout=60) as socket:
            socket.send(what)
            answer: dict[str, Any] = json.loads(socket.recv(timeout=120))
        return answer


def per_phone(heaped: dict[str, Any], phones: int) -> dict[str, Any]:
    """The heap's growth while the phones connected, in bytes a phone."""

    def each(rows: list[tuple[str, int]]) -> list[tuple[str, float]]:
        root = str(Path(__file__).resolve().parent.parent) + "/"
        return [(where.replace(root, ""), round(size / phones)) for where, size in rows[:15]]

    return {
        "total_bytes": round(heaped["total"] / phones),
        "by_file": each(heaped["by_file"]),
        "by_caller": each(heaped["by_caller"]),
    }
