"""Robots that fill seats (docs/format.md, "Robots"), on plain values: how many robots, where
they sit at the start and after a movement; then the properties over every format (nobody
sits out, every table a legal size with a player at it, the fewest robots)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import format as fmt

BE = fmt.format_for("buck-euchre")
HB = fmt.format_for("huckley-buck")
BLUKE = fmt.format_for("bluke")


def fewest_robots(n: int, rules: fmt.FormatRules) -> int:
    """By brute force: the fewest robots with which `n` players and the robots fit some
    number of tables of play_min..play_max each (a lower bound for any rule)."""
    robots = 0
    while not any(
        t * rules.play_min <= n + robots <= t * rules.play_max for t in range(1, n + robots + 1)
    ):
        robots += 1
    return robots


# -- How many ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "robots"),
    [
        (BE, 7, 1),  # 2 tables of four, nobody out (without robots: 3 sit out)
        (BE, 3, 1),  # 1 table (without robots: "a table needs at least 4")
        (BE, 5, 3),
        (BE, 8, 0),
        (BE, 1, 3),
        (HB, 2, 1),  # Huckley Buck plays from three
        (HB, 3, 0),
        (HB, 7, 0),  # one table of seven, as the format seats it
        (HB, 11, 0),
        (BLUKE, 5, 1),  # 3 + 3 instead of one sitting out
        (BLUKE, 9, 0),
        (BE, 0, 0),
    ],
)
def test_robots_needed_is_the_fewest_that_seat_everyone(
    rules: fmt.FormatRules, players: int, robots: int
) -> None:
    assert fmt.robots_needed(players, rules) == robots


# -- Where, at the start ------------------------------------------------------------------


def test_seven_players_of_buck_euchre_make_two_tables_with_the_robot_at_the_bottom() -> None:
    assert fmt.robot_split(7, BE) == fmt.RobotSplit(players=[4, 3], robots=[0, 1])
    tables = fmt.split(list(range(1, 8)), fmt=BE, seed=3, robots=True)
    assert [len(t) for t in tables] == [4, 3]
    assert sorted(p for t in tables for p in t) == list(range(1, 8))


def test_robots_go_one_a_table_from_the_bottom_then_round_again() -> None:
    assert fmt.robot_places([4, 4, 4], 2) == [0, 1, 1]
    assert fmt.robot_places([4, 4], 3) == [1, 2]
    assert fmt.robot_places([4], 3) == [3]
    assert fmt.robot_split(5, BE) == fmt.RobotSplit(players=[3, 2], robots=[1, 2])
    assert fmt.robot_split(3, BE) == fmt.RobotSplit(players=[3], robots=[1])


def test_the_big_loser_still_sits_at_the_bottom_table_beside_the_robot() -> None:
    for seed in range(20):
        tables = fmt.split(list(range(1, 8)), fmt=BE, seed=seed, big_loser=7, robots=True)
        assert 7 in tables[-1]
        assert [len(t) for t in tables] == [4, 3]
        seeded = fmt.seeded_split(
            list(range(1, 8)), fmt=BE, seed=seed, strength={}, big_loser=7, robots=True
        )
        assert 7 in seeded[-1]
        assert [len(t) for t in seeded] == [4, 3]


def test_without_robots_the_split_is_unchanged() -> None:
    players = list(range(1, 12))
    assert fmt.split(players, fmt=HB, seed=5) == fmt.split(players, fmt=HB, seed=5, robots=True)
    with pytest.raises(fmt.FormatError) as refused:
        fmt.split(list(range(1, 8)), fmt=BE, seed=5)
    assert refused.value.code == "cannot_split"


# -- Where, after a movement --------------------------------------------------------------


def test_after_a_movement_the_short_table_gets_the_robot_and_nobody_moves() -> None:
    # Buck Euchre 4 + (3 and a robot): the top table's worse two go down, the bottom
    # table's best one goes up; the robot is not ranked. Now 3 and 4: the robot's seat
    # is at the top table.
    seating = fmt.robot_fill([[1, 2, 3], [4, 5, 6, 7]], BE)
    assert seating == fmt.RobotSeating([[1, 2, 3], [4, 5, 6, 7]], [1, 0])


def test_a_table_over_the_size_gives_up_a_player_and_the_robot_fills_a_short_one() -> None:
    # 4, 3 + robot, 4 after a movement can make 3, 5, 3: one robot is still enough.
    seating = fmt.robot_fill([[1, 2, 3], [4, 5, 6, 7, 8], [9, 10, 11]], BE)
    assert [len(t) + r for t, r in zip(seating.tables, seating.robots, strict=True)] == [4, 4, 4]
    assert sum(seating.robots) == 1
    assert sorted(p for t in seating.tables for p in t) == list(range(1, 12))


def test_an_empty_table_closes_and_huckley_buck_rebalances_rather_than_take_a_robot() -> None:
    seating = fmt.robot_fill([[1, 2, 3, 4, 5, 6, 7], [8, 9]], HB)
    assert seating.robots == [0, 0]
    assert [len(t) for t in seating.tables] == [6, 3]
    closed = fmt.robot_fill([[], [1, 2, 3, 4], [5]], BE)
    assert closed == fmt.RobotSeating([[1, 2, 3, 4], [5]], [0, 3])
    assert fmt.robot_fill([], BE) == fmt.RobotSeating([], [])


# -- Properties ---------------------------------------------------------------------------

FORMATS = sorted(fmt.FORMATS)


def legal(size: int, rules: fmt.FormatRules) -> bool:
    return rules.play_min <= size <= rules.play_max


@given(rules_id=st.sampled_from(FORMATS), n=st.integers(1, 300), seed=st.integers(0, 2**32))
def test_the_split_with_robots_seats_everyone_with_the_fewest_robots(
    rules_id: str, n: int, seed: int
) -> None:
    rules = fmt.format_for(rules_id)
    found = fmt.robot_split(n, rules)
    tables = fmt.split(list(range(n)), fmt=rules, seed=seed, robots=True)
    # Nobody sits out.
    assert sorted(p for t in tables for p in t) == list(range(n))
    assert [len(t) for t in tables] == found.players
    # Every table a size of the split (or of one table), with a player at it.
    sizes = [p + r for p, r in zip(found.players, found.robots, strict=True)]
    assert sizes == fmt.table_sizes(sum(sizes), rules)
    assert all(p >= 1 for p in found.players)
    # The fewest robots: none where the split seats everyone, else no legal seating
    # takes fewer.
    robots = sum(found.robots)
    assert robots == fmt.robots_needed(n, rules) == fewest_robots(n, rules)
    assert (robots == 0) == (n >= rules.play_min and fmt.sit_out_count(n, rules) == 0)
    # The bottom table has at least as many robots as any above it.
    assert found.robots == sorted(found.robots)


@given(
    rules_id=st.sampled_from(FORMATS),
    sizes=st.lists(st.integers(0, 9), min_size=1, max_size=6).filter(lambda s: sum(s) >= 1),
)
def test_after_any_movement_robots_seat_everyone_at_legal_tables(
    rules_id: str, sizes: list[int]
) -> None:
    rules = fmt.format_for(rules_id)
    people: list[list[int]] = []
    for size in sizes:
        start = sum(len(t) for t in people)
        people.append(list(range(start, start + size)))
    n = sum(sizes)
    seating = fmt.robot_fill(people, rules)
    # Nobody sits out, nobody is seated twice.
    assert sorted(p for t in seating.tables for p in t) == list(range(n))
    # Every table a legal size, with a player at it.
    assert len(seating.tables) == len(seating.robots)
    for table, robots in zip(seating.tables, seating.robots, strict=True):
        assert legal(len(table) + robots, rules)
        assert len(table) >= 1
    # The fewest robots.
    assert sum(seating.robots) == fewest_robots(n, rules) == fmt.robots_needed(n, rules)
    # Nobody moves where robots alone can fill the tables.
    fillable = all(0 < s <= rules.play_max for s in sizes)
    if fillable and sum(max(0, rules.play_min - s) for s in sizes) <= fmt.robots_needed(n, rules):
        assert seating.tables == people
