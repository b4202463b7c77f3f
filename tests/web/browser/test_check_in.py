"""Check-in of 40 players on a director's phone (docs/tournament.md, "Check-in"): a tap
checks a player in where they are, without a reload or a jump to the top, the focus
staying on the row; the search box filters the list as you type and is used from the
keyboard alone; without JavaScript the plain post still checks in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Session, SessionPlayer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def roster(make_session: Callable[..., Session]) -> Session:
    session = make_session(40, start=False)
    session.entries.update(checked_in=False)
    return session


def names(session: Session) -> list[str]:
    return list(session.entries.order_by("player__name").values_list("player__name", flat=True))


def checked_in(session: Session) -> set[str]:
    entries = SessionPlayer.objects.filter(session=session, checked_in=True)
    return set(entries.values_list("player__name", flat=True))


def test_a_tap_checks_a_player_in_where_they_are(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    roster: Session,
    director: Any,
) -> None:
    page = new_page(PHONE)
    sign_in(page, director.username)
    page.goto(f"/director/sessions/{roster.pk}/")
    far = names(roster)[30]
    button = page.get_by_role("button", name=f"Check in {far}", exact=True)
    button.scroll_into_view_if_needed()
    page.evaluate("window.notReloaded = true")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 500
    button.click()

    undo = page.get_by_role("button", name=f"Undo check-in of {far}", exact=True)
    expect(undo).to_be_focused()
    expect(page.get_by_role("status").filter(has_text=f"{far} is checked in.")).to_be_visible()
    expect(page.get_by_role("heading", name="Check-in (1 of 40)")).to_be_visible()
    assert page.evaluate("window.notReloaded === true")
    assert abs(page.evaluate("window.scrollY") - scrolled) < 50
    assert checked_in(roster) == {far}

    # From the keyboard: type a name, Enter goes to the player's button, Enter checks in.
    everyone = names(roster)
    other = next(
        n for n in everyone if n != far and sum(n.lower() in m.lower() for m in everyone) == 1
    )
    search = page.get_by_role("searchbox", name="Find a player")
    search.focus()
    typed = other[:3].lower()
    search.press_sequentially(typed)
    visible = page.locator("#checkin-list tr.checkin-row:visible")
    expect(visible).to_have_count(sum(1 for n in everyone if typed in n.lower()))
    search.fill(other)
    expect(visible).to_have_count(1)
    search.press("Enter")
    expect(page.get_by_role("button", name=f"Check in {other}", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=f"Undo check-in of {other}", exact=True)).to_be_focused()
    expect(page.get_by_role("heading", name="Check-in (2 of 40)")).to_be_visible()
    assert checked_in(roster) == {far, other}
    # Escape clears the search: the whole list again.
    search.focus()
    search.press("Escape")
    expect(visible).to_have_count(40)
    # Taking it back in place too, once the director confirms (static/door.js).
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name=f"Undo check-in of {far}", exact=True).click()
    expect(page.get_by_role("button", name=f"Check in {far}", exact=True)).to_be_focused()
    expect(page.get_by_role("heading", name="Check-in (1 of 40)")).to_be_visible()
    assert asked == [f"Undo the check-in of {far}?"]
    assert page.evaluate("window.notReloaded === true")
    assert checked_in(roster) == {other}

    page.set_viewport_size({"width": 360, "height": 780})
    assert overflow(page) is None
    assert axe_problems(page) == []
    screenshots(page, "check-in-40-360")


def test_without_javascript_the_plain_post_checks_in_and_comes_back_at_the_row(
    browser: Any,
    live_server: Any,
    sign_in: Callable[[Page, str], None],
    roster: Session,
    director: Any,
) -> None:
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    try:
        page = context.new_page()
        sign_in(page, director.username)
        page.goto(f"/director/sessions/{roster.pk}/")
        # No script, no search box: the list as it is.
        expect(page.get_by_role("searchbox", name="Find a player")).to_have_count(0)
        far = names(roster)[30]
        page.get_by_role("button", name=f"Check in {far}", exact=True).click()
        expect(page.get_by_text("Checked in.", exact=True)).to_be_visible()
        player = SessionPlayer.objects.get(session=roster, player__name=far).player_id
        assert page.url.endswith(f"/director/sessions/{roster.pk}/#player-{player}")
        expect(page.get_by_role("heading", name="Check-in (1 of 40)")).to_be_visible()
        assert checked_in(roster) == {far}
    finally:
        context.close()
