"""The tournament format on plain values: no database, worked examples then properties."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tournaments.format import (
    FormatError,
    FormatRules,
    Move,
    Placing,
    SittingResult,
    choose_sit_outs,
    format_for,
    make_rng,
    order_table,
    ordinal,
    sit_out_count,
    split,
    table_sizes,
)

HB = format_for("huckley-buck")
# Exactly four a table and lower is better, as in Buck Euchre.
FOURS = FormatRules("fours", 4, 4, 4, 4, lower_is_better=True)


def result(
    player: str, score: int, won: int = 0, hooks: int = 0, last: int = 0
) -> SittingResult[str]:
    return SittingResult(player, score, won, hooks, last)


def placings_of(ranking: Sequence[str]) -> list[Placing[str]]:
    """A table whose players finished in the given order (results don't matter to movement)."""
    return [
        Placing(p, i, result(p, 100 - i), None if i == 1 else "score", "")
        for i, p in enumerate(ranking, start=1)
    ]


def where(moves: Sequence[Move[str]]) -> dict[str, tuple[str, int]]:
    return {m.player: (m.direction, m.to_rank) for m in moves}


# Rules ids and table sizes (docs/format.md rule 1)


@pytest.mark.parametrize(
    ("rules_id", "sizes", "lower_is_better"),
    [
        ("huckley-buck", (4, 7, 3, 7), False),
        ("hucklebuck", (4, 7, 3, 7), False),
        # docs/format.md rule 8: "Buck Euchre: exactly 4 ... Ten-Point Buck: 3-5", lower is
        # better in Buck Euchre.
        ("buck-euchre", (4, 4, 4, 4), True),
        ("ten-point-buck", (3, 5, 3, 5), False),
        # Bluke: "best played with three or four players".
        ("bluke", (3, 4, 3, 4), False),
        ("bluke-nj", (3, 4, 3, 4), False),
    ],
)
def test_it_knows_each_rules_table_sizes(
    rules_id: str, sizes: tuple[int, int, int, int], lower_is_better: bool
) -> None:
    fmt = format_for(rules_id)
    assert (fmt.split_min, fmt.split_max, fmt.play_min, fmt.play_max) == sizes
    assert fmt.lower_is_better is lower_is_better


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(6, [3, 3]), (7, [4, 3]), (11, [4, 4, 3]), (13, [5, 4, 4]), (16, [4, 4, 4, 4])],
)
def test_ten_point_buck_splits_into_tables_of_three_to_five(players: int, sizes: list[int]) -> None:
    """Tables of four with the rest spread, but never above five: one more table instead."""
    assert table_sizes(players, format_for("ten-point-buck")) == sizes


@pytest.mark.parametrize(("players", "out"), [(8, 0), (9, 1), (11, 3), (13, 1), (15, 3)])
def test_buck_euchre_sits_out_the_players_over_a_multiple_of_four(players: int, out: int) -> None:
    assert sit_out_count(players, format_for("buck-euchre")) == out


def test_sit_outs_go_to_those_who_sat_out_least() -> None:
    players = list(range(1, 10))
    sat_out = {1: 1, 2: 1, 3: 0, 4: 2}
    chosen = choose_sit_outs(players, 3, sat_out=sat_out, rng=make_rng(1, "sit-out", 1))
    assert len(chosen) == 3
    assert all(sat_out.get(p, 0) == 0 for p in chosen)
    again = choose_sit_outs(players, 3, sat_out=sat_out, rng=make_rng(1, "sit-out", 1))
    assert chosen == again


def test_it_refuses_unknown_rules() -> None:
    with pytest.raises(FormatError) as caught:
        format_for("whist")
    assert caught.value.code == "unknown_rules"
    assert "huckley-buck" in caught.value.message


def test_it_refuses_an_inconsistent_format() -> None:
    with pytest.raises(ValueError, match="play_min"):
        FormatRules("broken", 5, 4, 3, 7, lower_is_better=False)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [6]),
        (7, [7]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
        (11, [6, 5]),
        (12, [4, 4, 4]),
        (13, [5, 4, 4]),
        (15, [5, 5, 5]),
        (19, [5, 5, 5, 4]),
    ],
)
def test_it_sizes_the_tables_like_the_rule_text(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, HB) == sizes


