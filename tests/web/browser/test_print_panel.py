"""The director's Print panel on a phone (docs/tournament.md, Printing): it fits 360 px
with thumb-sized controls, and its buttons fetch the sheet asked for, on the paper and
for the sitting chosen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


def test_the_print_panel_on_a_phone_fetches_the_sheet_on_the_paper_chosen(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(8)
    page = new_page(NARROW)
    sign_in(page, director.username)
    page.goto(f"/director/sessions/{session.pk}/")
    panel = page.locator(".print-panel")
    panel.scroll_into_view_if_needed()
    width = page.evaluate(
        "[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    assert width[0] <= width[1]
    controls = panel.locator("button, select, input")
    assert controls.count() == 6
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box is not None
        assert box["height"] >= 44
        assert box["x"] + box["width"] <= NARROW["width"]
    page.get_by_label("Paper").select_option("letter")
    # The browser is not let to open the PDF (Chromium's viewer can keep its context from
    # closing): the form's request is caught, then fetched with the director's cookies.
    page.route("**/print/*.pdf*", lambda route: route.abort())
    with page.expect_request(lambda r: "/print/assignments.pdf" in r.url) as sent:
        page.get_by_role("button", name="Where to sit").click(no_wait_after=True)
    url = sent.value.url
    assert url.endswith(f"/api/sessions/{session.pk}/print/assignments.pdf?paper=letter&sitting=1")
    response = page.request.get(url)
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")
