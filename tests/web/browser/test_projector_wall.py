"""The projector on a 1920 x 1080 wall, from 4 to 60 tables: names of at least 32 px, the
page never scrolls or overflows, every table card is whole on a screen, and what does not
fit one screen is shown a screenful at a time by itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems
from tournaments.models import Session
from workflow.session import movements
from workflow.session.simulation import play_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}
PAGER = 8000  # ms a screenful stays on the wall (data-pager of templates/tournaments/screen.html)

#: Every name on the wall, and the smallest of their computed font sizes.
SMALLEST_NAME = """() => Math.min(...[...document.querySelectorAll(
    '.seat-list li, .screen-standings td.name, .screen-moves li')]
  .map(e => parseFloat(getComputedStyle(e).fontSize)))"""

#: Table cards cut by the bottom of the screen's columns (a card split across two).
CUT_CARDS = """() => {
  const flow = document.querySelector('.screen-flow').getBoundingClientRect();
  return [...document.querySelectorAll('article.screen-table')]
    .filter(a => { const r = a.getBoundingClientRect();
                   return r.top < flow.top - 1 || r.bottom > flow.bottom + 1; })
    .map(a => a.querySelector('h3').textContent);
}"""

#: Whether the document itself is larger than the window either way.
PAGE_OVERFLOWS = """() => { const d = document.scrollingElement;
  return d.scrollWidth > d.clientWidth || d.scrollHeight > d.clientHeight; }"""


@pytest.mark.parametrize("tables", [4, 60])
def test_the_wall_shows_names_of_at_least_32_px_with_no_scrolling_at_any_size(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    screenshots: Callable[[Page, str], Any],
    tables: int,
) -> None:
    session = make_session(tables * 4)
    wall = new_page(WALL)
    wall.goto(f"/sessions/{session.pk}/screen/")
    expect(wall.get_by_role("heading", name=f"Table {tables}", exact=True)).to_be_attached()
    assert wall.evaluate(SMALLEST_NAME) >= 32
    assert wall.evaluate(PAGE_OVERFLOWS) is False
    assert wall.evaluate(CUT_CARDS) == []
    assert axe_problems(wall) == []
    screenshots(wall, f"projector-wall-{tables}-tables")


def test_sixty_tables_are_shown_a_screenful_at_a_time_by_themselves(
    new_page: Callable[..., Page], make_session: Callable[..., Session]
) -> None:
    session = make_session(240)
    wall = new_page(WALL)
    # The page turns itself every PAGER ms: the test moves the browser's clock on rather
    # than wait for it (Playwright's fake timers; time still flows as usual between).
    wall.clock.install()
    wall.goto(f"/sessions/{session.pk}/screen/")
    label = wall.locator("#screen-page")
    expect(label).to_contain_text("Page 1 of")
    last = wall.get_by_role("heading", name="Table 60", exact=True)
    assert not _on_screen(wall, last)
    wall.clock.run_for(PAGER)
    expect(label).to_contain_text("Page 2 of")
    pages = int(label.inner_text().rsplit(" ", 1)[1])
    for page in range(3, pages + 1):
        wall.clock.run_for(PAGER)
        expect(label).to_contain_text(f"Page {page} of")
        if _on_screen(wall, last):
            break
    assert _on_screen(wall, last)
    assert wall.evaluate(PAGE_OVERFLOWS) is False


def _on_screen(wall: Page, heading: Any) -> bool:
    box = heading.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WALL["width"]


def test_after_a_movement_the_wall_still_fits(
    new_page: Callable[..., Page], make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(16)
    play_sitting(session.sittings.get(), seed=5)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    wall = new_page(WALL)
    wall.goto(f"/sessions/{session.pk}/screen/")
    expect(wall.get_by_text("Sitting 2 ·")).to_be_visible()
    assert wall.evaluate(SMALLEST_NAME) >= 32
    assert wall.evaluate(PAGE_OVERFLOWS) is False
    assert wall.evaluate(CUT_CARDS) == []