def test_it_keeps_every_split_within_four_to_seven() -> None:
    for n in range(8, 1001):
        sizes = table_sizes(n, HB)
        assert sum(sizes) == n
        assert all(4 <= s <= 7 for s in sizes)
        assert sizes == sorted(sizes, reverse=True)
        assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("players", [0, 1, 2])
def test_it_refuses_fewer_than_three_players(players: int) -> None:
    with pytest.raises(FormatError) as caught:
        table_sizes(players, HB)
    assert caught.value.code == "too_few_players"
    with pytest.raises(FormatError):
        split([f"p{i}" for i in range(players)], fmt=HB, seed=1)


def test_it_never_sits_anyone_out_at_huckley_buck() -> None:
    assert all(sit_out_count(n, HB) == 0 for n in range(3, 300))


def test_it_has_a_sit_out_hook_for_fixed_size_tables() -> None:
    assert [sit_out_count(n, FOURS) for n in range(4, 13)] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert table_sizes(8, FOURS) == [4, 4]
    with pytest.raises(FormatError) as caught:
        table_sizes(10, FOURS)
    assert caught.value.code == "cannot_split"
    assert "2 must sit out" in caught.value.message


# Seeds


def test_it_derives_the_same_stream_in_every_process() -> None:
    # Pinned: stored sessions are replayed from their seed, so this must never change.
    assert make_rng(42, "split").random() == pytest.approx(0.39156811186091733, abs=0)
    assert make_rng(42, "seats", 2).randrange(10**9) == 722703815


def test_it_gives_each_purpose_its_own_stream() -> None:
    draws = {
        labels: make_rng(7, *labels).random()
        for labels in [
            (),
            ("split",),
            ("seats", 1),
            ("seats", 2),
            ("seats", "1"),
            ("coin", 1, 1),
        ]
    }
    assert len(set(draws.values())) == len(draws)
    assert make_rng(7, "seats", 1).random() == draws[("seats", 1)]


def test_it_refuses_labels_that_would_not_replay() -> None:
    with pytest.raises(TypeError):
        make_rng(1, object())  # type: ignore[arg-type]


# The split (rules 1, 2, 6)


def test_it_splits_everybody_once() -> None:
    players = list(range(100, 113))
    tables = split(players, fmt=HB, seed=5)
    assert [len(t) for t in tables] == [5, 4, 4]
    assert sorted(p for t in tables for p in t) == players


def test_it_splits_the_same_way_for_the_same_seed_whatever_the_roster_order() -> None:
    players = [f"player-{i}" for i in range(23)]
    first = split(players, fmt=HB, seed=2024)
    assert split(list(reversed(players)), fmt=HB, seed=2024) == first
    assert split(players, fmt=HB, seed=2025) != first


def test_it_seats_the_big_loser_at_the_bottom_table() -> None:
    for n in (3, 7, 8, 11, 13, 29):
        players = list(range(n))
        for seed in range(60):
            tables = split(players, fmt=HB, seed=seed, big_loser=0)
            assert 0 in tables[-1]
            assert sorted(p for t in tables for p in t) == players
            assert [len(t) for t in tables] == table_sizes(n, HB)


def test_it_draws_the_big_losers_seat() -> None:
    seats = {split(list(range(9)), fmt=HB, seed=s, big_loser=8)[-1].index(8) for s in range(40)}
    assert seats == {0, 1, 2, 3}


def test_it_ignores_a_big_loser_who_is_not_playing() -> None:
    assert split(list(range(9)), fmt=HB, seed=3, big_loser=99) == split(
        list(range(9)), fmt=HB, seed=3
    )


def test_it_refuses_a_player_entered_twice() -> None:
    with pytest.raises(FormatError) as caught:
        split([1, 2, 3, 4, 2], fmt=HB, seed=1)
    assert caught.value.code == "duplicate_player"


# Ranking a table (rule 4)


def test_it_ranks_by_total_score() -> None:
    placings = order_table(
        [result("ann", 9), result("bob", 14), result("cy", 3)],
        lower_is_better=False,
        rng=make_rng(1),
    )
    assert [(p.player, p.place, p.decided_by) for p in placings] == [
        ("bob", 1, None),
        ("ann", 2, "score"),
        ("cy", 3, "score"),
    ]
    assert placings[0].reason == "1st: 14 points"
    assert placings[1].reason == "2nd: 9 points; behind bob on points (9 against 14)"


