"""A round played move by move, as an online table plays it (docs/engine.md, "Online rounds").

The checker (`engine.check`) reads a finished round; an online table needs the round while
it is played: whose turn it is, what that player may do now, and what each player may see.
Each game that can be played online gives its rule set an `OnlineRound` subclass
(`RuleSet.online`); `online_class` finds it by rules id and `playable` says whether a
game has one. The interface itself (`OnlineRound`, `RoundStart`, `MoveRefused`, the phase
names) is written in `engine.online_round`, below the registry, and re-exported here.

The caller shuffles: it asks the class for the round's unshuffled pack (`pack`), shuffles
it as it must (the tournament layer with `secrets`, a duplicate sitting with one seed per
round), and hands the order in. Everything after the shuffle is decided here, by the same
rules the checker applies, and a finished round's `record()` is a round of the game record
that `engine.check` accepts.

A round is plain data: `to_json` and `from_json` round-trip it, so the tournament layer
stores it between two moves. Nothing here is random and nothing reads a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import EngineUsageError
from engine.online_round import END, PLAY, Move, MoveRefused, OnlineRound, RoundStart
from engine.registry import rule_set

__all__ = [
    "END",
    "PLAY",
    "Move",
    "MoveRefused",
    "OnlineRound",
    "RoundStart",
    "deal",
    "online_class",
    "pack",
    "playable",
    "restore",
]


def playable(rules_id: str) -> bool:
    """Whether the game `rules_id` can be played online (False for an unknown id)."""
    found = rule_set(rules_id)
    return getattr(found, "online", None) is not None


def online_class(rules_id: str) -> type[OnlineRound]:
    """The online round of a game; `EngineUsageError` for a game that cannot be played
    online or an unknown id."""
    found = rule_set(rules_id)
    cls = getattr(found, "online", None) if found is not None else None
    if cls is None:
        raise EngineUsageError(f"the rules {rules_id!r} cannot be played online")
    return cls  # type: ignore[no-any-return]


def deal(start: RoundStart, order: Sequence[str]) -> OnlineRound:
    """A new round of `start.rules_id`, dealt from `order`."""
    return online_class(start.rules_id).deal(start, order)


def pack(start: RoundStart) -> list[str]:
    """The unshuffled pack of the round `start` describes."""
    return online_class(start.rules_id).pack(start)


def restore(rules_id: str, data: Mapping[str, Any]) -> OnlineRound:
    """A round stored with `OnlineRound.to_json`."""
    return online_class(rules_id).from_json(data)
