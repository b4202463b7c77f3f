"""What the directors did, in the browser on a phone: from "Run the club" to the log,
filtered with its form (no JavaScript needed), fitting the screen and passing axe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Club, Session
from tournaments.permissions import SYSTEM
from workflow.club import services as club_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_reads_and_filters_the_log_on_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    director: Any,
    club: Club,
    make_session: Callable[..., Session],
) -> None:
    make_session(8)
    club_services.player_add(club_id=club.pk, name="Night owl", user=SYSTEM)
    page = new_page(PHONE)
    sign_in(page, director.username)
    page.goto(f"/director/clubs/{club.slug}/")
    page.get_by_role("link", name="What the directors did").click()
    expect(page.get_by_text("Started the session: 8 players at 2 tables")).to_be_visible()
    expect(page.get_by_text("Added the player Night owl")).to_be_visible()
    assert overflow(page) is None
    screenshots(page, "audit-log")
    assert axe_problems(page) == []

    page.get_by_label("Who").select_option("system")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_text("Added the player Night owl")).to_be_visible()
    expect(page.get_by_text("Started the session")).to_have_count(0)
    assert "who=system" in page.url
    assert overflow(page) is None