def test_it_breaks_a_tie_on_points_by_games_won() -> None:
    placings = order_table(
        [result("ann", 9, won=0, hooks=0), result("bob", 9, won=1, hooks=3)],
        lower_is_better=False,
        rng=make_rng(1),
    )
    assert [p.player for p in placings] == ["bob", "ann"]
    assert placings[1].decided_by == "games_won"
    assert placings[1].reason == (
        "2nd: 9 points; level with bob on points, behind on games won (0 against 1)"
    )


def test_it_breaks_a_tie_on_games_won_by_fewer_hooks() -> None:
    placings = order_table(
        [result("Bob", 9, won=1, hooks=2), result("Ann", 9, won=1, hooks=1)],
        lower_is_better=False,
        rng=make_rng(1),
    )
    assert [p.player for p in placings] == ["Ann", "Bob"]
    assert placings[1].decided_by == "hooks"
    assert placings[0].reason == (
        "1st: 9 points; level with Bob on points and games won, ahead with fewer hooks "
        "(1 against 2)"
    )


def test_it_breaks_a_tie_on_hooks_by_the_last_game() -> None:
    placings = order_table(
        [result("ann", 9, 1, 1, last=4), result("bob", 9, 1, 1, last=11)],
        lower_is_better=False,
        rng=make_rng(1),
    )
    assert [p.player for p in placings] == ["bob", "ann"]
    assert placings[1].decided_by == "last_game_score"
    assert "behind on the last game (4 against 11)" in placings[1].reason


def test_it_breaks_a_complete_tie_by_a_seeded_coin_flip() -> None:
    tied = [result("ann", 9, 1, 1, 4), result("bob", 9, 1, 1, 4)]
    winners = set()
    for seed in range(30):
        placings = order_table(tied, lower_is_better=False, rng=make_rng(seed, "coin", 1, 1))
        assert placings[1].decided_by == "coin_flip"
        assert placings[1].reason.endswith(
            "level with " + placings[0].player + " on points, games won, hooks and last game, "
            "lost the coin flip"
        )
        assert placings[0].reason.endswith("won the coin flip")
        replay = order_table(
            list(reversed(tied)), lower_is_better=False, rng=make_rng(seed, "coin", 1, 1)
        )
        assert [p.player for p in replay] == [p.player for p in placings]
        winners.add(placings[0].player)
    assert winners == {"ann", "bob"}


def test_it_flips_score_and_last_game_when_lower_is_better() -> None:
    placings = order_table(
        [result("ann", 5, last=3), result("bob", 12, last=0), result("cy", 5, last=1)],
        lower_is_better=True,
        rng=make_rng(1),
    )
    assert [p.player for p in placings] == ["cy", "ann", "bob"]
    assert [p.decided_by for p in placings] == [None, "last_game_score", "score"]
    # Games won and hooks keep their sense: more wins and fewer hooks are still better.
    placings = order_table(
        [result("ann", 5, won=0), result("bob", 5, won=2)], lower_is_better=True, rng=make_rng(1)
    )
    assert [p.player for p in placings] == ["bob", "ann"]


def test_it_names_players_through_the_callback() -> None:
    names = {1: "Ann", 2: "Bob"}
    placings = order_table(
        [SittingResult(1, 3, 0, 0, 0), SittingResult(2, 8, 0, 0, 0)],
        lower_is_better=False,
        rng=make_rng(1),
        name=names.__getitem__,
    )
    assert placings[1].reason == "2nd: 3 points; behind Bob on points (3 against 8)"


def test_it_refuses_a_player_twice_at_a_table() -> None:
    with pytest.raises(FormatError) as caught:
        order_table([result("ann", 1), result("ann", 2)], lower_is_better=False, rng=make_rng(1))
    assert caught.value.code == "duplicate_player"


@pytest.mark.parametrize(
    ("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th")]
)
def test_it_writes_ordinals(n: int, text: str) -> None:
    assert ordinal(n) == text
