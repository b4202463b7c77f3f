"""Entry fees and prizes on the pages, with no JavaScript: the director sets the fee and
the pool, records who paid at check-in and later, keeps the club's payout tables; the
standings and the season show the payouts (docs/tournament.md, "Entry fees and prizes")."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.models import Club, PayoutTable, Session
from workflow.club import prizes
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def test_a_director_adds_a_payout_table_and_a_refusal_keeps_what_was_typed(
    club: Club, directing: Client
) -> None:
    url = reverse("tournaments:club_payouts", args=[club.slug])
    typed = {"name": "Top three", "places": "50, 30, 25", "big_loser": "5"}
    refused = directing.post(url, typed)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "The places add up to 105 %; they must add up to 100 %." in page
    assert 'value="50, 30, 25"' in page
    assert not PayoutTable.objects.exists()
    done = directing.post(url, typed | {"places": "50, 30, 20"})
    assert done.status_code == 302
    table = PayoutTable.objects.get()
    assert (table.places, table.big_loser, table.is_default) == (
        ["50.00", "30.00", "20.00"],
        "5.00",
        True,
    )
    edit = reverse("tournaments:club_payout_edit", args=[club.slug, table.pk])
    assert 'value="50.00, 30.00, 20.00"' in directing.get(edit).content.decode()
    directing.post(
        reverse("tournaments:club_currency", args=[club.slug]),
        {"currency": "£", "money_unit": "whole"},
    )
    club.refresh_from_db()
    assert (club.currency, club.money_unit) == ("£", "whole")


def test_the_fee_is_set_paid_is_ticked_at_check_in_and_the_manage_page_counts_it(
    make_session: Callable[..., Session], club: Club, director: Any, directing: Client
) -> None:
    session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    url = reverse("tournaments:session_prizes", args=[session.pk])
    refused = directing.post(url, {"entry_fee": "five", "pool_share": "80"})
    assert refused.status_code == 400
    assert "The entry fee “five” is not an amount such as 12 or 12.50." in refused.content.decode()
    assert directing.post(url, {"entry_fee": "5", "pool_share": "80"}).status_code == 302
    manage = directing.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'name="paid"' in manage  # the check-in row's box
    players = list(session.entries.values_list("player_id", flat=True))
    check_in = reverse("tournaments:check_in", args=[session.pk])
    for player in players[:3]:
        directing.post(check_in, {"player": player, "checked_in": "1", "fee": "1", "paid": "1"})
    directing.post(check_in, {"player": players[3], "checked_in": "1", "fee": "1"})
    paid = dict(session.entries.filter(checked_in=True).values_list("player_id", "paid"))
    assert paid == {players[0]: True, players[1]: True, players[2]: True, players[3]: False}
    # Paid later, on the fees page.
    directing.post(
        reverse("tournaments:session_paid", args=[session.pk]), {"player": players[3], "paid": "1"}
    )
    manage = directing.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert "4 paid · fees collected <strong>20.00</strong>" in manage
    assert "Prize pool <strong>16.00</strong> (80.00 % of the fees)" in manage


def test_paid_on_a_free_session_is_refused_in_plain_words(
    make_session: Callable[..., Session], directing: Client
) -> None:
    session = make_session(8, start=False)
    player = session.entries.first().player_id
    response = directing.post(
        reverse("tournaments:session_paid", args=[session.pk]),
        {"player": player, "paid": "1"},
        follow=True,
    )
    assert "This session is free: it has no entry fee to pay." in response.content.decode()
    assert not session.entries.filter(paid=True).exists()


def test_the_standings_and_the_season_show_the_payouts(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    prizes.payout_table_create(
        club_id=club.pk, name="Top two", places=["60", "40"], most_hooks="", user=director
    )
    prizes.club_set_money(club_id=club.pk, currency="$", money_unit="cent", user=director)
    session = make_session(8)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="", pool_fixed="50", user=director)
    standings = Client().get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert "Prize pool <strong>$50.00</strong>, split by “Top two”" in standings
    assert "So far: what each would win if the session ended now." in standings
    assert standings.count('class="num prize">$30.00<') == 1
    assert standings.count('class="num prize">$20.00<') == 1
    # A change of the pool moves the session's generation: the kept page is not served.
    prizes.session_prizes_set(session_id=session.pk, entry_fee="", pool_fixed="60", user=director)
    again = Client().get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert "Prize pool <strong>$60.00</strong>" in again
    assert again.count('class="num prize">$36.00<') == 1
    finish_sitting_unplayed(session.sittings.get(), random.Random(2))
    start_finish.session_finish(session_id=session.pk, user=director)
    season = Client().get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert '<th class="num">Prizes</th>' in season
    assert ">$36.00<" in season


def test_a_free_session_shows_no_prize_column(make_session: Callable[..., Session]) -> None:
    session = make_session(8)
    standings = Client().get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert "Prize pool" not in standings
    assert ">Prize<" not in standings


def test_who_may_not_open_the_fee_and_payout_pages(
    make_session: Callable[..., Session], club: Club
) -> None:
    session = make_session(8, start=False)
    other = UserFactory.create(username="elsewhere")
    ClubFactory.create(slug="other").directors.add(other)
    client = Client()
    client.force_login(other)
    for url, method in [
        (reverse("tournaments:session_prizes", args=[session.pk]), "get"),
        (reverse("tournaments:session_prizes", args=[session.pk]), "post"),
        (reverse("tournaments:session_paid", args=[session.pk]), "post"),
        (reverse("tournaments:club_payouts", args=[club.slug]), "get"),
        (reverse("tournaments:club_currency", args=[club.slug]), "post"),
    ]:
        assert getattr(client, method)(url, {"entry_fee": "5"}).status_code == 403, url
    assert Session.objects.get(pk=session.pk).entry_fee is None
    anonymous = Client().get(reverse("tournaments:session_prizes", args=[session.pk]))
    assert anonymous.status_code == 302


def test_a_spanish_page_writes_money_with_a_decimal_comma() -> None:
    """The prize money on the pages is written as the reader's language writes numbers
    (common.languages.money_marks): "€1 234,50" in Spanish (a no-break space between
    thousands, as Django's Spanish formats say), "€1,234.50" in US English."""
    from decimal import Decimal

    from django.utils import translation

    from workflow.club.prize_selectors import SessionPrizes

    prizes = SessionPrizes(
        **{f.name: None for f in dataclasses.fields(SessionPrizes)}
        | {"currency": "€", "unit": Decimal("0.01")}
    )
    with translation.override("es"):
        assert prizes.money(Decimal("1234.5")) == "€1\xa0234,50"
    with translation.override("en-us"):
        assert prizes.money(Decimal("1234.5")) == "€1,234.50"
