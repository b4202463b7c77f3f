"""The standings on a 360 px phone right after a movement: the tie-break's words sit under
each player's row, so the Won and Hooks columns are on the screen without scrolling
sideways."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from tournaments.models import Session
from workflow.session import movements
from workflow.session.simulation import play_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}

#: How far the standings table is wider than the box it scrolls in (0: it fits).
SIDEWAYS = """() => { const box = document.querySelector('.scroll');
  return box.scrollWidth - box.clientWidth; }"""


def test_won_and_hooks_are_on_a_360_px_screen_without_scrolling_sideways(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    director: Any,
    screenshots: Callable[[Page, str], Any],
) -> None:
    session = make_session(16)
    play_sitting(session.sittings.get(), seed=5)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    phone = new_page(SMALL_PHONE)
    phone.goto(f"/sessions/{session.pk}/standings/")
    expect(phone.get_by_text("no result at this table yet").first).to_be_visible()
    for column in ("Won", "Hooks"):
        header = phone.get_by_role("columnheader", name=column, exact=True)
        expect(header).to_be_in_viewport()
        box = header.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= SMALL_PHONE["width"], column
    assert phone.evaluate(SIDEWAYS) <= 0
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "standings-360px")
