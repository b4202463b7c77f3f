"""A refused round on a 360 px phone (issue "A new club's first night without help", item
2): tricks of 6 and -1 came back in Django's words and pushed the page to 580 px, over the
Enter button. The refusal is now the engine's, wraps inside the screen, and the Enter
button stays where the scorer's thumb can reach it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Round
from tests.scoring.helpers import MakeSession, dealer_order, top_game
from tests.web.browser.checks import axe_problems, overflow
from workflow.tables.card_selectors import table_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


def enter_button_in_reach(page: Page) -> None:
    """The Enter button is on the screen's width, and nothing lies on top of it."""
    button = page.get_by_role("button", name="Enter round")
    button.scroll_into_view_if_needed()
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= NARROW["width"]
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top == "Enter round"


@pytest.mark.parametrize(
    ("what", "typed", "said"),
    [
        (
            "tricks out of range",
            {"a": "6", "b": "-1"},
            ["{a}'s tricks must be a whole number from 0 to 5, not 6.", "not -1."],
        ),
        (
            "tricks typed with a misdeal",
            {"a": "2", "b": "1", "c": "1", "d": "1", "misdeal": True},
            ["The round is marked as a misdeal, so no tricks were played"],
        ),
    ],
)
def test_a_refused_round_fits_a_360_px_phone_with_the_enter_button_in_reach(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: MakeSession,
    what: str,
    typed: dict[str, Any],
    said: list[str],
) -> None:
    # Ten players: tables of five, the widest entry form (drops and tricks for each).
    game = top_game(make_session(10))
    seats = dict(zip("abcde", dealer_order(game), strict=True))
    (card,) = [c for c in table_cards(game.table.sitting.session) if c.number == game.table.rank]
    page = new_page(NARROW)
    page.goto(card.url)
    expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
    for seat, value in typed.items():
        if seat == "misdeal":
            page.get_by_label("Misdeal").check()
        else:
            page.get_by_label(f"Tricks taken by {seats[seat]}").fill(value)

    page.get_by_role("button", name="Enter round").click()

    for words in said:
        expect(page.get_by_text(words.format(**seats), exact=False)).to_be_visible()
    expect(page.get_by_text("Ensure this value")).to_have_count(0)
    screenshots(page, f"entry-refused-360-{what}")
    assert overflow(page) is None
    enter_button_in_reach(page)
    assert axe_problems(page) == []
    # Nothing typed was lost on the way back.
    for seat, value in typed.items():
        if seat != "misdeal":
            expect(page.get_by_label(f"Tricks taken by {seats[seat]}")).to_have_value(value)
    assert not Round.objects.filter(game=game).exists()
