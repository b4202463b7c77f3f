"""Sign-up before the night in the browser, on phones: the night has one place left; a
first phone signs up and gets it, a second is waitlisted (position 1), the first cancels
from its personal page (after the confirmation) and the second, reloading its own page,
has the place. Then the director checks the promoted player in with one tap. Every page
is checked at 360 px for sideways scrolling and serious axe-core violations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Registration, Session, SessionPlayer
from workflow.front import registrations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


def fits(page: Page, name: str) -> None:
    size = page.viewport_size
    page.set_viewport_size(NARROW)
    assert overflow(page) is None, name
    assert axe_problems(page) == [], name
    if size is not None:
        page.set_viewport_size(size)


def sign_up(
    page: Page, session: Session, name: str, shot: Callable[[Any, str], Any], email: str = ""
) -> None:
    page.goto(f"/sessions/{session.pk}/")
    page.get_by_role("link", name="Sign up for this night").click()
    expect(page.get_by_label("Your name")).to_be_visible()
    fits(page, "the sign-up page")
    shot(page, f"sign-up page before {name}")
    page.get_by_label("Your name").fill(name)
    if email:
        page.get_by_label("Email (optional)").fill(email)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Your sign-up")).to_be_visible()


def test_a_phone_signs_up_another_waits_the_first_cancels_the_second_moves_up(
    make_session: Callable[..., Session],
    director: Any,
    new_page: Callable[..., Page],
    sign_in: Callable[[Any, str], None],
    screenshots: Callable[[Any, str], Any],
) -> None:
    session = make_session(0, start=False)
    registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=1, user=director
    )
    first, second = new_page(PHONE), new_page(PHONE)

    sign_up(first, session, "Rosa Díaz", screenshots)
    expect(first.locator("#status")).to_contain_text("you are registered")
    fits(first, "the personal page, registered")

    sign_up(second, session, "pete o'brien", screenshots, email="pete@example.org")
    expect(second.locator("#status")).to_contain_text("on the waitlist, position 1")
    fits(second, "the personal page, waitlisted")
    screenshots(second, "personal page waitlisted")

    first.get_by_role("link", name="Cancel my sign-up…").click()
    expect(first.get_by_role("heading", name="Cancel your sign-up?")).to_be_visible()
    fits(first, "the confirmation")
    first.get_by_role("button", name="Cancel my sign-up").click()
    expect(first.get_by_text("Your sign-up is cancelled.")).to_be_visible()
    expect(first.locator("#status")).to_contain_text("cancelled")

    second.reload()
    expect(second.locator("#status")).to_contain_text("you are registered")
    expect(second.locator("#status")).to_contain_text("moved up from the waitlist")
    pete = Registration.objects.get(session=session, status="registered")
    assert pete.name == "pete o'brien"
    assert SessionPlayer.objects.filter(session=session).count() == 1

    boss = new_page(PHONE)
    sign_in(boss, director.username)
    boss.goto(f"/director/sessions/{session.pk}/")
    boss.get_by_role("link", name="Sign-up before the night").click()
    expect(boss.get_by_role("heading", name=f"Sign-ups: {session.name}")).to_be_visible()
    fits(boss, "the director's sign-ups")
    screenshots(boss, "director sign-ups")
    boss.get_by_role("button", name="Check pete o'brien in").click()
    expect(boss.get_by_text("Checked in.", exact=True)).to_be_visible()
    assert SessionPlayer.objects.get(session=session, player=pete.player).checked_in
