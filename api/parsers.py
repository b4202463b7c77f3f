"""JSON in, with limits no real request comes near: nesting deeper than 32 levels, and
strings no database column can hold (the NUL character, unpaired surrogates), are a
parse error (400), never a RecursionError or a database error (500) further on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def problem_in(value: object) -> str | None:
    """Why `value` cannot be taken, or None; walks it without recursion."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not _storable(item):
                return "a string holds a NUL character or an unpaired surrogate"
            continue
        if isinstance(item, Mapping):
            children: list[object] = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth + 1 > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep"
        stack.extend((child, depth + 1) for child in children)
    return None


class LimitedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            reason: str | None = f"nested more than {MAX_DEPTH} levels deep"
        else:
            reason = problem_in(data)
        if reason:
            raise exceptions.ParseError(f"JSON parse error - {reason}.")
        return data
