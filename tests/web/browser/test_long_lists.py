"""The long lists on a phone: the standings and the movement preview of a 220-player
session paged and searched by a director at 390 x 844, nothing wider than the screen,
and no serious or critical axe-core violation."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Seating, Session
from workflow.session import selectors
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits_and_passes_axe(page: Page, shot: Callable[[Page, str], Any], name: str) -> None:
    assert overflow(page) is None, name
    shot(page, f"long-lists-{name}")
    assert axe_problems(page) == [], name


def first_rank(page: Page) -> str:
    return page.locator("tbody tr.standing td").first.inner_text()


def test_a_director_pages_and_searches_the_standings_and_the_movement_on_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(220)
    finish_sitting_unplayed(session.sittings.get(), random.Random(3))
    wanted = selectors.session_standings(session)[150]
    page = new_page(PHONE)
    sign_in(page, director.username)

    # The standings: 100 rows a page, the pager to page 2, a search for one player.
    page.goto(f"/sessions/{session.pk}/standings/")
    expect(page.get_by_text("220 players: places 1\N{EN DASH}100 · page 1 of 3")).to_be_visible()
    assert first_rank(page) == "1"
    fits_and_passes_axe(page, screenshots, "standings-1")
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Next").click()
    expect(page.get_by_text("places 101\N{EN DASH}200 · page 2 of 3")).to_be_visible()
    assert first_rank(page) == "101"
    assert page.locator("tbody tr.standing").count() == 100
    page.get_by_role("searchbox", name="Find a player by name").fill(wanted.name)
    page.get_by_role("button", name="Find").click()
    row = page.locator(
        "tbody tr.standing", has=page.get_by_role("link", name=wanted.name, exact=True)
    )
    expect(row.locator("td").first).to_have_text("151")
    fits_and_passes_axe(page, screenshots, "standings-search")

    # The movement: 25 tables a page, the whole session's summary and confirmation on each.
    page.goto(f"/director/sessions/{session.pk}/movement/")
    expect(page.get_by_text("Tables 1\N{EN DASH}25 of 55 · page 1 of 3")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "movement-1")
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Next").click()
    expect(page.get_by_role("heading", name="Table 26", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Table 25", exact=True)).to_have_count(0)
    confirm = page.get_by_role("button", name="Confirm the movement: all 220 players at 55 tables")
    expect(confirm).to_be_visible()
    seated = Seating.objects.select_related("player").get(
        sitting__session=session, table__rank=40, seat=1
    )
    page.get_by_role("searchbox", name="Find a player's table").fill(seated.player.name)
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_role("heading", name="Table 40", exact=True)).to_be_visible()
    expect(page.get_by_text(seated.player.name, exact=True).first).to_be_visible()
    fits_and_passes_axe(page, screenshots, "movement-search")

    # Confirmed from the searched page: everyone moves.
    confirm.click()
    expect(page.get_by_text("Players moved. Sitting 2 has started.")).to_be_visible()
    assert Seating.objects.filter(sitting__session=session, sitting__number=2).count() == 220
