"""Physical table numbers on plain values (tournaments.format.table_numbers): a player who
does not move keeps their table, whatever rank it hosts; the rule when two wishes meet."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.format import table_numbers

NAMES = {1: "Ann", 2: "Bob", 5: "Eve", 9: "Ivy"}
TABLES = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def test_with_no_fixed_player_rank_r_plays_at_table_r() -> None:
    assert table_numbers(TABLES, {}).numbers == [1, 2, 3]
    assert table_numbers(TABLES, {}).notes == []


def test_a_fixed_players_table_hosts_their_rank_and_the_others_fill_the_rest() -> None:
    # Eve plays at rank 2 and stays at table 5 (the one by the door).
    result = table_numbers(TABLES, {5: 5}, names=NAMES)
    assert result.numbers == [1, 5, 2]
    assert result.notes == ["Eve stays at table 5, which hosts rank 2 this sitting"]


def test_a_fixed_table_within_the_ranks_swaps_with_the_rank_of_that_number() -> None:
    # Ann plays at rank 1 but stays at table 3: rank 3 takes the smallest number left.
    assert table_numbers(TABLES, {1: 3}, names=NAMES).numbers == [3, 1, 2]


def test_two_fixed_players_at_one_rank_the_lower_table_number_is_kept() -> None:
    result = table_numbers(TABLES, {1: 5, 2: 3}, names=NAMES)
    assert result.numbers == [3, 1, 2]
    assert result.notes == [
        "Bob stays at table 3, which hosts rank 1 this sitting",
        "Ann cannot stay at table 5 this sitting: rank 1, where they play, is at table 3 "
        "(a player fixed to a lower table number plays at that rank too)",
    ]


def test_one_table_wanted_by_two_ranks_goes_to_the_rank_above() -> None:
    result = table_numbers(TABLES, {1: 4, 9: 4}, names=NAMES)
    assert result.numbers == [4, 1, 2]
    assert result.notes == [
        "Ann stays at table 4, which hosts rank 1 this sitting",
        "Ivy cannot stay at table 4 this sitting: it hosts rank 1; they play at rank 3, at table 2",
    ]


def test_a_fixed_player_not_seated_changes_nothing() -> None:
    assert table_numbers(TABLES, {99: 7}).numbers == [1, 2, 3]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=12),
    st.dictionaries(st.integers(1, 48), st.integers(1, 20), max_size=10),
)
def test_numbers_are_distinct_and_every_fixed_player_whose_table_is_free_gets_it(
    count: int, fixed: dict[int, int]
) -> None:
    tables = [list(range(4 * t + 1, 4 * t + 5)) for t in range(count)]
    result = table_numbers(tables, fixed)
    assert len(set(result.numbers)) == count
    assert all(n >= 1 for n in result.numbers)
    rank_of = {p: i for i, t in enumerate(tables) for p in t}
    seated = {p: n for p, n in fixed.items() if p in rank_of}
    # A fixed player alone wanting their table, with no rank above wanting it, gets it.
    for p, wanted in seated.items():
        rivals = [
            q for q, n in seated.items() if q != p and (n == wanted or rank_of[q] == rank_of[p])
        ]
        if not rivals:
            assert result.numbers[rank_of[p]] == wanted
    assert len(result.notes) == len(seated)
