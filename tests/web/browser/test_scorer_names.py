"""Players' names on the scorer's page at 360 px break between words, never inside one
("Olga Petrov a"): in the score sheet's heads, the entry form's rows and the status
line; the sheet scrolls sideways in its own box rather than cut a name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser.checks import axe_problems, overflow
from workflow.session import services, start_finish
from workflow.tables import card_selectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Olga Petrova",
    "Wilhelmina Castellanos",
    "Bartholomew Oyelaran",
    "Margarethe Vandersloot",
    "Christopher Abernathy",
    "Anastasia Kowalczyk",
    "Maximilian Fairweather",
    "Guinevere Thistlewood",
]

# The words, in the given elements, whose letters are drawn on more than one line.
BROKEN_WORDS = """els => els.flatMap(el => {
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects(), r => Math.round(r.top)));
      if (tops.size > 1) { broken.push(m[0]); }
    }
  }
  return broken;
})"""


def test_names_break_between_words_at_360_px(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    club: Any,
    season: Any,
    director: Any,
) -> None:
    session = services.session_create(
        club=club,
        season=season,
        name="Long names night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=NAMES,
        seed=7,
        is_public=True,
        double_entry=False,
        user=director,
    )
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    page = new_page({"width": 360, "height": 780})
    page.goto(card_selectors.table_cards(session)[0].url)
    expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
    names = page.locator("table.sheet thead th, table.entry th.name, .game-status p")
    assert names.count() >= 9
    assert names.evaluate_all(BROKEN_WORDS) == []
    assert overflow(page) is None
    assert axe_problems(page) == []
    screenshots(page, "scorer-long-names-360")
