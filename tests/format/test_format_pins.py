"""The format's rules that test_format.py left free, each pinned by a worked example or a
property (docs/performance.md, "Mutation testing", lists what the mutants found).

Plain values only, no database: these run in the mutation runs with tests/engine and
test_format.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.format import (
    FormatError,
    FormatRules,
    RebalancePlan,
    choose_sit_outs,
    format_for,
    make_rng,
    rebalance_plan,
    seeded_split,
    sit_out_count,
    split,
    table_sizes,
)

HB = format_for("huckley-buck")
TEN_POINT = format_for("ten-point-buck")
BUCK_EUCHRE = format_for("buck-euchre")


# Sit-outs (rule 8)


@pytest.mark.parametrize("seed", range(1, 11))
def test_one_sit_out_goes_to_the_only_player_who_has_not_sat_out_yet(seed: int) -> None:
    """Player 6 is missing from the counts, so has sat out 0 times, fewer than anyone:
    whatever the seed, 6 sits out."""
    sat_out = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}
    rng = make_rng(seed, "sit-out", 2)
    assert choose_sit_outs([1, 2, 3, 4, 5, 6], 1, sat_out=sat_out, rng=rng) == [6]


def test_nobody_sits_out_when_none_must() -> None:
    assert choose_sit_outs([1, 2, 3, 4], 0, sat_out={}, rng=make_rng(1, "sit-out", 1)) == []


def test_the_sit_outs_are_drawn_from_the_seed_among_those_level() -> None:
    """Nobody has sat out: the one who does is drawn, so different seeds choose different
    players, and the order of the roster does not matter."""
    players = list(range(1, 10))
    chosen = {
        tuple(choose_sit_outs(players, 1, sat_out={}, rng=make_rng(s, "sit-out", 1)))
        for s in range(20)
    }
    assert len(chosen) > 3
    for s in range(5):
        forward = choose_sit_outs(players, 2, sat_out={}, rng=make_rng(s, "sit-out", 1))
        backward = choose_sit_outs(players[::-1], 2, sat_out={}, rng=make_rng(s, "sit-out", 1))
        assert forward == backward


def test_sit_outs_are_counted_only_above_the_games_minimum() -> None:
    """Buck Euchre is played by exactly 4: 3 players cannot make a table, so nobody is
    told to sit out; the director must add players."""
    with pytest.raises(FormatError) as caught:
        sit_out_count(3, BUCK_EUCHRE)
    assert caught.value.code == "too_few_players"
    assert caught.value.message == (
        "3 players cannot make a table: Buck Euchre needs at least 4. Add players to the roster."
    )
    assert sit_out_count(4, BUCK_EUCHRE) == 0
    assert sit_out_count(7, BUCK_EUCHRE) == 3


# Table sizes (rule 1)


def spread(n: int, tables: int) -> list[int]:
    """`n` players at `tables` tables as evenly as they go, the bigger tables on top."""
    return [n // tables + (1 if rank < n % tables else 0) for rank in range(tables)]


@pytest.mark.parametrize("players", range(6, 121))
def test_ten_point_buck_makes_tables_of_four_or_one_more_table_when_five_would_not_do(
    players: int,
) -> None:
    """Ten-Point Buck is for 3 to 5: tables of four with the rest spread (rule 1), and
    one more table while that would put more than five at one (docs/format.md)."""
    tables = max(players // 4, -(-players // 5))
    assert table_sizes(players, TEN_POINT) == spread(players, tables)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (20, [4, 4, 4, 4, 4]),
        (21, [5, 4, 4, 4, 4]),
        (23, [5, 5, 5, 4, 4]),
        (24, [4, 4, 4, 4, 4, 4]),
        (31, [5, 5, 5, 4, 4, 4, 4]),
    ],
)
def test_ten_point_buck_at_twenty_players_and_beyond(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, TEN_POINT) == sizes


# The split (rules 1, 2, 6)


def test_a_stored_session_replays_the_same_split_after_an_upgrade() -> None:
    """A session stores only its seed: its first sitting must come out the same in every
    later version of the app, or the record of how a placement came about is lost. So the
    exact tables of one roster and seed are pinned here; a change to the order of the
    draws (sorting, shuffling, dealing) fails this test, and must not be made."""
    roster = list("ABCDEFGHIJKLM")
    assert split(roster, fmt=HB, seed=2026) == [
        ["F", "B", "J", "M", "E"],
        ["A", "G", "L", "H"],
        ["D", "C", "I", "K"],
    ]
    assert split(roster, fmt=HB, seed=2026, big_loser="M") == [
        ["F", "B", "K", "L", "E"],
        ["A", "G", "J", "H"],
        ["M", "I", "D", "C"],
    ]


def test_a_stored_session_replays_the_same_seeded_split_after_an_upgrade() -> None:
    """As above, for a split by strength: A and B are rated, the others level at 0, so
    the draw decides who joins them at the top table."""
    roster = list("ABCDEFGHI")
    strength = {"A": 2.0, "B": 1.0}
    assert seeded_split(roster, fmt=HB, seed=2026, strength=strength) == [
        ["A", "F", "G", "I", "B"],
        ["H", "E", "D", "C"],
    ]


def test_a_big_loser_who_is_not_playing_changes_nothing_in_a_seeded_split() -> None:
    roster = list(range(1, 10))
    strength = {p: float(p) for p in roster}
    for balanced in (False, True):
        plain = seeded_split(roster, fmt=HB, seed=4, strength=strength, balanced=balanced)
        absent = seeded_split(
            roster, fmt=HB, seed=4, strength=strength, balanced=balanced, big_loser=99
        )
        assert absent == plain
        assert [len(t) for t in absent] == [5, 4]


def test_an_unrated_newcomer_counts_as_zero_between_the_rated() -> None:
    """Strength 0.0 for the six without a rating: above the one rated below zero, below
    the one rated above, so the top table is the strong player and three newcomers."""
    roster = ["strong", "weak", "new1", "new2", "new3", "new4", "new5", "new6"]
    for seed in range(5):
        top, bottom = seeded_split(
            roster, fmt=HB, seed=seed, strength={"strong": 0.5, "weak": -0.5}
        )
        assert "strong" in top
        assert "weak" in bottom
        assert len(top) == len(bottom) == 4


# Rebalancing (rule 7): the preferences between plans, in the documented order


def moves_of(plan: RebalancePlan[str]) -> list[tuple[int, int]]:
    return [(m.from_rank, m.to_rank) for m in plan.moves]


def tables_of(sizes: Sequence[int]) -> list[list[str]]:
    return [[f"t{rank}p{i}" for i in range(size)] for rank, size in enumerate(sizes, start=1)]


def test_fewest_moves_decides_first() -> None:
    """Tables of 5 and 1: the one player joins table 1 (one move) rather than two players
    making tables of 3 and 3 (two moves), though that keeps both tables."""
    plan = rebalance_plan(tables_of([5, 1]), HB)
    assert moves_of(plan) == [(2, 1)]
    assert (plan.closed, [len(t) for t in plan.tables]) == ([2], [6])


def test_then_the_number_of_tables_changes_as_little_as_possible() -> None:
    """Tables of 4, 1 and 1 (6 players cannot fill 3 tables): one table of 6 or two of 3
    take 2 moves each; closing one table rather than two decides."""
    plan = rebalance_plan(tables_of([4, 1, 1]), HB)
    assert [len(t) for t in plan.tables] == [3, 3]
    assert moves_of(plan) == [(1, 2), (3, 2)]
    assert plan.closed == [3]


def test_then_the_fewest_tables_are_crossed() -> None:
    """Tables of 7 and 8: one player too many, so a third table opens with 3 players. As
    many moves and tables either way; filling it from table 2 alone (7, 5, 3) crosses 3
    tables, one from table 1 as well (6, 6, 3) would cross 4, though it is more even."""
    plan = rebalance_plan(tables_of([7, 8]), HB)
    assert [len(t) for t in plan.tables] == [7, 5, 3]
    assert moves_of(plan) == [(2, 3)] * 3
    assert plan.opened == [3]


def test_then_the_tables_are_made_most_even() -> None:
    """Tables of 5, 0 and 6: the empty table needs 3. One from table 1 and two from table
    3 (4, 3, 4) cross as many tables as three from table 3 (5, 3, 3): the even one wins."""
    plan = rebalance_plan(tables_of([5, 0, 6]), HB)
    assert [len(t) for t in plan.tables] == [4, 3, 4]
    assert moves_of(plan) == [(1, 2), (3, 2), (3, 2)]


def test_then_players_move_up_rather_than_down() -> None:
    """Tables of 4, 2 and 4: table 2 needs one player, from table 1 or table 3, equally
    near, equally even (4, 3, 3 or 3, 3, 4): the one from table 3 moves up."""
    plan = rebalance_plan(tables_of([4, 2, 4]), HB)
    assert moves_of(plan) == [(3, 2)]
    assert [len(t) for t in plan.tables] == [4, 3, 3]


# An independent reference: every final layout, ranked by the documented preferences.


def layouts(tables: int, players: int, lo: int, hi: int) -> Iterator[tuple[int, ...]]:
    """Every way to seat `players` at `tables` tables of lo..hi, top table first."""
    if tables == 0:
        if players == 0:
            yield ()
        return
    for size in range(lo, hi + 1):
        rest = players - size
        if lo * (tables - 1) <= rest <= hi * (tables - 1):
            for below in layouts(tables - 1, rest, lo, hi):
                yield (size, *below)


def preference(now: Sequence[int], final: Sequence[int]) -> tuple[int, ...]:
    """How a plan from table sizes `now` to `final` ranks, smaller first, by docs/format.md
    in order: moves, tables opened or closed, closing before opening, tables crossed in
    all, evenness (sum of squares), players carried down. Moves cross the boundary between
    two tables when the players above it are more or fewer than they were."""
    width = max(len(now), len(final))
    before = [*now, *[0] * (width - len(now))]
    after = [*final, *[0] * (width - len(final))]
    moves = sum(max(0, b - a) for b, a in zip(before, after, strict=True))
    carried = list(itertools.accumulate(b - a for b, a in zip(before, after, strict=True)))[:-1]
    return (
        moves,
        abs(len(final) - len(now)),
        len(final),
        sum(abs(c) for c in carried),
        sum(s * s for s in final),
        sum(max(0, c) for c in carried),
    )


def best_preference(now: Sequence[int], lo: int, hi: int) -> tuple[int, ...]:
    # A plan never needs more than two more tables than there are: with at most 10
    # players at each of 4 tables, 40 players fit 6 tables of 7.
    total = sum(now)
    return min(
        preference(now, final)
        for count in range(1, len(now) + 3)
        for final in layouts(count, total, lo, hi)
    )


def plan_preference(now: Sequence[int], plan: RebalancePlan[str]) -> tuple[int, ...]:
    """The same ranking, read off the plan's own moves."""
    return (
        len(plan.moves),
        len(plan.closed) + len(plan.opened),
        len(plan.tables),
        sum(abs(m.to_rank - m.from_rank) for m in plan.moves),
        sum(len(t) ** 2 for t in plan.tables),
        sum(max(0, m.to_rank - m.from_rank) for m in plan.moves),
    )


