"""What the tests of Huckley Buck and Hucklebuck online share (test_online_huckley.py,
test_online_huckley_games.py): the players, the two rules ids, a round's start with the
options' defaults, a round dealt as scripted, and a record of rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from engine import online
from engine.online import OnlineRound, RoundStart

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
RULES = ("huckley-buck", "hucklebuck")


def options(rules: str, **given: Any) -> dict[str, Any]:
    info = engine.rules_info(rules)
    assert info is not None
    return {**{o.name: o.default for o in info.options.values()}, **given}


def start(
    rules: str, n: int, dealer: int | None = None, number: int = 1, **opts: Any
) -> RoundStart:
    players = tuple(NAMES[:n])
    return RoundStart(
        rules,
        players,
        players[n - 1 if dealer is None else dealer],
        number,
        options(rules, **opts),
        dict.fromkeys(players, 0),
    )


def game(rules: str, n: int, *rounds: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "buck-game/1",
        "rules": rules,
        "players": NAMES[:n],
        "first_dealer": NAMES[n - 1],
        "options": {},
        "rounds": list(rounds),
    }


def scripted(begin: RoundStart, hands: Mapping[str, Sequence[str]], upcard: str) -> OnlineRound:
    """A round whose deal gives each player `hands[name]` and turns `upcard` (the rest of
    the pack in the order of `pack`, top first): the deal is one card at a time from the
    dealer's left (IHBA THE DEAL)."""
    players = begin.players
    n = len(players)
    d = players.index(begin.dealer)
    seats = [(d + k) % n for k in range(1, n + 1)]
    order = [hands[players[seats[i % n]]][i // n] for i in range(5 * n)] + [upcard]
    order += [c for c in online.pack(begin) if c not in order]
    return online.deal(begin, order)
