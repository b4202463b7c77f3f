"""The prize arithmetic (`tournaments.format.prizes`): worked examples of the rounding rule
in docs/tournament.md, and its properties over any pool, table and standings."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import format as fmt

HALF_THIRDS = [D(50), D(30), D(20)]


def test_the_pool_is_the_share_of_the_fees_rounded_down_to_the_cent() -> None:
    assert fmt.prize_pool(fees=D("105"), share_percent=D("80"), fixed=None, unit=fmt.CENT) == D(
        "84.00"
    )
    assert fmt.prize_pool(fees=D("10.01"), share_percent=D("33"), fixed=None, unit=fmt.CENT) == D(
        "3.30"
    )
    assert fmt.prize_pool(fees=D("10.01"), share_percent=D("33"), fixed=None, unit=fmt.WHOLE) == D(
        "3"
    )


def test_with_no_share_the_whole_of_the_fees_is_the_pool_and_a_fixed_amount_wins() -> None:
    assert fmt.prize_pool(fees=D("60"), share_percent=None, fixed=None, unit=fmt.CENT) == D(60)
    assert fmt.prize_pool(fees=D("60"), share_percent=D(80), fixed=D("25"), unit=fmt.CENT) == D(25)


def test_fifty_thirty_twenty_of_a_hundred() -> None:
    result = fmt.payouts(pool=D(100), percents=HALF_THIRDS, ranking=[["a"], ["b"], ["c"], ["d"]])
    assert result.amounts == {"a": D(50), "b": D(30), "c": D(20), "d": D(0)}


def test_the_odd_cents_go_to_the_best_placed() -> None:
    # A third each of 1.00: 0.33 each, the odd cent to the winner.
    thirds = [D("33.34"), D("33.33"), D("33.33")]
    result = fmt.payouts(pool=D("1.00"), percents=thirds, ranking=[["a"], ["b"], ["c"]])
    assert result.amounts == {"a": D("0.34"), "b": D("0.33"), "c": D("0.33")}
    # 50/30/20 of 84.05: 42.025, 25.215, 16.81 -> 42.02, 25.21, 16.81 and 0.01 left.
    result = fmt.payouts(pool=D("84.05"), percents=HALF_THIRDS, ranking=[["a"], ["b"], ["c"]])
    assert result.amounts == {"a": D("42.03"), "b": D("25.21"), "c": D("16.81")}


def test_players_tied_for_places_share_those_places_money() -> None:
    # b and c tie for second and third: (30 + 20) / 2 = 25 each.
    result = fmt.payouts(pool=D(100), percents=HALF_THIRDS, ranking=[["a"], ["b", "c"], ["d"]])
    assert result.amounts == {"a": D(50), "b": D(25), "c": D(25), "d": D(0)}
    # Three tie for the win of 1.00: 0.34, 0.33, 0.33 in the order of the standings.
    result = fmt.payouts(pool=D("1.00"), percents=[D(100)], ranking=[["a", "b", "c"]])
    assert list(result.amounts.values()) == [D("0.34"), D("0.33"), D("0.33")]


def test_a_tie_across_the_last_paid_place_shares_it_with_the_unpaid_one() -> None:
    result = fmt.payouts(pool=D(100), percents=HALF_THIRDS, ranking=[["a"], ["b"], ["c", "d"]])
    assert result.amounts == {"a": D(50), "b": D(30), "c": D(10), "d": D(10)}


def test_fewer_players_than_places_scale_up_the_places_reached() -> None:
    result = fmt.payouts(pool=D(80), percents=HALF_THIRDS, ranking=[["a"], ["b"]])
    assert result.amounts == {"a": D(50), "b": D(30)}


def test_extras_come_out_of_the_pool_before_the_places() -> None:
    extras = [
        ("big_loser", fmt.Prize(amount=D(5)), ["d"]),
        ("most_hooks", fmt.Prize(percent=D(10)), ["b", "d"]),
    ]
    result = fmt.payouts(
        pool=D(100), percents=HALF_THIRDS, ranking=[["a"], ["b"], ["c"], ["d"]], extras=extras
    )
    # 5 + 10 in extras; 85 for the places: 42.50, 25.50, 17.00.
    assert result.place_money == D(85)
    assert result.amounts == {"a": D("42.50"), "b": D("30.50"), "c": D(17), "d": D(10)}
    assert [e.total for e in result.extras] == [D(5), D(10)]


def test_an_extra_bigger_than_the_pool_is_cut_to_it() -> None:
    extras = [("big_loser", fmt.Prize(amount=D(500)), ["b"])]
    result = fmt.payouts(pool=D(20), percents=[D(100)], ranking=[["a"], ["b"]], extras=extras)
    assert result.amounts == {"a": D(0), "b": D(20)}


def test_whole_units() -> None:
    result = fmt.payouts(
        pool=D(11), percents=HALF_THIRDS, ranking=[["a"], ["b"], ["c"]], unit=fmt.WHOLE
    )
    # 5.5, 3.3, 2.2: 5, 3, 2 and the unit left over to the winner.
    assert result.amounts == {"a": D(6), "b": D(3), "c": D(2)}


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ([], "Give at least one place"),
        (["50", "30"], "add up to 80 %"),
        (["30", "50", "20"], "Place 2 gets more than place 1"),
        (["100", "0"], "Place 2 gets 0 %"),
        (["fifty"], "not a percentage"),
        (["120"], "from 0 to 100"),
        (["33.333", "66.667"], "at most two decimals"),
    ],
)
def test_a_payout_table_that_cannot_be_is_refused_in_plain_words(
    places: list[str], message: str
) -> None:
    with pytest.raises(fmt.PrizeError, match=message):
        fmt.parse_places(places)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("10", fmt.Prize(amount=D("10.00"))),
        (" 7.5 ", fmt.Prize(amount=D("7.50"))),
        ("5%", fmt.Prize(percent=D("5.00"))),
    ],
)
def test_an_extra_prize_is_an_amount_or_a_percentage(text: str, expected: fmt.Prize) -> None:
    assert fmt.parse_prize(text, what="The Big Loser's prize") == expected


@pytest.mark.parametrize("text", ["-1", "1.005", "abc", "NaN", "Infinity", "1e9"])
def test_an_amount_that_cannot_be_is_refused(text: str) -> None:
    with pytest.raises(fmt.PrizeError):
        fmt.parse_amount(text, what="The entry fee")


def test_money_is_written_with_the_clubs_currency() -> None:
    assert fmt.format_money(D("12.5"), "£") == "£12.50"
    assert fmt.format_money(D("1234.5"), "EUR") == "EUR 1,234.50"
    assert fmt.format_money(D("12"), "", fmt.WHOLE) == "12"


def test_money_is_written_with_the_readers_marks() -> None:
    spanish = {"decimal": ",", "thousands": "."}
    assert fmt.format_money(D("1234.5"), "€", **spanish) == "€1.234,50"
    assert fmt.format_money(D("1234567"), "EUR", fmt.WHOLE, **spanish) == "EUR 1.234.567"
    assert fmt.format_money(D("0"), "", **spanish) == "0,00"


# Properties ---------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> list[D]:
    """A payout table in whole cents: non-increasing percentages adding up to 100."""
    cuts = sorted(draw(st.lists(st.integers(1, 9999), max_size=6, unique=True)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 10000], strict=True)]
    return [D(p) / 100 for p in sorted(parts, reverse=True)]


@st.composite
def rankings(draw: st.DrawFn) -> list[list[int]]:
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=12))
    players = iter(range(sum(sizes)))
    return [[next(players) for _ in range(n)] for n in sizes]


pools = st.integers(0, 10**7).map(lambda cents: D(cents) / 100)


# No deadline: plain arithmetic, but the machine running the suite may be busy.
@settings(deadline=None)
@given(pool=pools, percents=tables(), ranking=rankings())
def test_payouts_add_up_to_the_pool_none_negative_better_never_less(
    pool: D, percents: list[D], ranking: list[list[int]]
) -> None:
    result = fmt.payouts(pool=pool, percents=percents, ranking=ranking)
    amounts = result.amounts
    assert sum(amounts.values()) == pool
    assert all(a >= 0 for a in amounts.values())
    assert all(a == a.quantize(fmt.CENT) for a in amounts.values())
    order = [amounts[k] for group in ranking for k in group]
    assert order == sorted(order, reverse=True), "a better place got less than a worse one"
    for group in ranking:
        shares = [amounts[k] for k in group]
        assert max(shares) - min(shares) <= fmt.CENT, "tied players differ by more than a cent"


@settings(deadline=None)
@given(
    pool=pools,
    percents=tables(),
    ranking=rankings(),
    big_loser=st.one_of(
        st.integers(0, 10**5).map(lambda c: fmt.Prize(amount=D(c) / 100)),
        st.integers(0, 5000).map(lambda c: fmt.Prize(percent=D(c) / 100)),
    ),
    unit=st.sampled_from([fmt.CENT, fmt.WHOLE]),
)
def test_with_extras_the_payouts_still_add_up_and_none_is_negative(
    pool: D, percents: list[D], ranking: list[list[int]], big_loser: fmt.Prize, unit: D
) -> None:
    pool = fmt.prize_pool(fees=pool, share_percent=None, fixed=None, unit=unit)
    last = ranking[-1][-1:]
    result = fmt.payouts(
        pool=pool,
        percents=percents,
        ranking=ranking,
        extras=[
            ("big_loser", big_loser, last),
            ("most_hooks", fmt.Prize(percent=D(5)), ranking[0]),
        ],
        unit=unit,
    )
    assert sum(result.amounts.values()) == pool
    assert all(a >= 0 and a == a.quantize(unit) for a in result.amounts.values())
    places = [result.places[k] for group in ranking for k in group]
    assert places == sorted(places, reverse=True)
