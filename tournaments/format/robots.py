"""Robots that fill seats (docs/format.md, "Robots"): in a session that fills with robots,
how many robots let every player play at once, and where they sit.

A robot is a seat the engine plays; it is never a player of the format. It is not ranked,
does not move up or down, and is never counted in a split or a sitting's order. The rules:

- **How many.** The fewest robots with which the players and the robots can be split into
  tables of the game (rule 1) with nobody sitting out (rule 8): `robots_needed`. Seven
  players of Buck Euchre (exactly four a table) need one, three need one; Huckley Buck
  needs one only below three players.
- **Where, at the start.** The split is made for players and robots together
  (`table_sizes`); the robots take seats one a table from the bottom table up, and round
  again when there are more robots than tables (`robot_places`); the players fill the
  rest. A robot takes the last seats of its table.
- **Where, after a movement.** The players go where the movement sends them; a table short
  of the game's smallest table gets robots up to it (`robot_fill`). When that would take
  more robots than `robots_needed`, or a table has too many players, the players are
  first rebalanced (rule 7) to the tables of the fewest robots.

Pure Python, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

from tournaments.format.rebalancing import rebalance_plan
from tournaments.format.rules import FormatRules, K, check_unique
from tournaments.format.sizes import can_split, table_sizes


def robots_needed(n: int, fmt: FormatRules) -> int:
    """The fewest robots that let `n` players all play in one sitting: with them, players
    and robots make a legal split (rule 1) and nobody sits out (rule 8). 0 for no players.

    At most `fmt.ideal - 1`: any multiple of `ideal` splits into tables of `ideal`."""
    if n <= 0:
        return 0
    robots = 0
    while n + robots < fmt.play_min or not can_split(n + robots, fmt):
        robots += 1
    return robots


def robot_places(sizes: Sequence[int], robots: int) -> list[int]:
    """How many of `robots` sit at each table of `sizes` (rank order, top table first):
    one a table from the bottom table up, then round again from the bottom."""
    if robots and not sizes:
        raise ValueError("robots need a table")
    places = [0] * len(sizes)
    for i in range(robots):
        places[len(sizes) - 1 - i % len(sizes)] += 1
    return places


@dataclass(frozen=True)
class RobotSplit:
    """The first sitting's tables with robots (rank order): how many players and how many
    robots sit at each."""

    players: list[int]
    robots: list[int]


def robot_split(n: int, fmt: FormatRules) -> RobotSplit:
    """The tables a split of `n` players with `robots_needed(n)` robots makes: the split's
    sizes for players and robots together, the robots placed by `robot_places`."""
    robots = robots_needed(n, fmt)
    if n <= 0:
        return RobotSplit([], [])
    sizes = table_sizes(n + robots, fmt)
    places = robot_places(sizes, robots)
    return RobotSplit([s - r for s, r in zip(sizes, places, strict=True)], places)


@dataclass(frozen=True)
class RobotSeating(Generic[K]):
    """The next sitting's players at each table (rank order, seat order) and how many
    robots take the last seats of each."""

    tables: list[list[K]]
    robots: list[int]


@dataclass(frozen=True, order=True)
class _Seat:
    """A seat in the rebalancing of `robot_fill`: a player's (`robot` 0, `key` the
    player) or a robot's (`robot` 1, `key` its number). Ordered, as rule 7 sorts."""

    robot: int
    key: Any


def robot_fill(tables: Sequence[Sequence[K]], fmt: FormatRules) -> RobotSeating[K]:
    """The next sitting of a session that fills with robots, from the players' tables
    after a movement (rank order, seat order; a table may be empty).

    Every table short of `play_min` players gets robots up to it, nobody moving, when
    every table has at least one player and at most `play_max` and that takes no more
    robots than `robots_needed`. Otherwise `robots_needed` robots take the short tables'
    seats, bottom table first (the rest at the bottom table), and the fewest moves of rule
    7 (`rebalance_plan`) are made with the robots counted as players: the robots, last in
    their seat order, move first, so a player moves only where a robot cannot make room.
    Empty tables close first. No player sits out."""
    check_unique((p for table in tables for p in table), "the tables")
    people = [list(table) for table in tables]
    n = sum(len(table) for table in people)
    if n == 0:
        return RobotSeating([], [])
    need = robots_needed(n, fmt)
    short = [max(0, fmt.play_min - len(table)) for table in people]
    if all(0 < len(table) <= fmt.play_max for table in people) and sum(short) <= need:
        return RobotSeating(people, short)
    seats = [[_Seat(0, p) for p in table] for table in people if table]
    left = need
    for table in reversed(seats):
        filled = min(left, max(0, fmt.play_min - len(table)))
        table.extend(_Seat(1, need - left + i) for i in range(filled))
        left -= filled
    seats[-1].extend(_Seat(1, need - left + i) for i in range(left))
    plan = rebalance_plan(seats, fmt)
    return RobotSeating(
        [[s.key for s in table if not s.robot] for table in plan.tables],
        [sum(s.robot for s in table) for table in plan.tables],
    )
