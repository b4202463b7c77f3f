"""The Django side of each game family, found by rules id.

A family is the group of rules ids that share a round form and a score sheet: Huckley Buck
and Hucklebuck, Buck Euchre, Ten-Point Buck, Bluke and Bluke (New Jersey). Each family
lives in one module of this package, which defines ``FAMILY``, a `GameFamily`: its round
form, its legend and round details for the score sheet, and its print columns. The rules
ids and their facts (name, table sizes, the sense of a better score) come from the engine
(`engine.RULES`), never from here.

Modules are found the way the engine finds its rule sets: every module of this package
whose name does not start with an underscore is imported on the first lookup, and its
``FAMILY`` registered. Adding a game is adding such a module (docs/architecture.md,
"How to add a game"); nothing in this file changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

from scoring.games._base import (
    BeforeEntry,
    DropsAndTricksForm,
    GameFamily,
    PrintColumn,
    RoundForm,
    in_seat_order,
    number_field,
)

__all__ = [
    "BeforeEntry",
    "DropsAndTricksForm",
    "GameFamily",
    "PrintColumn",
    "RoundForm",
    "UnknownGame",
    "families",
    "family_for",
    "in_seat_order",
    "number_field",
    "register",
]


class UnknownGame(LookupError):
    """No family is registered for a rules id: a programming error, not a user's."""


# None until the first lookup discovers the modules of this package.
_families: dict[str, GameFamily] | None = None


def register(family: GameFamily) -> GameFamily:
    """Make `family` the Django side of each of its rules ids; returns it.

    The modules of this package are registered by discovery; call this directly only for
    a family that lives elsewhere. Two families claiming one rules id is an error.
    """
    _add(_registry(), family)
    return family


def _add(registry: dict[str, GameFamily], family: GameFamily) -> None:
    for rules_id in family.rules_ids:
        taken = registry.get(rules_id)
        if taken is not None and taken is not family:
            raise ValueError(
                f"the families {taken.name!r} and {family.name!r} both claim {rules_id!r}"
            )
    for rules_id in family.rules_ids:
        registry[rules_id] = family


def family_for(rules_id: str) -> GameFamily:
    """The family of a rules id; `UnknownGame` if no module registers it."""
    family = _registry().get(rules_id)
    if family is None:
        known = ", ".join(sorted(_registry()))
        raise UnknownGame(
            f"no game family is registered for the rules id {rules_id!r} (known: {known}); "
            "add a module to scoring/games/ that defines FAMILY for it "
            "(docs/architecture.md, How to add a game)"
        )
    return family


def families() -> Mapping[str, GameFamily]:
    """Every registered rules id, to its family (read-only)."""
    return MappingProxyType(_registry())


def _registry() -> dict[str, GameFamily]:
    global _families
    if _families is None:
        # Built whole before it is published, so a second thread never sees it half-filled.
        found: dict[str, GameFamily] = {}
        for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if module_info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{__name__}.{module_info.name}")
            family = getattr(module, "FAMILY", None)
            if not isinstance(family, GameFamily):
                raise TypeError(f"{module.__name__} must define FAMILY, a GameFamily")
            _add(found, family)
        _families = found
    return _families
