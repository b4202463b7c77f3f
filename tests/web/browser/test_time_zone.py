"""A new club starts in the time zone of the phone that creates it, and any other zone is
picked from the list as it is typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser.checks import axe_problems, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_club_starts_in_the_phones_own_time_zone(
    browser: Any, live_server: Any, sign_in: Callable[[Any, str], None]
) -> None:
    from tests.factories import UserFactory

    UserFactory(username="founder")
    context = browser.new_context(
        viewport={"width": 360, "height": 780},
        base_url=live_server.url,
        timezone_id="America/Chicago",
    )
    try:
        page = context.new_page()
        sign_in(page, "founder")
        page.goto("/director/new-club/")
        box = page.get_by_label("Time zone")
        expect(box).to_have_value("America/Chicago")
        assert box.get_attribute("list")
        assert overflow(page) is None
        assert axe_problems(page) == []
    finally:
        context.close()
