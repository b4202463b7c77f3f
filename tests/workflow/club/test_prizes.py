"""Entry fees and prizes through the services (`workflow.club.prizes`) and the reads
(`workflow.club.prize_selectors`): the refusals in plain words, and what a night pays."""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal as D
from typing import Any

import pytest

from common.errors import ConflictError, UserError
from tests.factories import ClubFactory, UserFactory
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import Club, PayoutTable, Session
from workflow.club import prize_selectors, prizes
from workflow.session import selectors, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def _table(club: Club, director: Any, **kw: Any) -> PayoutTable:
    args = {"name": "Top three", "places": ["50", "30", "20"]} | kw
    return prizes.payout_table_create(club_id=club.pk, user=director, **args)


def _finished(session: Session, director: Any) -> Session:
    finish_sitting_unplayed(session.sittings.get(), random.Random(5))
    start_finish.session_finish(session_id=session.pk, user=director)
    session.refresh_from_db()
    return session


def test_a_fee_and_a_share_make_the_pool_of_the_paid_players(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(8, start=False)
    _table(club, director)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="5", pool_share="80", user=director)
    ids = list(session.entries.values_list("player_id", flat=True))
    prizes.session_mark_paid(session_id=session.pk, player_ids=ids[:7], paid=True, user=director)
    session.refresh_from_db()
    found = prize_selectors.session_prizes(session)
    assert (found.fee, found.paid_count, found.fees_collected, found.pool) == (
        D("5.00"),
        7,
        D("35.00"),
        D("28.00"),
    )
    assert found.money(found.pool) == "28.00"


def test_a_finished_night_pays_by_the_clubs_default_table_and_the_season_totals_it(
    make_session: Callable[..., Session], club: Club, director: Any, season: Any
) -> None:
    _table(club, director, big_loser="2", most_hooks="")
    prizes.club_set_money(club_id=club.pk, currency="£", money_unit="cent", user=director)
    session = make_session(8, start=False)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="5", user=director)
    services.session_check_in(
        session_id=session.pk, player_ids=None, checked_in=True, paid=True, user=director
    )
    start_finish.session_start(session_id=session.pk, user=director)
    session = _finished(session, director)
    rows = selectors.session_standings(session)
    found = prize_selectors.session_prizes(session, rows)
    assert found.pool == D(40)
    assert found.payouts is not None
    # 2 to the Big Loser first, then 38 split 50/30/20.
    by_place = [found.payout(r.player_id) for r in rows]
    assert by_place[:3] == [D(19), D("11.40"), D("7.60")]
    assert by_place[-1] == D(2)
    assert sum(p or 0 for p in by_place) == D(40)
    assert prize_selectors.season_prizes(season.pk) == {
        r.player_id: p for r, p in zip(rows, by_place, strict=True)
    }
    assert found.money(D("11.4")) == "£11.40"


def test_a_session_with_no_fee_and_no_fixed_pool_pays_nothing(
    make_session: Callable[..., Session], club: Club, director: Any, season: Any
) -> None:
    _table(club, director)
    session = _finished(make_session(8), director)
    found = prize_selectors.session_prizes(session)
    assert found.pool == 0
    assert found.payouts is None
    assert not found.has_prizes
    assert prize_selectors.season_prizes(season.pk) == {}


def test_a_fixed_pool_pays_even_a_free_session(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    _table(club, director, places=["100"])
    session = make_session(8)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="", pool_fixed="25", user=director)
    session.refresh_from_db()
    rows = selectors.session_standings(session)
    assert prize_selectors.session_prizes(session, rows).payout(rows[0].player_id) == D(25)


# Refusals ------------------------------------------------------------------------------


def _refused(call: Callable[[], Any], code: str, words: str) -> None:
    before = db_snapshot()
    with pytest.raises(UserError) as refused:
        call()
    assert refused.value.code == code
    assert words in refused.value.message
    assert changed_tables(before) == []


def test_fees_on_a_free_session_are_refused_at_check_in_and_later(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    player = session.entries.first().player_id
    _refused(
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=[player], checked_in=True, paid=True, user=director
        ),
        "fees_on_free_session",
        "This session is free",
    )
    _refused(
        lambda: prizes.session_mark_paid(
            session_id=session.pk, player_ids=[player], paid=True, user=director
        ),
        "fees_on_free_session",
        "no entry fee to pay",
    )
    _refused(
        lambda: prizes.session_prizes_set(
            session_id=session.pk, entry_fee="", pool_share="80", user=director
        ),
        "fees_on_free_session",
        "A free session collects no fees",
    )


def test_a_session_with_paid_players_cannot_become_free(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="5", user=director)
    prizes.session_mark_paid(session_id=session.pk, player_ids=None, paid=True, user=director)
    with pytest.raises(ConflictError, match="8 players are marked paid"):
        prizes.session_prizes_set(session_id=session.pk, entry_fee="", user=director)


