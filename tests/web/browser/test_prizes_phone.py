"""Entry fees and prizes on a 360 px phone, with JavaScript off as on: the director sets
the fee, ticks paid at check-in, and the standings show the Prize column without
scrolling the page sideways; every page passes axe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tournaments.models import Club, Session
from workflow.club import prizes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}


def test_a_night_with_a_fee_on_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Any, str], None],
    make_session: Callable[..., Session],
    club: Club,
    director: Any,
) -> None:
    session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    phone = new_page(SMALL_PHONE)
    sign_in(phone, director.username)

    phone.goto(f"/director/clubs/{club.slug}/payouts/")
    phone.get_by_label("Name", exact=True).fill("Top two")
    phone.get_by_label("Places: each place's percentage").fill("60, 40")
    phone.get_by_role("button", name="Add the table").click()
    expect(phone.get_by_text("Payout table “Top two” added.")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []

    phone.goto(f"/director/sessions/{session.pk}/prizes/")
    phone.get_by_label("Entry fee", exact=False).first.fill("five")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_text("The entry fee “five” is not an amount")).to_be_visible()
    expect(phone.get_by_label("Entry fee", exact=False).first).to_have_value("five")
    phone.get_by_label("Entry fee", exact=False).first.fill("5")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_text("Entry fee and prizes saved.")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []

    phone.goto(f"/director/sessions/{session.pk}/")
    first = session.entries.select_related("player").order_by("player__name").first()
    assert first is not None
    row = phone.locator(f"#player-{first.player_id}")
    row.get_by_label(f"{first.player.name} paid the entry fee").check()
    row.get_by_role("button", name=f"Check in {first.player.name}").click()
    expect(row).to_contain_text("checked in · paid")
    phone.reload()
    expect(phone.locator("#prizes")).to_contain_text("1 paid · fees collected 5.00")
    assert overflow(phone) is None
    assert axe_problems(phone) == []

    prizes.session_mark_paid(session_id=session.pk, player_ids=None, paid=True, user=director)
    phone.goto(f"/sessions/{session.pk}/standings/")
    expect(phone.get_by_text("Prize pool 40.00")).to_be_visible()
    header = phone.get_by_role("columnheader", name="Prize", exact=True)
    expect(header).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
