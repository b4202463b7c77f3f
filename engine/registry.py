"""The rule sets the engine knows, found by looking in `engine.games`.

Each module (or package) in `engine.games` whose name does not start with an underscore
may define ``RULE_SETS``, a tuple of `RuleSet` instances. Adding a game is adding such a
module: nothing here or in the core changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

from engine import games
from engine.base import EngineUsageError, RuleSet, RulesInfo


def _discover() -> dict[str, RuleSet]:
    found: dict[str, RuleSet] = {}
    for module_info in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{games.__name__}.{module_info.name}")
        for rule_set in getattr(module, "RULE_SETS", ()):
            if rule_set.info.id in found:
                raise EngineUsageError(f"two rule sets claim the id {rule_set.info.id!r}")
            found[rule_set.info.id] = rule_set
    return found


_RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(_discover())

#: Every rules id the engine can check, to what the tournament layer needs to know of it.
RULES: Mapping[str, RulesInfo] = MappingProxyType(
    {rules_id: rule_set.info for rules_id, rule_set in _RULE_SETS.items()}
)


def rule_set(rules_id: object) -> RuleSet | None:
    """The rule set for an id, or None for an id the engine does not know."""
    return _RULE_SETS.get(rules_id) if isinstance(rules_id, str) else None


def rules_info(rules_id: str) -> RulesInfo:
    """What the engine knows about a rules id; raises `EngineUsageError` for an unknown id."""
    info = RULES.get(rules_id)
    if info is None:
        known = ", ".join(sorted(RULES))
        raise EngineUsageError(f"unknown rules id {rules_id!r}; known: {known}")
    return info
