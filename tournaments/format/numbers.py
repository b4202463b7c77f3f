"""Physical table numbers: which table of the hall hosts each rank of a sitting
(docs/format.md, "Tables that do not move").

The format moves players between ranks (1 is the top). Most clubs number their tables by
rank, and then nothing here changes anything: every rank plays at the table of its number.
A player who cannot move (mobility) may be fixed to one physical table; then each sitting,
the physical numbers are handed to the ranks so that this player's table hosts the rank
they play at, and everyone else moves as usual.

The rule, top rank first:

1. A rank with fixed players takes the table of one of them: the lowest table number
   among them (then the smaller player key). The others fixed at that rank play at that
   table this sitting, not at their own, and are told so.
2. A table already taken by a rank above is not taken twice: the fixed player of the lower
   rank plays elsewhere this sitting, and is told so.
3. The ranks left take the smallest numbers no rank has taken, top rank first.

So with no fixed player, rank r plays at table r. Pure Python, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic

from tournaments.format.rules import K


@dataclass(frozen=True)
class Numbering(Generic[K]):
    """`numbers[i]` is the physical table of rank i + 1; `notes` say what the fixed players'
    tables did this sitting, in words for the director."""

    numbers: list[int]
    notes: list[str] = field(default_factory=list)


def table_numbers(
    tables: Sequence[Sequence[K]],
    fixed: Mapping[K, int],
    *,
    names: Mapping[K, str] | None = None,
) -> Numbering[K]:
    """The physical table number of each rank of `tables` (rank order), given the players
    `fixed` to a physical table (a number from 1). Players fixed but not seated are
    ignored."""
    known = dict(names or {})

    def name(p: K) -> str:
        return known.get(p, str(p))

    numbers: list[int | None] = [None] * len(tables)
    host: dict[int, int] = {}  # physical number -> rank index
    # (player, the table they wanted, the rank they play at, why not: "" when kept,
    # "shared" for a rank with another fixed table, "taken" for a table of a rank above)
    events: list[tuple[K, int, int, str]] = []
    for index, table in enumerate(tables):
        for wanted, player in sorted((fixed[p], p) for p in table if p in fixed):
            if numbers[index] is not None:
                events.append((player, wanted, index, "" if wanted == numbers[index] else "shared"))
            elif wanted in host:
                events.append((player, wanted, index, "taken"))
            else:
                numbers[index] = wanted
                host[wanted] = index
                events.append((player, wanted, index, ""))
    free = (n for n in range(1, len(tables) + len(host) + 1) if n not in host)
    result = [n if n is not None else next(free) for n in numbers]
    notes = []
    for player, wanted, index, why in events:
        rank, plays_at = index + 1, result[index]
        if not why:
            notes.append(
                f"{name(player)} stays at table {wanted}, which hosts rank {rank} this sitting"
            )
        elif why == "shared":
            notes.append(
                f"{name(player)} cannot stay at table {wanted} this sitting: rank {rank}, "
                f"where they play, is at table {plays_at} (a player fixed to a lower table "
                f"number plays at that rank too)"
            )
        else:
            notes.append(
                f"{name(player)} cannot stay at table {wanted} this sitting: it hosts rank "
                f"{host[wanted] + 1}; they play at rank {rank}, at table {plays_at}"
            )
    return Numbering(result, notes)
