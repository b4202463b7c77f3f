"""JSON in, with limits: a body nested deeper than any request needs is refused as a
parse error (400), never a RecursionError (500) in the parser, the engine or the store."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


def depth_of(value: Any) -> int:
    """How deeply lists and objects nest in `value` (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


class LimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
            too_deep = True
        else:
            too_deep = depth_of(data) > MAX_DEPTH
        if too_deep:
            raise exceptions.ParseError(
                f"JSON parse error - nested more than {MAX_DEPTH} levels deep."
            )
        return data
