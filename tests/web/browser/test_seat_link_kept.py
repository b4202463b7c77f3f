"""The seat link a phone keeps, in a real browser at 390 px: a player checks in at the
door of a night that plays online; after the start, "find my table" on that phone shows
their table as online with "Play at your seat", which opens their own seat, and so does
"follow my table". Another phone finding the same name is told the table plays online,
and is offered no link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from play.models import SeatLink
from tests.rows import make_door_night
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Seating, Session
from workflow.session import start_finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def find(phone: Page, session: Session, name: str) -> None:
    phone.goto(f"/sessions/{session.pk}/")
    phone.get_by_label("Find my table").fill(name)
    phone.get_by_role("button", name="Find").click()


def test_a_phone_checked_in_at_the_door_finds_its_online_seat_from_find_my_table(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    club: Any,
    season: Any,
    director: Any,
) -> None:
    night = make_door_night(club, season, director)
    Session.objects.filter(pk=night.pk).update(online=True)

    phone = new_page(PHONE)
    phone.goto(f"/sessions/{night.pk}/check-in/")
    phone.get_by_label("Your name").fill("rosa diaz")
    phone.get_by_label("Door code").fill("4821")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.get_by_text("Welcome, Rosa Díaz: you are checked in.")).to_be_visible()
    token = SeatLink.objects.get(session=night, player__name="Rosa Díaz").token
    expect(phone.get_by_role("link", name="Play at your seat")).to_have_attribute(
        "href", f"/play/{token}/"
    )
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "door-keeps-the-seat-link-390")

    night.entries.update(checked_in=True)
    start_finish.session_start(session_id=night.pk, user=director)
    table = Seating.objects.get(sitting__session=night, player__name="Rosa Díaz").table

    find(phone, night, "rosa diaz")
    expect(phone.get_by_text(f"Table {table.number} plays online")).to_be_visible()
    seat = phone.get_by_role("link", name="Play at your seat")
    expect(seat).to_be_visible()
    expect(seat).to_have_attribute("href", f"/play/{token}/")
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "find-my-table-play-at-your-seat-390")

    # Another phone: the same answer, and no link (it keeps nobody's).
    other = new_page(PHONE)
    find(other, night, "rosa diaz")
    expect(other.get_by_text(f"Table {table.number} plays online")).to_be_visible()
    expect(other.get_by_role("link", name="Play at your seat")).to_have_count(0)
    assert token not in other.content()

    # Follow my table on the first phone offers it too; the link opens her own seat.
    phone.get_by_role("link", name="Follow my table: Rosa Díaz").click()
    expect(phone.locator("#follow-online")).to_be_visible()
    expect(phone.get_by_role("link", name="Play at your seat")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    phone.get_by_role("link", name="Play at your seat").click()
    expect(phone).to_have_url(re.compile(rf"/play/{re.escape(token)}/$"))
    expect(phone.get_by_text("Rosa Díaz").first).to_be_visible()
