"""A visitor chooses their language at the foot of any page, on a 360 px phone with
JavaScript off: the page comes back in it, fits the screen, and axe finds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.languages import catalogues  # noqa: F401 (a fixture)
from tests.web.browser.checks import axe_problems, overflow

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("catalogues"),
]


def test_the_picker_works_on_a_small_phone_without_javascript(
    browser: Any, live_server: Any
) -> None:
    from tests.factories import ClubFactory

    ClubFactory(name="Tuesday Club", slug="tuesday", language="en-ie")
    phone = {"viewport": {"width": 360, "height": 780}, "base_url": live_server.url}
    # Without JavaScript: the form posts and the page comes back in the language chosen.
    plain = browser.new_context(**phone, java_script_enabled=False)
    try:
        page = plain.new_page()
        page.goto("/clubs/tuesday/")
        expect(page.locator("html")).to_have_attribute("lang", "en-ie")
        picker = page.get_by_label("Language")
        expect(picker).to_have_value("en-ie")

        picker.select_option("es")
        page.get_by_role("button", name="Change language").click()

        expect(page).to_have_url(f"{live_server.url}/clubs/tuesday/")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.get_by_label("Idioma")).to_have_value("es")
    finally:
        plain.close()
    # The checks run a script in the page: with JavaScript, the same page fits and passes.
    checked = browser.new_context(**phone)
    try:
        page = checked.new_page()
        page.goto("/clubs/tuesday/")
        expect(page.get_by_label("Language")).to_be_visible()
        assert overflow(page) is None
        assert axe_problems(page) == []
    finally:
        checked.close()
