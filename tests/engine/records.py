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


def change_a_trick_count(record: dict[str, Any], pick: int, new_count: int) -> int:
    """Change one player's entry in one round's `tricks` (the `pick`-th entry of the
    record, wrapping around) to `new_count`, or to the next count when that is the one
    there; returns the index of the round changed."""
    entries = [
        (i, name) for i, rnd in enumerate(record["rounds"]) for name in rnd.get("tricks", {})
    ]
    i, name = entries[pick % len(entries)]
    old = record["rounds"][i]["tricks"][name]
    if new_count == old:
        new_count = (old + 1) % 6
    record["rounds"][i]["tricks"][name] = new_count
    return i


def codes(output: dict[str, Any]) -> list[tuple[Any, str, Any]]:
    """(round, code, field) of each error."""
    return [(e["round"], e["code"], e["field"]) for e in output["errors"]]


#: The keys of every output document (docs/game-record.md, "The verdict").
VERDICT_KEYS = {"valid", "rules", "rounds", "scores", "finished", "winner", "next_dealer", "errors"}


def assert_is_a_verdict(output: dict[str, Any]) -> None:
    """`output` has the verdict's shape, and `valid` agrees with `errors`: for the
    never-raises properties, where any well-formed verdict will do."""
    assert set(output) == VERDICT_KEYS
    assert output["valid"] is (output["errors"] == [])
    for error in output["errors"]:
        assert isinstance(error["code"], str)
        assert error["code"]
        assert isinstance(error["message"], str)
        assert error["message"]
        assert error["round"] is None or (isinstance(error["round"], int) and error["round"] >= 1)
