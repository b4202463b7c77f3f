"""JSON text for what online play writes out many times a second: each socket's view, a
table's message on its channel, a round's state and history entry written with a move.
orjson makes the same JSON about ten times faster than the `json` module (a seat's view:
5 against 59 microseconds, docs/performance.md), and a move makes four views and more.
The text is compact and keeps non-ASCII characters as they are (UTF-8), where
`json.dumps` writes `\\u` escapes: the same JSON to any reader.

Reading is left to `json`: orjson reads an integer beyond 64 bits as a float.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: As `json.dumps` does, a key that is not a string (an int) is written as one.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(data: Any) -> str:
    """`data` as compact JSON text. What orjson does not write and `json` does (an
    integer beyond 64 bits, a string with a lone surrogate) is written by `json`."""
    try:
        return orjson.dumps(data, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"))
