"""More of the format's rules that test_format.py left free, each pinned by a worked example
or a property (docs/performance.md, "Mutation testing"): the table sizes the rule text
recommends, the split by strength, what the refusals say, the format of each rules id
and the words of a table's order. The rest is in test_format_pins.py.

Plain values only, no database: these run in the mutation runs with tests/engine and
test_format.py.
"""

from __future__ import annotations

import pytest

import engine
from tests.format.test_format_pins import HB, moves_of, tables_of
from tournaments.format import (
    FORMATS,
    FormatError,
    FormatRules,
    Placing,
    SittingResult,
    choose_sit_outs,
    format_for,
    make_rng,
    movement,
    order_table,
    ordinal,
    rebalance_plan,
    seat_tables,
    seeded_split,
    sit_out_count,
    split,
    table_sizes,
)
from tournaments.format.rules import _format_of

# Table sizes the rule text recommends, unless the director asks (rules 1, 7, 8)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (11, [4, 4, 3])],
)
def test_bluke_seats_tables_of_three_or_four(players: int, sizes: list[int]) -> None:
    """Bluke "is best played with three or four players"."""
    assert table_sizes(players, format_for("bluke")) == sizes


def test_five_at_bluke_seat_four_and_one_sits_out_unless_the_director_asks() -> None:
    bluke = format_for("bluke")
    assert sit_out_count(5, bluke) == 1
    with pytest.raises(FormatError) as caught:
        table_sizes(5, bluke)
    assert caught.value.code == "cannot_split"
    assert "1 must sit out" in caught.value.message
    asked = format_for("bluke", any_playable_size=True)
    assert table_sizes(5, asked) == [5]
    # Only what the recommended sizes cannot seat changes: 11 still make 4 + 4 + 3.
    assert table_sizes(11, asked) == [4, 4, 3]
    assert (asked.play_min, asked.play_max) == (2, 15)


def test_a_bluke_table_of_five_is_brought_back_to_four_unless_the_director_asks() -> None:
    tables = tables_of([5, 3, 4])
    plan = rebalance_plan(tables, format_for("bluke"))
    assert moves_of(plan) == [(1, 2)]
    assert [len(t) for t in plan.tables] == [4, 4, 4]
    assert rebalance_plan(tables, format_for("bluke", any_playable_size=True)).moves == []


def test_asking_changes_nothing_where_the_text_recommends_every_playable_size() -> None:
    for rules_id in ("huckley-buck", "ten-point-buck", "buck-euchre"):
        recommended = format_for(rules_id)
        asked = format_for(rules_id, any_playable_size=True)
        assert [table_sizes(n, asked) for n in range(8, 60) if sit_out_count(n, asked) == 0] == [
            table_sizes(n, recommended) for n in range(8, 60) if sit_out_count(n, asked) == 0
        ]


# The split by strength (rules 1, 2), without the database: tests/ratings/test_seeding.py
# has the same rules through the session service.


def test_the_strongest_take_the_top_table_and_the_big_loser_the_bottom() -> None:
    """13 players of strength 1-13, last season's Big Loser the strongest (13): tables of
    5, 4 and 4, the bottom one with a place kept for the Big Loser."""
    roster = list(range(1, 14))
    strength = {p: float(p) for p in roster}
    tables = seeded_split(roster, fmt=HB, seed=1, strength=strength, big_loser=13)
    assert [sorted(t) for t in tables] == [[8, 9, 10, 11, 12], [4, 5, 6, 7], [1, 2, 3, 13]]


def test_balanced_tables_snake_and_skip_the_tables_already_full() -> None:
    """13 players, 13 strongest, into 5, 4 and 4: 13, 12, 11 to tables 1, 2, 3; 10, 9, 8
    back from table 3; 7, 6, 5 forward; then 4 to table 3, 3 to table 2 and 2 to table 1,
    which fills tables 3 and 2; 1 goes forward again, to table 1."""
    roster = list(range(1, 14))
    strength = {p: float(p) for p in roster}
    tables = seeded_split(roster, fmt=HB, seed=1, strength=strength, balanced=True)
    assert [sorted(t) for t in tables] == [[1, 2, 7, 8, 13], [3, 6, 9, 12], [4, 5, 10, 11]]


def test_balanced_tables_keep_the_big_losers_place_at_the_bottom() -> None:
    """As above with the strongest, 13, last season's Big Loser: the others snake into
    room for 5, 4 and 3 (12, 11, 10; 9, 8, 7 back; 6, 5, 4, filling table 3; 3 to table
    2, 2 to table 1, filling table 2; 1 to table 1), and 13 takes the bottom table's place."""
    roster = list(range(1, 14))
    strength = {p: float(p) for p in roster}
    tables = seeded_split(roster, fmt=HB, seed=1, strength=strength, balanced=True, big_loser=13)
    assert [sorted(t) for t in tables] == [[1, 2, 6, 7, 12], [3, 5, 8, 11], [4, 9, 10, 13]]