@pytest.mark.parametrize(
    ("kw", "code", "words"),
    [
        ({"entry_fee": "five"}, "bad_amount", "is not an amount"),
        ({"entry_fee": "-5"}, "bad_amount", "cannot be negative"),
        ({"entry_fee": "5.001"}, "bad_amount", "at most two decimals"),
        ({"entry_fee": "5", "pool_share": "120"}, "bad_percent", "from 0 to 100"),
        (
            {"entry_fee": "5", "pool_share": "80", "pool_fixed": "10"},
            "pool_share_and_fixed",
            "not both",
        ),
        ({"entry_fee": "5", "payout_table_id": 10**9}, "unknown_payout_table", "not one of"),
    ],
)
def test_a_fee_or_pool_that_cannot_be_is_refused(
    make_session: Callable[..., Session], director: Any, kw: dict[str, Any], code: str, words: str
) -> None:
    session = make_session(8, start=False)
    _refused(
        lambda: prizes.session_prizes_set(session_id=session.pk, user=director, **kw), code, words
    )


def test_another_clubs_payout_table_is_refused(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    other = ClubFactory.create()
    table = PayoutTable.objects.create(club=other, name="Theirs", places=["100"])
    _refused(
        lambda: prizes.session_prizes_set(
            session_id=session.pk, entry_fee="5", payout_table_id=table.pk, user=director
        ),
        "unknown_payout_table",
        "not one of this club's",
    )


@pytest.mark.parametrize(
    ("kw", "code", "words"),
    [
        ({"places": ["50", "30"]}, "bad_payout_table", "add up to 80 %"),
        ({"places": ["20", "80"]}, "bad_payout_table", "Place 2 gets more than place 1"),
        ({"places": []}, "bad_payout_table", "at least one place"),
        ({"big_loser": "lots"}, "bad_payout_table", "The Big Loser's prize"),
        ({"big_loser": "60%", "most_hooks": "50%"}, "bad_payout_table", "more than the whole"),
        ({"name": " "}, "name_required", "Give the payout table a name"),
    ],
)
def test_a_payout_table_that_cannot_be_is_refused_in_plain_words(
    club: Club, director: Any, kw: dict[str, Any], code: str, words: str
) -> None:
    _refused(lambda: _table(club, director, **kw), code, words)


def test_two_tables_of_one_name_and_a_table_in_use_are_refused(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    table = _table(club, director)
    _refused(lambda: _table(club, director, name="top THREE"), "payout_table_name_taken", "already")
    session = make_session(8, start=False)
    prizes.session_prizes_set(
        session_id=session.pk, entry_fee="5", payout_table_id=table.pk, user=director
    )
    _refused(
        lambda: prizes.payout_table_delete(table_id=table.pk, user=director),
        "payout_table_in_use",
        "1 session uses this payout table",
    )


def test_the_first_table_is_the_default_and_one_default_at_a_time(
    club: Club, director: Any
) -> None:
    first = _table(club, director)
    second = _table(club, director, name="All", places=["100"], is_default=True)
    first.refresh_from_db()
    assert (first.is_default, second.is_default) == (False, True)
    with pytest.raises(ConflictError, match="make another table the default"):
        prizes.payout_table_update(
            table_id=second.pk, name="All", places=["100"], is_default=False, user=director
        )
    prizes.payout_table_delete(table_id=second.pk, user=director)
    first.refresh_from_db()
    assert first.is_default


@pytest.mark.parametrize(
    ("currency", "unit", "code"),
    [("POUNDSTERLING", "cent", "currency_too_long"), ("£", "pennies", "unknown_money_unit")],
)
def test_a_currency_that_cannot_be_is_refused(
    club: Club, director: Any, currency: str, unit: str, code: str
) -> None:
    _refused(
        lambda: prizes.club_set_money(
            club_id=club.pk, currency=currency, money_unit=unit, user=director
        ),
        code,
        "",
    )


def test_who_may_not_set_fees_mark_paid_or_change_payout_tables(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    """Beside test_every_write_checks: a director of another club, in the words shown."""
    from django.core.exceptions import PermissionDenied

    other = UserFactory.create(username="elsewhere")
    ClubFactory.create().directors.add(other)
    session = make_session(8, start=False)
    with pytest.raises(PermissionDenied, match="set its entry fees and prizes"):
        prizes.session_prizes_set(session_id=session.pk, entry_fee="5", user=other)
    with pytest.raises(PermissionDenied, match="record who paid"):
        prizes.session_mark_paid(session_id=session.pk, player_ids=None, paid=True, user=other)
    with pytest.raises(PermissionDenied, match="change its payout tables"):
        _table(club, other)
