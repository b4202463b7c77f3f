"""The standings on a 1920 x 1080 projector and on a 390 px phone: the Hooks header is
whole, the projector's "Standings" heading stands in the same column as its rows, and a
long name stays in its own cell, never over the Table column (issue 32)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems
from tests.web.browser.conftest import PHONE
from tournaments.models import Player, Session
from workflow.session.simulation import play_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}

#: Names as clubs have them: long, with hyphens and apostrophes, some words longer than
#: a narrow column of the wall.
LONG_NAMES = [
    "Anne-Marie Costello-Fitzgerald",
    "Pádraig Mac Giolla Easpaig",
    "Featherstonehaugh-Worthington",
    "Bartholomew O'Shaughnessy",
]

#: What is wrong with the table `selector`, in words: the Hooks header cut (by its cell,
#: its column of the wall, a box that clips it or the screen), the heading before the
#: table in another column than the first row, a name reaching past its cell.
PROBLEMS = """(selector) => {
  const problems = [];
  const table = document.querySelector(selector);
  const text = (node) => { const r = document.createRange(); r.selectNodeContents(node);
                           return r.getBoundingClientRect(); };
  const hooks = [...table.tHead.rows[0].cells].find(c => c.textContent.trim() === 'Hooks');
  const seen = text(hooks);
  if (hooks.scrollWidth > hooks.clientWidth) problems.push('Hooks is wider than its cell');
  if (seen.right > window.innerWidth + 0.5) problems.push('Hooks runs off the screen');
  for (let box = hooks.parentElement; box; box = box.parentElement) {
    if (getComputedStyle(box).overflowX === 'visible') continue;
    const r = box.getBoundingClientRect();
    if (seen.right > r.right + 0.5) problems.push(`Hooks is cut by ${box.className}`);
  }
  const heading = table.previousElementSibling;
  if (heading && /^H[1-6]$/.test(heading.tagName)) {
    const column = heading.getBoundingClientRect();
    // A table that runs into a second column has a box across both: its rows do not.
    if ([...table.rows].some(row => row.getBoundingClientRect().width > column.width + 0.5))
      problems.push('the table is wider than its column');
    const first = table.tBodies[0].rows[0].getBoundingClientRect();
    if (Math.abs(first.left - column.left) > 1)
      problems.push('the heading is in another column than the first row');
  }
  for (const cell of table.querySelectorAll('tbody td.name')) {
    const name = text(cell), next = cell.nextElementSibling;
    if (name.right > cell.getBoundingClientRect().right + 0.5 ||
        name.right > text(next).left + 0.5 && text(next).width > 0)
      problems.push(`${cell.textContent.trim()} reaches past its cell`);
  }
  return problems;
}"""


#: Push the standings down (a spacer before their section) until the heading's last line
#: is the last line of a column of the wall: its rows must then follow it into the next
#: column rather than leave it alone at the bottom. Whatever stands above the standings
#: (the tables, the movement) can put them there.
HEADING_AT_THE_BOTTOM = """() => {
  const heading = document.querySelector('.screen-standings').previousElementSibling;
  const spacer = document.createElement('div');
  heading.parentElement.before(spacer);
  const left = (h) => { spacer.style.height = `${h}px`;
                        return Math.round(heading.getBoundingClientRect().left); };
  const column = left(0);
  let lo = 0, hi = 4 * document.querySelector('.screen-flow').clientHeight;
  while (hi - lo > 1) { const mid = Math.floor((lo + hi) / 2);
                        if (left(mid) === column) lo = mid; else hi = mid; }
  left(lo);
}"""

#: Turn the wall to the screenful that holds the standings' table, as static/live.js
#: turns it every few seconds.
SHOW_STANDINGS = """() => {
  const flow = document.querySelector('.screen-flow');
  const width = flow.clientWidth + (parseFloat(getComputedStyle(flow).columnGap) || 0);
  const left = document.querySelector('.screen-standings').getBoundingClientRect().left
    - flow.getBoundingClientRect().left + flow.scrollLeft;
  flow.scrollLeft = Math.floor(left / width) * width;
}"""


@pytest.fixture
def played(make_session: Callable[..., Session]) -> Session:
    """Sixteen players, four of them with long names, after a sitting is played."""
    session = make_session(16)
    for player, name in zip(Player.objects.filter(club=session.club), LONG_NAMES, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
    play_sitting(session.sittings.get(), seed=5)
    return session


@pytest.mark.parametrize("viewport", [WALL, PHONE], ids=["1920x1080", "390x844"])
def test_the_projectors_standings_are_whole(
    new_page: Callable[..., Page],
    played: Session,
    viewport: dict[str, int],
    screenshots: Callable[[Page, str], Any],
) -> None:
    wall = new_page(viewport)
    wall.goto(f"/sessions/{played.pk}/screen/")
    expect(wall.get_by_role("heading", name="Standings")).to_be_attached()
    wall.evaluate(SHOW_STANDINGS)
    problems = wall.evaluate(PROBLEMS, ".screen-standings")
    screenshots(wall, f"projector-standings-{viewport['width']}")
    assert not problems, "; ".join(problems)
    assert axe_problems(wall) == []


@pytest.mark.parametrize("viewport", [WALL, PHONE], ids=["1920x1080", "390x844"])
def test_the_projectors_standings_heading_stays_with_its_rows(
    new_page: Callable[..., Page], played: Session, viewport: dict[str, int]
) -> None:
    wall = new_page(viewport)
    wall.goto(f"/sessions/{played.pk}/screen/")
    expect(wall.get_by_role("heading", name="Standings")).to_be_attached()
    wall.evaluate(HEADING_AT_THE_BOTTOM)
    wall.evaluate(SHOW_STANDINGS)
    problems = wall.evaluate(PROBLEMS, ".screen-standings")
    assert "the heading is in another column than the first row" not in problems


@pytest.mark.parametrize("viewport", [WALL, PHONE], ids=["1920x1080", "390x844"])
def test_the_standings_page_keeps_long_names_in_their_cells(
    new_page: Callable[..., Page],
    played: Session,
    viewport: dict[str, int],
    screenshots: Callable[[Page, str], Any],
) -> None:
    page = new_page(viewport)
    page.goto(f"/sessions/{played.pk}/standings/")
    expect(page.get_by_role("columnheader", name="Hooks")).to_be_visible()
    problems = page.evaluate(PROBLEMS, "table.standings")
    screenshots(page, f"standings-{viewport['width']}")
    assert not problems, "; ".join(problems)
    assert axe_problems(page) == []
