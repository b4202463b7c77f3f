"""Rule 7: after late arrivals and withdrawals, the fewest moves that bring every table back
within the sizes its game can play at, and why each player moves (docs/format.md,
"Rebalancing")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic

from tournaments.format.rules import FormatError, FormatRules, K, check_unique, too_few
from tournaments.format.sizes import sit_out_count


@dataclass(frozen=True)
class Rebalance(Generic[K]):
    """A proposed move for the director to confirm (docs/format.md rule 7)."""

    player: K
    from_rank: int
    to_rank: int
    reason: str
    #: What `reason` says, for a layer that words it in another language
    #: (workflow/session/format_words.py): "closes", "too_many", "too_many_opens", "opens"
    #: or "too_few", and the numbers it names (source, dest, had, most, short, least).
    code: str = ""
    values: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RebalancePlan(Generic[K]):
    """The proposal: the moves, and the tables they leave, in rank and seat order.

    `closed` lists the ranks of bottom tables the plan empties and removes; `opened` the
    ranks of new bottom tables it fills. A moved player takes the free seat at the end of
    the seat order of their new table. With nothing to do, `moves` is empty and `tables`
    equals the input.
    """

    moves: list[Rebalance[K]]
    tables: list[list[K]]
    closed: list[int]
    opened: list[int]


def _moves_needed(sizes: list[int], keep: int, lo: int, hi: int) -> int:
    """The fewest players to move so that `keep` tables each hold lo..hi players.

    Tables past `keep` close, so all their players move; tables past len(sizes) open
    empty. Every player over `hi` must leave and every seat under `lo` must be filled; the
    larger of the two is enough because the total fits `keep` tables, so the surplus finds
    room (or the shortfall finds spare players) without moving anyone else.
    """
    surplus = deficit = 0
    for rank in range(max(len(sizes), keep)):
        n = sizes[rank] if rank < len(sizes) else 0
        if rank >= keep:
            surplus += n
        elif n > hi:
            surplus += n - hi
        elif n < lo:
            deficit += lo - n
    return max(surplus, deficit)


def _target_sizes(sizes: list[int], keep: int, lo: int, hi: int, budget: int) -> list[int]:
    """Final table sizes with exactly `budget` moves, chosen in this order of preference:
    fewest tables crossed in all, then the most even tables, then moving players up rather
    than down.

    A dynamic programme over the tables, top first; the state is the net number of players
    carried across the boundary below the current table (positive: carried down). No
    boundary carries more than `budget`, which keeps the states few.
    """
    n = sizes + [0] * (max(len(sizes), keep) - len(sizes))
    # carry -> (moves, tables crossed, sum of squared sizes, players carried down)
    layer: dict[int, tuple[int, int, int, int]] = {0: (0, 0, 0, 0)}
    back: list[dict[int, tuple[int, int]]] = []
    for rank, here in enumerate(n):
        options = range(lo, hi + 1) if rank < keep else range(1)
        nxt: dict[int, tuple[int, int, int, int]] = {}
        came: dict[int, tuple[int, int]] = {}
        for carry, cost in sorted(layer.items()):
            for size in options:
                out = carry + here - size
                moved = cost[0] + max(0, here - size)
                if abs(out) > budget or moved > budget:
                    continue
                new = (moved, cost[1] + abs(out), cost[2] + size * size, cost[3] + max(0, out))
                if out not in nxt or new < nxt[out]:
                    nxt[out], came[out] = new, (carry, size)
        layer = nxt
        back.append(came)
    if 0 not in layer or layer[0][0] != budget:
        raise AssertionError(f"no plan with {budget} moves for {sizes} on {keep} tables")
    result: list[int] = []
    carry = 0
    for came in reversed(back):
        carry, size = came[carry]
        result.append(size)
    return result[::-1]


def rebalance(tables: Sequence[Sequence[K]], fmt: FormatRules) -> list[Rebalance[K]]:
    """The moves of `rebalance_plan`: empty when every table can play.

    A move to rank T+1 (with T tables now) opens that table; a bottom table that all its
    players leave is closed, so the caller deletes it once the moves are made.
    """
    return rebalance_plan(tables, fmt).moves


def rebalance_plan(tables: Sequence[Sequence[K]], fmt: FormatRules) -> RebalancePlan[K]:
    """Propose the fewest moves that bring every table within play_min..play_max (rule 7).

    `tables` are in rank order, each in seat order; a late arrival has joined the bottom
    table at the end of its seat order. The number of tables may change when that needs
    fewer moves, or when the players cannot fit the current number at all: bottom tables
    close (their players move up) or new bottom tables open. Among plans with the fewest
    moves: keep the number of tables if possible, else change it least (closing before
    opening); then cross the fewest tables (moves between adjacent tables first); then make
    the tables most even; then move players up rather than down. From a table that gives
    up players, the last in seat order go, which is the latest arrival if there is one.
    """
    check_unique((p for table in tables for p in table), "the tables")
    lo, hi = fmt.play_min, fmt.play_max
    sizes = [len(table) for table in tables]
    total = sum(sizes)
    if total < lo:
        raise too_few(total, fmt)
    fewest, most = -(-total // hi), total // lo
    if fewest > most:
        raise FormatError(
            "cannot_split",
            f"{total} players cannot be seated at tables of {lo}-{hi}; "
            f"{sit_out_count(total, fmt)} must sit out.",
        )
    current = len(tables)
    keep = min(
        range(fewest, most + 1),
        key=lambda k: (_moves_needed(sizes, k, lo, hi), abs(k - current), k),
    )
    budget = _moves_needed(sizes, keep, lo, hi)
    targets = _target_sizes(sizes, keep, lo, hi, budget)

    # Pair the players leaving with the seats to fill, both in rank order: on a line this
    # crosses the fewest tables in all.
    leaving: list[tuple[K, int]] = []
    arriving: list[int] = []
    for rank, target in enumerate(targets, start=1):
        here = list(tables[rank - 1]) if rank <= current else []
        leaving.extend((p, rank) for p in here[target:])
        arriving.extend([rank] * (target - len(here)))
    result = [list(table[:target]) for table, target in zip(tables, targets, strict=False)]
    result.extend([] for _ in range(len(result), keep))
    moves: list[Rebalance[K]] = []
    for (player, source), dest in zip(leaving, arriving, strict=True):
        code, values, reason = _rebalance_reason(source, dest, sizes, keep, fmt)
        moves.append(Rebalance(player, source, dest, reason, code, values))
        result[dest - 1].append(player)
    return RebalancePlan(
        moves=moves,
        tables=result[:keep],
        closed=list(range(keep + 1, current + 1)),
        opened=list(range(current + 1, keep + 1)),
    )


def _rebalance_reason(
    source: int, dest: int, sizes: list[int], keep: int, fmt: FormatRules
) -> tuple[str, dict[str, int], str]:
    """Why a player moves: its code, the numbers it names, and the sentence in English."""
    way = "up" if dest < source else "down"
    had = sizes[source - 1]
    values = {"source": source, "dest": dest}
    if source > keep:
        return "closes", values, f"table {source} closes: moves up to table {dest}"
    if had > fmt.play_max:
        values |= {"had": had, "most": fmt.play_max}
        opens = ", which opens" if dest > len(sizes) else ""
        return (
            "too_many_opens" if opens else "too_many",
            values,
            f"table {source} has {had} players, at most {fmt.play_max} can play: "
            f"moves {way} to table {dest}{opens}",
        )
    if dest > len(sizes):
        return "opens", values, f"table {dest} opens: moves down from table {source}"
    short = sizes[dest - 1]
    values |= {"short": short, "least": fmt.play_min}
    return (
        "too_few",
        values,
        f"table {dest} has {short} player{'' if short == 1 else 's'}, at least {fmt.play_min} "
        f"are needed: moves {way} from table {source}",
    )
