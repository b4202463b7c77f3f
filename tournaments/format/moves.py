"""Rules 5 and 6 after a sitting: the better half up, the worse half down, and the seats
drawn at the new tables (docs/format.md, "Movement" and "Seat draws")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic

from tournaments.format.ranking import Placing, ordinal
from tournaments.format.rules import K, check_unique


@dataclass(frozen=True)
class Move(Generic[K]):
    """Where one player goes after a sitting (docs/format.md rule 5)."""

    player: K
    from_rank: int
    to_rank: int
    direction: str  # "up" | "down" | "stay"
    place: int
    reason: str


def movement(tables: Sequence[Sequence[Placing[K]]]) -> list[Move[K]]:
    """Move the players after a sitting (docs/format.md rule 5).

    `tables` are in rank order (index 0 is the top table). At a table of n, the better
    half (places 1..n//2) moves up one table and the worse half (the last n//2) down one;
    the middle player of an odd table stays. The better half of the top table and the
    worse half of the bottom table stay, so with one table everybody stays. When every
    table has 4-7 players, every new table does too.
    """
    check_unique((p.player for table in tables for p in table), "the sitting's placings")
    count = len(tables)
    moves: list[Move[K]] = []
    for rank, table in enumerate(tables, start=1):
        n = len(table)
        if sorted(p.place for p in table) != list(range(1, n + 1)):
            raise ValueError(f"table {rank}: places must run 1..{n} once each")
        half = n // 2
        for placing in sorted(table, key=lambda p: p.place):
            where = f"{ordinal(placing.place)} of {n} at table {rank}"
            if placing.place <= half and rank > 1:
                to, direction, why = rank - 1, "up", f"moves up to table {rank - 1}"
            elif placing.place <= half:
                to, direction, why = rank, "stay", "stays at the top table"
            elif placing.place > n - half and rank < count:
                to, direction, why = rank + 1, "down", f"moves down to table {rank + 1}"
            elif placing.place > n - half:
                to, direction, why = rank, "stay", "stays at the bottom table"
            else:
                to, direction, why = rank, "stay", f"stays at table {rank} (middle place)"
            moves.append(
                Move(placing.player, rank, to, direction, placing.place, f"{where}: {why}")
            )
    return moves


def seat_tables(moves: Sequence[Move[K]], *, table_count: int, rng: random.Random) -> list[list[K]]:
    """The next sitting's tables in rank order, each in seat order (docs/format.md rule 6).

    Seats are drawn from `rng` (the service passes `make_rng(seed, "seats", sitting_no)`
    for the sitting being seated), table 1 first; each table's players are sorted before
    the draw so it depends only on who sits there.
    """
    check_unique((m.player for m in moves), "the movement")
    tables: list[list[K]] = [[] for _ in range(table_count)]
    for move in moves:
        if not 1 <= move.to_rank <= table_count:
            raise ValueError(f"move to table {move.to_rank}, but there are {table_count} tables")
        tables[move.to_rank - 1].append(move.player)
    for table in tables:
        table.sort()
        rng.shuffle(table)
    return tables
