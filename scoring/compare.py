"""Two entries of one round side by side: every field where they differ, in the words of
the round form (double entry shows them to both people at the table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.games import GameFamily

#: Fields a form does not name itself.
LABELS = {
    "trick_winners": "Trick order",
    "penalties": "Penalties",
    "misdeal": "Misdeal",
    "play": "Cards played",
}


@dataclass(frozen=True)
class Difference:
    label: str
    first: str
    second: str


def label(family: GameFamily, key: str) -> str:
    for header, prefix in family.form.columns:
        if prefix == key:
            return str(header)
    field = family.form.base_fields.get(key)
    if field is not None and field.label:
        return str(field.label)
    return LABELS.get(key, key.replace("_", " ").capitalize())


def text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return (
            ", ".join(
                f"{v.get('player')} ({str(v.get('kind', '')).replace('_', ' ')})"
                if isinstance(v, Mapping)
                else str(v)
                for v in value
            )
            or "none"
        )
    return str(value)


def _cells(
    family: GameFamily,
    data: Mapping[str, Any],
    keys: Mapping[str, Any],
    players: Sequence[str],
) -> dict[str, str]:
    """A round as (label -> text), over the fields of both entries (`keys`, each with a
    value from either entry, for its shape): one cell per player for per-player fields."""
    cells: dict[str, str] = {}
    for key, shape in keys.items():
        heading, value = label(family, key), data.get(key)
        if isinstance(shape, Mapping):
            value = value if isinstance(value, Mapping) else {}
            for name in players:
                cells[f"{heading}: {name}"] = text(value[name]) if name in value else "—"
        elif key == "out":
            value = value if isinstance(value, list) else []
            for name in players:
                cells[f"{heading}: {name}"] = "dropped" if name in value else "stayed in"
        else:
            cells[heading] = text(value) if key in data else "—"
    return cells


def differences(
    family: GameFamily,
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    players: Sequence[str],
) -> list[Difference]:
    """Every field where two entries of a round differ, in the order of the round form."""
    # In the form's order (PostgreSQL's JSONB keeps its own key order).
    form = family.form
    order = [*form.top, *(prefix for _h, prefix in form.columns)]
    found = dict(second) | dict(first)
    keys = {k: found[k] for k in order if k in found}
    keys.update((k, v) for k, v in found.items() if k not in keys)
    a = _cells(family, first, keys, players)
    b = _cells(family, second, keys, players)
    return [Difference(label, a[label], b[label]) for label in a if a[label] != b[label]]
