"""Rules 1, 2 and 6 for the first sitting: the roster split into ranked tables, at random
or by strength, with last season's Big Loser at the bottom table (docs/format.md, "The
split")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.format.robots import robot_split
from tournaments.format.rules import FormatRules, K, check_unique
from tournaments.format.seeds import make_rng
from tournaments.format.sizes import table_sizes


def _sizes(n: int, fmt: FormatRules, robots: bool) -> list[int]:
    """The players of each table: `table_sizes`, or with `robots` the seats `robot_split`
    leaves to players."""
    return robot_split(n, fmt).players if robots else table_sizes(n, fmt)


def split(
    players: Sequence[K],
    *,
    fmt: FormatRules,
    seed: int,
    big_loser: K | None = None,
    robots: bool = False,
) -> list[list[K]]:
    """Split the roster into ranked tables for the first sitting (docs/format.md rules 1, 2, 6).

    Returns the tables in rank order (index 0 is table 1, the top table), each in seat
    order. Membership and seats both come from `make_rng(seed, "split")`; the players are
    sorted first, so the result depends only on who plays and the seed. Last season's Big
    Loser, if among the players, sits at the bottom table in a seat drawn like the others.

    With `robots` (a session that fills with robots, docs/format.md "Robots"), the tables
    are those of `robot_split`: each holds its players only, and the caller seats
    `robot_split(...).robots[i]` robots after them at table i.
    """
    check_unique(players, "the roster")
    sizes = _sizes(len(players), fmt, robots)
    rng = make_rng(seed, "split")
    others = sorted(p for p in players if p != big_loser)
    has_big_loser = len(others) < len(players)
    rng.shuffle(others)
    tables: list[list[K]] = []
    start = 0
    for size in sizes:
        # The bottom table comes last: when the Big Loser plays, one player fewer is left
        # for it, and the Big Loser takes that place.
        tables.append(others[start : start + size])
        start += size
    if big_loser is not None and has_big_loser:
        tables[-1].append(big_loser)
    for table in tables:
        rng.shuffle(table)
    return tables


def seeded_split(
    players: Sequence[K],
    *,
    fmt: FormatRules,
    seed: int,
    strength: Mapping[K, float],
    balanced: bool = False,
    big_loser: K | None = None,
    robots: bool = False,
) -> list[list[K]]:
    """Split the roster into ranked tables for the first sitting by strength (a rating:
    higher is stronger; a player missing from `strength` counts as 0.0), instead of at
    random. The table sizes are those of `split`.

    - Strongest at the top table (`balanced=False`): table 1 takes the strongest players,
      table 2 the next, and so on down.
    - Balanced (`balanced=True`): the players are dealt out in order of strength, one to
      each table and back again (1, 2, ..., n, n, ..., 1), so every table gets a similar mix.

    Equal strengths are ordered by a draw from `make_rng(seed, "seeded-split")` and the
    seats at each table are drawn from it too, so the result depends only on who plays,
    their strengths and the seed. Last season's Big Loser still sits at the bottom table.
    `robots` leaves the robots' seats as `split` does.
    """
    check_unique(players, "the roster")
    sizes = _sizes(len(players), fmt, robots)
    rng = make_rng(seed, "seeded-split")
    others = sorted(p for p in players if p != big_loser)
    has_big_loser = len(others) < len(players)
    rng.shuffle(others)
    others.sort(key=lambda p: -strength.get(p, 0.0))  # stable: the draw breaks ties
    room = list(sizes)
    if has_big_loser:
        room[-1] -= 1  # the Big Loser's place at the bottom table
    tables: list[list[K]] = [[] for _ in sizes]
    if balanced:
        order = list(range(len(sizes)))
        turn = 0
        for player in others:
            # Snake through the tables, skipping the ones already full.
            while True:
                lap, step = divmod(turn, len(order))
                rank = order[step] if lap % 2 == 0 else order[-1 - step]
                turn += 1
                if len(tables[rank]) < room[rank]:
                    tables[rank].append(player)
                    break
    else:
        start = 0
        for rank, take in enumerate(room):
            tables[rank] = others[start : start + take]
            start += take
    if big_loser is not None and has_big_loser:
        tables[-1].append(big_loser)
    for table in tables:
        rng.shuffle(table)
    return tables
