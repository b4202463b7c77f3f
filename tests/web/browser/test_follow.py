"""Follow my table in a real browser: a player finds themselves on a phone, follows,
and the page shows the new table and seat large after the movement, without a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Seating, Session
from workflow.session import movements
from workflow.session.simulation import play_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page polls every 3 s; a loaded machine gets a little more.
WITHIN_MS = 8_000


def test_a_following_phone_shows_the_new_table_after_the_movement_without_a_reload(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    seating = Seating.objects.select_related("player", "table").get(
        sitting__session=session, table__rank=2, seat=1
    )
    phone = new_page(PHONE)
    # Count the vibrations the page asks for (the headless browser has no motor).
    phone.context.add_init_script(
        "window.__buzz = []; navigator.vibrate = function () {"
        " var b = document.getElementById('follow').dataset;"
        " window.__buzz.push([b.state, b.sitting, b.table, b.seat].join('/')); return true; };"
        "var f = window.fetch; window.__seen = []; window.fetch = function (u, o) {"
        " return f(u, o).then(function (r) { r.clone().text().then(function (t) {"
        " window.__seen.push(r.status + ' ' + t.slice(0, 120)); }); return r; }); };"
    )
    phone.goto(f"/sessions/{session.pk}/")
    phone.get_by_label("Find my table").fill(seating.player.name)
    phone.get_by_role("button", name="Find").click()
    phone.get_by_role("link", name=f"Follow my table: {seating.player.name}").click()
    expect(phone.locator("#follow-table")).to_have_text("2")
    expect(phone.locator("#follow-seat")).to_have_text("1")
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    phone.evaluate("window.__sameDocument = true")
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    new = Seating.objects.select_related("table").get(
        sitting__session=session, sitting__number=2, player=seating.player, left_at__isnull=True
    )
    expect(phone.locator("#follow-sitting")).to_have_text("Sitting 2", timeout=WITHIN_MS)
    expect(phone.locator("#follow-table")).to_have_text(str(new.table.rank))
    expect(phone.locator("#follow-seat")).to_have_text(str(new.seat))
    expect(phone.get_by_role("status").filter(has_text="plays at")).to_have_text(
        f"Sitting 2: {seating.player.name} plays at table {new.table.rank}, seat {new.seat}."
    )
    assert phone.evaluate("window.__sameDocument") is True
    # One vibration, for the new place; what the polls answered, should it fail.
    buzzed = phone.evaluate("window.__buzz")
    assert buzzed == [f"seated/2/{new.table.rank}/{new.seat}"], phone.evaluate("window.__seen")
    screenshots(phone, "follow-after-the-movement")
