"""Keep-apart wishes for the first sitting: players a club keeps from starting at the same
table (spouses, siblings), honoured after the split when possible (docs/format.md,
"Keep apart").

`keep_apart` takes the split's tables (from `split` or `seeded_split`) and the pairs, and
moves players between tables until no pair shares one. It never changes a table's size,
never moves a pinned player (last season's Big Loser stays at the bottom table), and moves
as few players as it can, as short a way as it can: a player of a pair keeps the table the
split gave them when that works, else takes the nearest table by rank that does; players
of no pair fill the seats left, from the nearest table. For a seeded start that is the
trade-off: a pair is kept apart at the price of one player (and the one who takes their
seat) playing a table or two away from where their strength put them; with `strength`,
the player who goes up is the strongest of their table and the one who goes down the
weakest, which keeps the seeding's order as far as it can be kept.

Which seating is found is deterministic: the pairs are worked through in their order
(sorted), and ties between tables as near as each other are drawn from the `rng` the
caller passes (`make_rng(seed, "keep-apart")`). When the wishes cannot all be kept, the
pairs are kept first come, first kept, and each pair given up is reported with why.

Like the rest of the package, this imports no Django: player keys are any hashable,
orderable keys, and the reasons name players through `names`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic

from tournaments.format.rules import K, check_unique

# How many placements one search may try before it gives up on a pair. A club's wishes
# (a few couples) are settled in a handful; this bounds the time a contrived set can take.
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class NotKeptApart(Generic[K]):
    """A pair the seating could not keep apart, and why, in words for the director."""

    first: K
    second: K
    reason: str
    #: What `reason` says, for a layer that words it in another language
    #: (workflow/session/format_words.py): "one_table", "pinned_together",
    #: "too_many_apart", "partners" or "no_seating", and the names and numbers it gives.
    code: str = ""
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Apart(Generic[K]):
    """The tables in rank order, each in seat order, and the pairs that share a table."""

    tables: list[list[K]]
    not_kept: list[NotKeptApart[K]] = field(default_factory=list)
    moved: list[K] = field(default_factory=list)


def canonical_pairs(pairs: Iterable[tuple[K, K]]) -> list[tuple[K, K]]:
    """The pairs with the smaller key first, each once, sorted; a player paired with
    themself is dropped (a club cannot store one)."""
    found = {(a, b) if a < b else (b, a) for a, b in pairs if a != b}
    return sorted(found)


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sizes_text(sizes: Sequence[int]) -> str:
    return _join([str(s) for s in sizes])


class _Search(Generic[K]):
    """Places the players of the kept pairs at tables with room, no pair at one table.

    Backtracking in the order of the most constrained player first (the one whose
    partners already fill the most tables); each player tries the table they sit at now,
    then the others nearest by rank. Gives up after `SEARCH_BUDGET` tries.
    """

    def __init__(
        self,
        *,
        now: Mapping[K, int],
        room: Sequence[int],
        pinned: Mapping[K, int],
        rng: random.Random,
    ) -> None:
        self.now = dict(now)
        self.room = list(room)
        self.pinned = pinned
        self.rng = rng
        self.tried = 0

    def run(self, pairs: Sequence[tuple[K, K]]) -> dict[K, int] | None:
        partners: dict[K, set[K]] = {}
        for a, b in pairs:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
        players = sorted(partners)
        # Ties between tables equally far away: one draw per player and search, so the
        # search is the same in every run with the same seed.
        tiebreak = {p: self.rng.random() for p in players}
        placed: dict[K, int] = {}
        room = list(self.room)
        for player in players:
            if player in self.pinned:
                placed[player] = self.pinned[player]
        for a, b in pairs:
            if a in placed and b in placed and placed[a] == placed[b]:
                return None  # two pinned players at one table
        self.tried = 0
        free = [p for p in players if p not in placed]
        return placed if self._place(free, placed, room, partners, tiebreak) else None

    def _choices(
        self,
        player: K,
        placed: Mapping[K, int],
        room: list[int],
        partners: dict[K, set[K]],
        tiebreak: Mapping[K, float],
    ) -> list[int]:
        taken = {placed[q] for q in partners[player] if q in placed}
        home = self.now[player]
        options = [t for t in range(len(room)) if room[t] > 0 and t not in taken]
        flip = tiebreak[player] < 0.5
        return sorted(options, key=lambda t: (abs(t - home), (t < home) == flip))

    def _place(
        self,
        free: list[K],
        placed: dict[K, int],
        room: list[int],
        partners: dict[K, set[K]],
        tiebreak: Mapping[K, float],
    ) -> bool:
        if not free:
            return True
        self.tried += 1
        if self.tried > SEARCH_BUDGET:
            return False

        def blocked(p: K) -> tuple[int, int, K]:
            taken = {placed[q] for q in partners[p] if q in placed}
            return (-len(taken), -len(partners[p]), p)

        player = min(free, key=blocked)
        rest = [p for p in free if p != player]
        for table in self._choices(player, placed, room, partners, tiebreak):
            placed[player] = table
            room[table] -= 1
            if self._place(rest, placed, room, partners, tiebreak):
                return True
            room[table] += 1
            del placed[player]
        return False


def keep_apart(
    tables: Sequence[Sequence[K]],
    pairs: Iterable[tuple[K, K]],
    *,
    rng: random.Random,
    pinned: Iterable[K] = (),
    strength: Mapping[K, float] | None = None,
    names: Mapping[K, str] | None = None,
) -> Apart[K]:
    """The split's `tables` (rank order, seat order) with the `pairs` kept apart when
    possible (docs/format.md, "Keep apart").

    Pairs with a player who is not seated (not checked in, sitting out) are ignored.
    `pinned` players stay at their table (the Big Loser at the bottom). Table sizes never
    change. A player who changes table takes the seat of one who left it, so the seat
    draw stays as it was for everyone else. Each pair left at one table is reported in
    `not_kept`, with why, in words that use `names` (else the keys).
    """
    check_unique((p for table in tables for p in table), "the tables")
    known = dict(names or {})

    def name(p: K) -> str:
        return known.get(p, str(p))

    now = {p: t for t, table in enumerate(tables) for p in table}
    wishes = [pair for pair in canonical_pairs(pairs) if pair[0] in now and pair[1] in now]
    result = [list(table) for table in tables]
    if not wishes:
        return Apart(result)
    if len(tables) == 1:
        return Apart(
            result,
            [NotKeptApart(a, b, "there is only one table", "one_table") for a, b in wishes],
        )
    pins = {p: now[p] for p in pinned if p in now}
    # The seats the players of the pairs may take: all but the pinned players' own.
    room = [len(t) for t in tables]
    for table in pins.values():
        room[table] -= 1
    search = _Search(now=now, room=room, pinned=pins, rng=rng)
    kept: list[tuple[K, K]] = []
    not_kept: list[NotKeptApart[K]] = []
    where: dict[K, int] = {}
    for pair in wishes:
        trial = [*kept, pair]
        a, b = pair
        # Already apart where they sit now, with room there for whoever is newly placed:
        # nothing to search (the pairs kept so far are apart by construction).
        trying = {p: now[p] for p in pair if p not in where and p not in pins}
        seats = [
            sum(1 for p, t in where.items() if t == n and p not in pins) for n in range(len(room))
        ]
        for t in trying.values():
            seats[t] += 1
        if where.get(a, now[a]) != where.get(b, now[b]) and all(
            used <= free for used, free in zip(seats, room, strict=True)
        ):
            where.setdefault(a, now[a])
            where.setdefault(b, now[b])
            kept.append(pair)
            continue
        # Each player of a pair tries first the table the seating so far gives them.
        search.now = {**now, **where}
        found = search.run(trial)
        if found is None:
            code, values, reason = _why(pair, kept, tables, pins, name)
            not_kept.append(NotKeptApart(a, b, reason, code, values))
            continue
        kept.append(pair)
        where = found
    result, moved = _seat(tables, where, pins, strength, rng)
    return Apart(result, not_kept, moved)


def _seat(
    tables: Sequence[Sequence[K]],
    where: Mapping[K, int],
    pins: Mapping[K, int],
    strength: Mapping[K, float] | None,
    rng: random.Random,
) -> tuple[list[list[K]], list[K]]:
    """Everyone at a table: the players of pairs where the search put them, the others
    filling the seats left, moving as few and as short a way as possible."""
    count = len(tables)
    room = [len(t) for t in tables]
    for home in where.values():
        room[home] -= 1
    stay: list[list[K]] = [[] for _ in tables]
    spare: list[list[K]] = [[] for _ in tables]
    for t, table in enumerate(tables):
        for p in table:
            if p in where:
                continue
            stay[t].append(p)
    # A table with more free players than room gives some away: which ones is decided
    # below, once it is known whether they go up or down.
    over = [len(stay[t]) - room[t] for t in range(count)]
    givers = [t for t in range(count) for _ in range(max(0, over[t]))]
    takers = [t for t in range(count) for _ in range(max(0, -over[t]))]
    for source, dest in zip(givers, takers, strict=True):
        candidates = sorted(p for p in stay[source] if p not in pins)
        if strength is not None:
            # Up: the strongest of the table goes; down: the weakest.
            candidates.sort(key=lambda p: strength.get(p, 0.0), reverse=dest < source)
            player = candidates[0]
        else:
            player = rng.choice(candidates)
        stay[source].remove(player)
        spare[dest].append(player)
    final = [set(stay[t]) | set(spare[t]) for t in range(count)]
    for p, t in where.items():
        final[t].add(p)
    result: list[list[K]] = []
    moved: list[K] = []
    for t, table in enumerate(tables):
        kept = [p for p in table if p in final[t]]
        arriving = sorted(final[t] - set(kept))
        moved.extend(arriving)
        seats: list[K] = []
        for p in table:
            # An arriving player takes the seat of one who left, in the order of arrival.
            seats.append(p if p in final[t] else arriving.pop(0))
        result.append(seats)
    return result, sorted(moved)


def _why(
    pair: tuple[K, K],
    kept: Sequence[tuple[K, K]],
    tables: Sequence[Sequence[K]],
    pins: Mapping[K, int],
    name: Callable[[K], str],
) -> tuple[str, dict[str, object], str]:
    """Why a pair cannot be kept apart along with the pairs kept before it: its code, the
    names and numbers it gives, and the sentence in English."""
    a, b = pair
    count = len(tables)
    if a in pins and b in pins and pins[a] == pins[b]:
        return (
            "pinned_together",
            {"first": name(a), "second": name(b), "table": pins[a] + 1},
            f"{name(a)} and {name(b)} must both sit at table {pins[a] + 1}",
        )
    graph = [*kept, pair]
    partners: dict[K, set[K]] = {}
    for x, y in graph:
        partners.setdefault(x, set()).add(y)
        partners.setdefault(y, set()).add(x)
    # A group all kept apart from each other needs a table each.
    clique = [a, b]
    for p in sorted(partners[a] & partners[b]):
        if all(p in partners[q] for q in clique):
            clique.append(p)
    if len(clique) > count:
        names = sorted(name(p) for p in clique)
        return (
            "too_many_apart",
            {"names": names, "tables": count},
            f"{_join(names)} are all kept apart from each other and there are {count} tables",
        )
    sizes = [len(t) for t in tables]
    total = sum(sizes)
    for p in (a, b):
        most_elsewhere = total - min(sizes)
        if p in pins:
            most_elsewhere = total - sizes[pins[p]]
        if len(partners[p]) > most_elsewhere:
            return (
                "partners",
                {"name": name(p), "partners": len(partners[p]), "seats": most_elsewhere},
                f"{name(p)} is kept apart from {len(partners[p])} players and the other "
                f"tables seat only {most_elsewhere}",
            )
    return (
        "no_seating",
        {"sizes": sizes},
        f"no seating at tables of {_sizes_text(sizes)} was found that keeps this pair "
        "apart as well as the pairs kept before it",
    )
