"""Calling the director in a real browser: a scorer on a phone calls from the score
sheet, the director's page shows the call by itself (no reload) with the table, its
players and the time, and the director marks it handled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import DESKTOP, PHONE
from tournaments.models import DirectorCall, Session, Table
from workflow.tables import links as table_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The director's page polls every 3 s; a loaded machine gets a little more.
WITHIN_MS = 8_000


def test_a_scorer_calls_the_director_and_the_director_marks_the_call_handled(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(8)
    table = Table.objects.get(sitting__session=session, rank=2)
    players = list(table.seatings.order_by("seat").values_list("player__name", flat=True))
    link = table_links.scorer_link_create(table_id=table.pk, user=director)

    desk = new_page(DESKTOP)
    # Count the beeps: each is two tones made by the Web Audio API.
    desk.context.add_init_script(
        "window.__tones = 0; var C = window.AudioContext;"
        " var make = C.prototype.createOscillator;"
        " C.prototype.createOscillator = function () { window.__tones += 1;"
        " return make.call(this); };"
    )
    sign_in(desk, director.username)
    desk.goto(f"/director/sessions/{session.pk}/")
    calls = desk.locator("#calls-live")
    expect(calls).to_contain_text("No open call.")
    desk.evaluate("window.__sameDocument = true")
    # A browser lets a page sound once it has been tapped.
    desk.get_by_role("heading", name="Calls for the director").click()

    phone = new_page(PHONE)
    phone.goto(f"/score/{link.token}/")
    phone.get_by_role("link", name="Call the director").click()
    phone.get_by_label("Why").select_option("dispute")
    phone.get_by_label("In a few words").fill("Who led the jack?")
    phone.get_by_role("button", name="Call the director").click()
    expect(phone.get_by_text("The director is called to table 2: a dispute")).to_be_visible()
    expect(phone.get_by_text("The director has been called")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "call-sent")

    open_call = calls.locator(".call-open")
    expect(open_call).to_contain_text("Table 2", timeout=WITHIN_MS)
    expect(open_call).to_contain_text("A dispute")
    expect(open_call).to_contain_text("“Who led the jack?”")
    for name in players:
        expect(open_call).to_contain_text(name)
    expect(open_call).to_contain_text("(UTC)")
    assert desk.evaluate("window.__sameDocument") is True
    assert desk.evaluate("window.__tones") == 2  # one double beep for the one new call
    expect(desk).to_have_title(f"(1) Run {session.name}")
    assert axe_problems(desk) == []
    screenshots(desk, "call-on-the-directors-page")

    open_call.get_by_role("button", name="Mark the call from table 2 handled").click()
    expect(desk.get_by_text("The call from table 2 is handled.")).to_be_visible()
    expect(calls).to_contain_text("No open call.")
    expect(calls).to_contain_text("Handled calls (1)")
    call = DirectorCall.objects.get()
    assert call.handled_by_id == director.pk

    # The scorer's page offers the form again once the call is handled.
    phone.reload()
    expect(phone.get_by_label("Why")).to_be_visible()
