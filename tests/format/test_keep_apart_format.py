"""Keep-apart wishes on plain values (tournaments.format.keep_apart): no database, worked
examples, every reason a pair is given up, then the property: with wishes that some
seating keeps, 500 random starts never break one."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import format as fmt
from tournaments.format import canonical_pairs, format_for, keep_apart, make_rng, split, table_sizes

HB = format_for("huckley-buck")
Case = tuple[int, int, str, int | None, list[tuple[int, int]]]
NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve", 6: "Fay", 7: "Gus", 8: "Hal"}


def table_of(tables: list[list[int]]) -> dict[int, int]:
    return {p: t for t, table in enumerate(tables) for p in table}


def broken(tables: list[list[int]], pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    at = table_of(tables)
    return [(a, b) for a, b in pairs if a in at and b in at and at[a] == at[b]]


def test_pairs_are_canonical_once_each_and_a_player_with_themself_is_dropped() -> None:
    assert canonical_pairs([(3, 1), (1, 3), (2, 2), (5, 4)]) == [(1, 3), (4, 5)]


def test_a_pair_split_at_one_table_is_parted_and_the_sizes_stay() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = keep_apart(tables, [(1, 2)], rng=make_rng(1, "keep-apart"))
    assert broken(result.tables, [(1, 2)]) == []
    assert [len(t) for t in result.tables] == [4, 4]
    assert sorted(p for t in result.tables for p in t) == list(range(1, 9))
    # One of the pair changed table and one player took the seat: two moved, no more.
    assert len(result.moved) == 2
    assert result.not_kept == []


def test_pairs_already_apart_change_nothing() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = keep_apart(tables, [(1, 5), (2, 6)], rng=make_rng(1, "keep-apart"))
    assert result.tables == tables
    assert result.moved == []


def test_a_moved_player_takes_the_seat_of_the_one_who_left() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = keep_apart(tables, [(1, 2)], rng=make_rng(4, "keep-apart"))
    for before, after in zip(tables, result.tables, strict=True):
        stayed = [i for i, p in enumerate(before) if p in after]
        assert all(after[i] == before[i] for i in stayed)


def test_pairs_with_a_player_not_seated_are_ignored() -> None:
    tables = [[1, 2, 3, 4]]
    result = keep_apart(tables, [(1, 99)], rng=make_rng(1, "keep-apart"))
    assert result.not_kept == []


def test_the_same_seed_gives_the_same_seating() -> None:
    tables = split(list(range(1, 17)), fmt=HB, seed=5)
    pairs = [(1, 2), (3, 4), (5, 6), (1, 7)]
    first = keep_apart(tables, pairs, rng=make_rng(5, "keep-apart"))
    again = keep_apart(tables, list(reversed(pairs)), rng=make_rng(5, "keep-apart"))
    assert first == again


def test_a_pinned_player_stays_at_their_table() -> None:
    # 12 is last season's Big Loser at the bottom table, kept apart from 11 there.
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    result = keep_apart(tables, [(11, 12)], rng=make_rng(2, "keep-apart"), pinned=[12])
    assert 12 in result.tables[-1]
    assert 11 not in result.tables[-1]


def test_with_strength_the_player_who_goes_up_is_the_strongest_and_down_the_weakest() -> None:
    # Strongest at the top: 1 and 2 are the strongest pair and must part.
    strength = {p: 100.0 - p for p in range(1, 9)}
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = keep_apart(tables, [(1, 2)], rng=make_rng(1, "keep-apart"), strength=strength)
    assert broken(result.tables, [(1, 2)]) == []
    # Whoever of the pair went down, the strongest of table 2 came up in their place.
    assert 5 in result.tables[0]


# Why a pair is given up: every reason, in words


def test_one_table_cannot_keep_anyone_apart() -> None:
    result = keep_apart([[1, 2, 3, 4]], [(1, 2)], rng=make_rng(1, "x"), names=NAMES)
    assert [(n.first, n.second, n.reason) for n in result.not_kept] == [
        (1, 2, "there is only one table")
    ]


def test_a_group_all_kept_apart_needs_a_table_each() -> None:
    group = [1, 2, 3, 4]
    pairs = [(a, b) for a in group for b in group if a < b]
    tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    result = keep_apart(tables, pairs, rng=make_rng(1, "x"), names=NAMES)
    assert len(result.not_kept) == 1
    given_up = result.not_kept[0]
    assert given_up.reason == (
        "Ann, Bob, Cy and Dee are all kept apart from each other and there are 3 tables"
    )
    # The others are all kept: as many as possible.
    assert len(broken(result.tables, pairs)) == 1


def test_a_player_kept_apart_from_more_than_the_other_tables_seat() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    pairs = [(1, p) for p in range(2, 8)]
    result = keep_apart(tables, pairs, rng=make_rng(1, "x"), names=NAMES)
    assert [n.reason for n in result.not_kept] == [
        "Ann is kept apart from 5 players and the other tables seat only 4"
    ] * 2
    assert len(broken(result.tables, pairs)) == 2


def test_two_pinned_players_at_one_table_cannot_part() -> None:
    tables = [[1, 2, 3, 4], [5, 6, 7, 8]]
    result = keep_apart(tables, [(7, 8)], rng=make_rng(1, "x"), pinned=[7, 8], names=NAMES)
    assert [n.reason for n in result.not_kept] == ["Gus and Hal must both sit at table 2"]


# The property


@st.composite
def start_with_feasible_wishes(
    draw: st.DrawFn,
) -> tuple[int, int, str, int | None, list[tuple[int, int]]]:
    """A head count, a seed, a seeding, maybe a Big Loser, and wishes that one seating of
    the split's table sizes keeps (with the Big Loser at the bottom): drawn from the
    pairs that seating parts."""
    n = draw(st.integers(min_value=4, max_value=40))
    seed = draw(st.integers(min_value=1, max_value=2**31))
    seeding = draw(st.sampled_from(["random", "strongest_top", "balanced"]))
    big_loser = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=n)))
    sizes = table_sizes(n, HB)
    hidden_order = draw(st.permutations(list(range(1, n + 1))))
    if big_loser is not None:
        hidden_order = [p for p in hidden_order if p != big_loser] + [big_loser]
    hidden: dict[int, int] = {}
    start = 0
    for t, size in enumerate(sizes):
        for p in hidden_order[start : start + size]:
            hidden[p] = t
        start += size
    apart = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1) if hidden[a] != hidden[b]]
    pairs = draw(st.lists(st.sampled_from(apart), max_size=2 * n)) if apart else []
    return n, seed, seeding, big_loser, pairs


@settings(max_examples=500, deadline=None)
@given(start_with_feasible_wishes())
def test_with_feasible_wishes_500_random_starts_never_break_one(
    case: Case,
) -> None:
    n, seed, seeding, big_loser, pairs = case
    players = list(range(1, n + 1))
    strength = {p: float(random.Random(p * seed).randrange(1000)) for p in players}
    if seeding == "random":
        tables = split(players, fmt=HB, seed=seed, big_loser=big_loser)
    else:
        tables = fmt.seeded_split(
            players,
            fmt=HB,
            seed=seed,
            strength=strength,
            balanced=seeding == "balanced",
            big_loser=big_loser,
        )
    result = keep_apart(
        tables,
        pairs,
        rng=make_rng(seed, "keep-apart"),
        pinned=[big_loser] if big_loser is not None else [],
        strength=None if seeding == "random" else strength,
    )
    assert result.not_kept == []
    assert broken(result.tables, pairs) == []
    # Still a valid split: the same sizes as without the wishes, everyone seated once.
    assert [len(t) for t in result.tables] == [len(t) for t in tables]
    assert Counter(p for t in result.tables for p in t) == Counter(players)
    if big_loser is not None:
        assert big_loser in result.tables[-1]


def test_a_contrived_impossible_set_still_answers_quickly() -> None:
    # Everyone kept apart from everyone: a search that cannot succeed must stop.
    players = list(range(1, 21))
    pairs = [(a, b) for a in players for b in players if a < b]
    tables = split(players, fmt=HB, seed=3)
    result = keep_apart(tables, pairs, rng=make_rng(3, "x"))
    assert [len(t) for t in result.tables] == [len(t) for t in tables]
    assert len(result.not_kept) == len(broken(result.tables, pairs))


@pytest.mark.parametrize("seed", range(5))
def test_reported_pairs_are_exactly_those_sharing_a_table(seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(1, 25))
    pairs = [(rng.choice(players), rng.choice(players)) for _ in range(60)]
    tables = split(players, fmt=HB, seed=seed)
    result = keep_apart(tables, pairs, rng=make_rng(seed, "x"))
    reported = {(n.first, n.second) for n in result.not_kept}
    assert reported == set(broken(result.tables, canonical_pairs(pairs)))
