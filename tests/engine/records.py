"""Small builders for game records in the engine tests."""

from __future__ import annotations

from typing import Any

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]
FOUR = FIVE[:4]
THREE = FIVE[:3]
SEVEN = [*FIVE, "Fay", "Gus"]


def game(
    *rounds: Any,
    players: list[str] | None = None,
    rules: str = "huckley-buck",
    first_dealer: str | None = "Ann",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "buck-game/1",
        "rules": rules,
        "players": list(players or FIVE),
        "options": dict(options or {}),
        "rounds": list(rounds),
    }
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    return record


def codes(output: dict[str, Any]) -> list[tuple[Any, str, Any]]:
    """(round, code, field) of each error."""
    return [(e["round"], e["code"], e["field"]) for e in output["errors"]]