def test_balanced_tables_over_four_tables() -> None:
    """19 players into 5, 5, 5 and 4: the fourth table fills at 16, 15, 8, 7."""
    roster = list(range(1, 20))
    strength = {p: float(p) for p in roster}
    tables = seeded_split(roster, fmt=HB, seed=1, strength=strength, balanced=True)
    assert [sorted(t) for t in tables] == [
        [3, 4, 11, 12, 19],
        [2, 5, 10, 13, 18],
        [1, 6, 9, 14, 17],
        [7, 8, 15, 16],
    ]


# What the refusals say (a director reads them)


def test_a_player_entered_twice_is_named_with_the_list_it_is_in() -> None:
    calls = [
        (lambda: split(["a", "b", "a"], fmt=HB, seed=1), "the roster"),
        (lambda: seeded_split(["a", "b", "a"], fmt=HB, seed=1, strength={}), "the roster"),
        (
            lambda: choose_sit_outs(["a", "a"], 1, sat_out={}, rng=make_rng(1, "sit-out", 1)),
            "the roster",
        ),
        (lambda: rebalance_plan([["a", "b", "c"], ["c", "d", "e"]], HB), "the tables"),
    ]
    for call, where in calls:
        with pytest.raises(FormatError) as caught:
            call()
        assert caught.value.code == "duplicate_player"
        assert str(caught.value) == caught.value.message
        assert caught.value.message.endswith(f"appears twice in {where}; remove the extra entry.")


@pytest.mark.parametrize(
    ("players", "words"), [(1, "1 player cannot make a table"), (2, "2 players cannot")]
)
def test_too_few_players_to_rebalance_are_counted_in_words(players: int, words: str) -> None:
    with pytest.raises(FormatError) as caught:
        rebalance_plan([[f"p{i}" for i in range(players)]], HB)
    assert caught.value.message.startswith(words)
    assert "Huckley Buck (IHBA) needs at least 3" in caught.value.message


def test_too_few_players_for_a_format_the_engine_does_not_know_names_its_rules_id() -> None:
    fours = FormatRules("fours", 4, 4, 4, 4, lower_is_better=True)
    with pytest.raises(FormatError) as caught:
        table_sizes(3, fours)
    assert "fours needs at least 4" in caught.value.message


def test_an_unknown_rules_id_is_refused_with_the_ones_there_are() -> None:
    with pytest.raises(FormatError) as caught:
        format_for("whist")
    assert caught.value.message.endswith(f"choose one of: {', '.join(sorted(FORMATS))}.")


def test_rebalancing_says_which_table_is_short_and_which_is_full() -> None:
    """A table of 7 gives two players to a table of 1 because that table is short, not
    because 7 is too many; a table of 8 sends one to the bottom table, which is there."""
    short = rebalance_plan(tables_of([7, 1]), HB)
    assert [m.reason for m in short.moves] == [
        "table 2 has 1 player, at least 3 are needed: moves down from table 1"
    ] * 2
    full = rebalance_plan(tables_of([8, 4]), HB)
    assert [m.reason for m in full.moves] == [
        "table 1 has 8 players, at most 7 can play: moves down to table 2"
    ]


# The format of each rules id (rules 1, 7, 8)


def test_every_rules_id_has_the_format_format_for_gives() -> None:
    assert list(FORMATS) == list(engine.RULES)
    for rules_id in engine.RULES:
        assert FORMATS[rules_id] == format_for(rules_id)
        assert format_for(rules_id).rules_id == rules_id


def test_the_format_keeps_the_ideal_a_game_states_when_the_director_widens_it() -> None:
    threes = engine.RulesInfo(
        id="threes",
        name="Threes",
        min_players=2,
        max_players=8,
        lower_is_better=False,
        options={},
        tables=engine.TableSizes(3, 5, 3, 6, ideal=3),
    )
    for widened in (False, True):
        rules = _format_of(threes, any_playable_size=widened)
        assert rules.ideal == 3
        assert table_sizes(9, rules) == [3, 3, 3]
    assert (_format_of(threes).play_min, _format_of(threes).play_max) == (3, 6)
    assert (_format_of(threes, any_playable_size=True).play_min,) == (2,)


def test_a_head_count_no_split_seats_plays_at_one_table_up_to_the_most_a_table_takes() -> None:
    """Tables split at exactly 4 but playing with 3 to 5: 5 players cannot split, but one
    table of 5 can play; 6 can do neither."""
    rules = FormatRules("odd", 4, 4, 3, 5, lower_is_better=False)
    assert table_sizes(5, rules) == [5]
    with pytest.raises(FormatError) as caught:
        table_sizes(6, rules)
    assert caught.value.code == "cannot_split"