def test_every_plan_for_up_to_three_tables_of_up_to_ten_is_the_preferred_one() -> None:
    for count in (1, 2, 3):
        for now in itertools.product(range(11), repeat=count):
            if sum(now) < HB.play_min:
                continue
            plan = rebalance_plan(tables_of(now), HB)
            assert plan_preference(now, plan) == best_preference(now, 3, 7), now


@settings(max_examples=150, deadline=None)
@given(now=st.lists(st.integers(0, 10), min_size=4, max_size=4).filter(lambda s: sum(s) >= 3))
def test_every_plan_for_four_tables_of_up_to_ten_is_the_preferred_one(now: list[int]) -> None:
    plan = rebalance_plan(tables_of(now), HB)
    assert plan_preference(now, plan) == best_preference(now, 3, 7)


def test_a_head_count_no_tables_can_seat_is_refused_with_how_many_sit_out() -> None:
    """Tables of exactly 4 (Buck Euchre): 10 players fit neither 2 tables nor 3."""
    fours = FormatRules("fours", 4, 4, 4, 4, lower_is_better=True)
    with pytest.raises(FormatError) as caught:
        rebalance_plan(tables_of([4, 4, 2]), fours)
    assert caught.value.code == "cannot_split"
    assert caught.value.message == ("10 players cannot be seated at tables of 4-4; 2 must sit out.")
