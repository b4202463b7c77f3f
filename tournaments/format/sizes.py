"""Rule 1, the table sizes of a split, and rule 8's sit-outs: how many players a split
cannot seat, and who sits out (docs/format.md, "Table sizes" and "Other rules ids")."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tournaments.format.rules import FormatError, FormatRules, K, check_unique, too_few


def _table_count(n: int, fmt: FormatRules) -> int | None:
    """How many tables the split makes of `n` players, or None if no count fits.

    Tables of `ideal` (four) with the rest spread over them; when that makes a table too
    big, one more table at a time, as long as the tables stay big enough. A head count no
    such split seats plays at one table if a table can play with that many, which only a
    format the director widened allows (five at Bluke: `format_for(any_playable_size=)`).
    """
    if fmt.play_min <= n <= fmt.split_max:
        return 1
    tables = max(1, n // fmt.ideal)
    while -(-n // tables) > fmt.split_max:
        tables += 1
    if n // tables >= fmt.split_min:
        return tables
    return 1 if n <= fmt.play_max else None


def can_split(n: int, fmt: FormatRules) -> bool:
    """Whether a split seats `n` players with nobody sitting out (only `n` in the game's
    range at one table, or tables of `split_min`..`split_max`)."""
    return _table_count(n, fmt) is not None


def sit_out_count(n: int, fmt: FormatRules) -> int:
    """How many of `n` players must sit out a sitting because no split seats them all.

    Always 0 for Huckley Buck and Hucklebuck (4-7 fits every head count from 3 up). It is
    the hook for formats such as Buck Euchre (exactly 4 a table), where the players over a
    multiple of 4 sit out in turn; choosing who sits out is the caller's job.
    """
    if n < fmt.play_min:
        raise too_few(n, fmt)
    out = 0
    # Ends by n - out == play_min at the latest: that many always make one table.
    while not can_split(n - out, fmt):
        out += 1
    return out


def choose_sit_outs(
    players: Sequence[K], count: int, *, sat_out: Mapping[K, int], rng: random.Random
) -> list[K]:
    """Who sits out this sitting (docs/format.md rule 8): those who have sat out least so far,
    ties drawn at random. Sorted before the draw, so only who plays and the seed count."""
    check_unique(players, "the roster")
    if count <= 0:
        return []
    ordered = sorted(players)
    rng.shuffle(ordered)
    ordered.sort(key=lambda p: sat_out.get(p, 0))
    return ordered[:count]


def table_sizes(n: int, fmt: FormatRules) -> list[int]:
    """The table sizes of the initial split, top table first (docs/format.md rule 1).

    Up to `split_max` players make one table. More are split into as many tables of
    `ideal` (four) as fit, with the players left over spread one per table from the top:
    11 -> [6, 5], 13 -> [5, 4, 4], 15 -> [5, 5, 5] (see `_table_count` for smaller tables).
    """
    if n < fmt.play_min:
        raise too_few(n, fmt)
    tables = _table_count(n, fmt)
    if tables is None:
        out = sit_out_count(n, fmt)
        raise FormatError(
            "cannot_split",
            f"{n} players cannot be split into tables of {fmt.split_min}-{fmt.split_max}; "
            f"{out} must sit out this sitting.",
        )
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)