def test_a_format_must_let_at_least_one_player_play() -> None:
    assert FormatRules("solo", 1, 1, 1, 1, lower_is_better=False, ideal=1).play_min == 1
    with pytest.raises(ValueError, match="need 1 <= play_min"):
        FormatRules("nobody", 0, 0, 0, 0, lower_is_better=False, ideal=0)
    with pytest.raises(ValueError, match="need split_min <= ideal <= split_max"):
        FormatRules("wide", 4, 7, 3, 7, lower_is_better=False, ideal=8)


# The words of a table's order (rule 4)


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (20, "20th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        (113, "113th"),
        (211, "211th"),
    ],
)
def test_ordinals_past_twenty(n: int, text: str) -> None:
    assert ordinal(n) == text


def test_one_point_is_one_point_and_two_are_points() -> None:
    results = [SittingResult("Ann", 2, 0, 0, 0), SittingResult("Bob", 1, 0, 0, 0)]
    placings = order_table(results, lower_is_better=False, rng=make_rng(1, "coin", 1, 1))
    assert [p.reason for p in placings] == [
        "1st: 2 points",
        "2nd: 1 point; behind Ann on points (1 against 2)",
    ]


def test_a_table_of_five_reads_as_the_rule_text_example() -> None:
    """docs/format.md, "Ranking a table": a tie-break shows on both lines it concerns, a
    plain difference in points on the lower line only."""
    results = [
        SittingResult("Ann", 9, 1, 1, 3),
        SittingResult("Bob", 9, 1, 2, 3),
        SittingResult("Cy", 12, 2, 0, 5),
        SittingResult("Dan", 3, 0, 1, 1),
        SittingResult("Eve", 3, 0, 1, 1),
    ]
    placings = order_table(results, lower_is_better=False, rng=make_rng(1, "coin", 1, 1))
    winner_of_the_flip = placings[3].player
    loser_of_the_flip = placings[4].player
    assert [p.reason for p in placings] == [
        "1st: 12 points",
        "2nd: 9 points; behind Cy on points (9 against 12); level with Bob on points and games "
        "won, ahead with fewer hooks (1 against 2)",
        "3rd: 9 points; level with Ann on points and games won, behind with more hooks "
        "(2 against 1)",
        f"4th: 3 points; behind Bob on points (3 against 9); level with {loser_of_the_flip} on "
        "points, games won, hooks and last game, won the coin flip",
        f"5th: 3 points; level with {winner_of_the_flip} on points, games won, hooks and "
        "last game, lost the coin flip",
    ]
    assert [p.result for p in placings] == [results[2], results[0], results[1]] + [
        next(r for r in results if r.player == p.player) for p in placings[3:]
    ]


def test_the_coin_is_not_drawn_from_without_a_tie() -> None:
    """A replay depends on the draws made: a table with no complete tie, or a sitting
    with nobody to sit out, leaves the stream as it found it."""
    rng = make_rng(3, "coin", 1, 1)
    results = [SittingResult(p, score, 0, 0, 0) for p, score in (("a", 3), ("b", 2), ("c", 1))]
    order_table(results, lower_is_better=False, rng=rng)
    assert rng.random() == make_rng(3, "coin", 1, 1).random()
    rng = make_rng(3, "sit-out", 1)
    assert choose_sit_outs(["a", "b", "c", "d"], 0, sat_out={}, rng=rng) == []
    assert rng.random() == make_rng(3, "sit-out", 1).random()


def test_a_move_keeps_the_place_it_was_earned_by() -> None:
    """At the top table of 4, 2nd place is in the better half: it stays at the top."""
    top = [
        Placing(p, i, SittingResult(p, 10 - i, 0, 0, 0), None, "")
        for i, p in enumerate("abcd", start=1)
    ]
    bottom = [
        Placing(p, i, SittingResult(p, 10 - i, 0, 0, 0), None, "")
        for i, p in enumerate("efgh", start=1)
    ]
    moves = movement([top, bottom])
    assert [m.place for m in moves] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert moves[1].reason == "2nd of 4 at table 1: stays at the top table"


def test_a_player_twice_is_named_with_the_list_it_is_in_after_a_sitting() -> None:
    placing = Placing("a", 1, SittingResult("a", 1, 0, 0, 0), None, "")
    with pytest.raises(FormatError, match="twice in the sitting's placings"):
        movement([[placing], [Placing("a", 1, placing.result, None, "")]])
    move = movement([[placing]])[0]
    with pytest.raises(FormatError, match="twice in the movement"):
        seat_tables([move, move], table_count=1, rng=make_rng(1, "seats", 2))
    with pytest.raises(FormatError, match="twice in the table's results"):
        order_table([placing.result] * 2, lower_is_better=False, rng=make_rng(1))


def test_too_few_players_for_a_split_are_counted() -> None:
    with pytest.raises(FormatError, match=r"^2 players cannot make a table"):
        table_sizes(2, HB)


def test_a_label_that_would_not_replay_is_refused_by_its_type() -> None:
    with pytest.raises(TypeError, match="rng labels must be str or int, not float"):
        make_rng(1, "coin", 1.5)
