"""The door on the night (docs/tournament.md, "Self check-in at the door"): the
director's page is open on the laptop; a player's 390 px phone opens the check-in page,
types a wrong door code and is told so in plain words, then the right one and is checked
in; the director's page shows the arrival without a reload, and the director takes it
back after confirming."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.rows import make_door_night
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import DESKTOP, PHONE
from tournaments.models import Session, SessionPlayer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night(club: Any, season: Any, director: Any) -> Session:
    return make_door_night(club, season, director)


def test_a_phone_checks_in_at_the_door_while_the_directors_page_shows_it(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    night: Session,
    director: Any,
) -> None:
    desk = new_page(DESKTOP)
    sign_in(desk, director.username)
    desk.goto(f"/director/sessions/{night.pk}/")
    expect(desk.locator("#door-code")).to_have_text("4821")
    expect(desk.get_by_role("heading", name="Check-in (0 of 6)")).to_be_visible()
    desk.evaluate("window.notReloaded = true")

    phone = new_page(PHONE)
    phone.goto(f"/sessions/{night.pk}/check-in/")
    phone.get_by_label("Your name").fill("rosa diaz")
    phone.get_by_label("Door code").fill("1234")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.get_by_role("alert").filter(has_text="That is not the door code.")).to_be_visible()
    expect(phone.get_by_label("Your name")).to_have_value("rosa diaz")  # kept as typed
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "door-wrong-code-390")

    phone.get_by_label("Door code").fill("4821")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.get_by_text("Welcome, Rosa Díaz: you are checked in.")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "door-checked-in-390")

    # The director's page, untouched, shows the arrival by itself.
    row = desk.locator("#checkin-list tr", has_text="Rosa Díaz")
    expect(row).to_contain_text("checked in at the door", timeout=8_000)
    expect(desk.get_by_role("heading", name="Check-in (1 of 6)")).to_be_visible()
    expect(desk.locator("#door-arrivals")).to_have_text("Rosa Díaz checked in at the door.")
    assert desk.evaluate("window.notReloaded === true")
    assert axe_problems(desk) == []
    screenshots(desk, "door-director-live")

    # The director takes it back, after saying yes.
    asked: list[str] = []
    desk.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    desk.get_by_role("button", name="Undo check-in of Rosa Díaz", exact=True).click()
    expect(desk.get_by_role("button", name="Check in Rosa Díaz", exact=True)).to_be_visible()
    expect(desk.get_by_role("heading", name="Check-in (0 of 6)")).to_be_visible()
    assert asked == ["Undo the check-in of Rosa Díaz?"]
    rosa = SessionPlayer.objects.get(session=night, player__name="Rosa Díaz")
    assert not rosa.checked_in
    assert rosa.self_checked_in_at is None


def test_the_projector_shows_the_door_code_and_a_new_one_without_a_reload(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    night: Session,
    director: Any,
) -> None:
    wall = new_page(DESKTOP)
    wall.goto(f"/sessions/{night.pk}/screen/")
    expect(wall.locator("#screen-door .door-code")).to_have_text("4821")
    desk = new_page(DESKTOP)
    sign_in(desk, director.username)
    desk.goto(f"/director/sessions/{night.pk}/")
    desk.get_by_label("New door code").fill("0707")
    desk.get_by_role("button", name="Change the code").click()
    expect(desk.locator("#door-code")).to_have_text("0707")
    expect(wall.locator("#screen-door .door-code")).to_have_text("0707", timeout=8_000)
