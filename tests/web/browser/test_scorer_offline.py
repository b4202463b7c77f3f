"""The scorer's page never loses a round (issue 10), on a phone at 390 x 844 that opened
the table through its permanent card: what is typed survives a reload, and a round
submitted while the network is down is kept on the phone, shown as not sent yet, and
arrives exactly once when the network is back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Round
from tests.scoring.helpers import MakeSession, dealer_order, top_game
from tests.web.browser.conftest import PHONE
from workflow.tables.card_selectors import table_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_round_sent_while_offline_arrives_once_when_the_network_is_back(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: MakeSession,
    director: Any,
) -> None:
    # Ten players: two tables of five, where players may drop (a column of checkboxes).
    game: Game = top_game(make_session(10))
    a, b = dealer_order(game)[:2]
    # The phone opens the table through its permanent card, as a scorer at the table does.
    (card,) = [c for c in table_cards(game.table.sitting.session) if c.number == game.table.rank]
    page = new_page(PHONE)
    page.goto(card.url)
    expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
    expect(page.get_by_text("deals round 1.")).to_be_visible()
    assert no_sideways_scroll(page)
    # Thumb-sized: every checkbox's label, field and button is at least 44 px each way.
    targets = page.locator("form.keeps label.tick, form.keeps button, form.keeps input:visible")
    assert targets.count() > 10
    for box in (targets.nth(i).bounding_box() for i in range(targets.count())):
        assert box is not None
        assert box["height"] >= 44
    for box in page.locator("label.tick").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    ):
        assert box >= 44
    page.set_viewport_size({"width": 360, "height": 780})
    assert no_sideways_scroll(page)
    screenshots(page, "scorer-entry-360")
    page.set_viewport_size(PHONE)

    # Typed, then the tab is reloaded: nothing typed is lost.
    page.get_by_label(f"Tricks taken by {a}").fill("3")
    page.get_by_label(f"Tricks taken by {b}").fill("2")
    page.reload()
    expect(page.get_by_label(f"Tricks taken by {a}")).to_have_value("3")
    expect(page.get_by_label(f"Tricks taken by {b}")).to_have_value("2")

    # The network drops as the scorer submits: the round stays on the phone.
    page.context.set_offline(True)
    page.get_by_role("button", name="Enter round").click()
    expect(page.get_by_text("saved on this phone, not sent yet")).to_be_visible()
    screenshots(page, "scorer-offline-390")
    assert no_sideways_scroll(page)
    assert not Round.objects.filter(game=game).exists()

    # The network is back: the round goes by itself, once.
    page.context.set_offline(False)
    expect(page.get_by_text("Round 1 entered.")).to_be_visible(timeout=15_000)
    expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
    expect(page.get_by_text("saved on this phone, not sent yet")).to_have_count(0)
    (stored,) = Round.objects.filter(game=game)
    assert {name: n for name, n in stored.data["tricks"].items() if n} == {a: 3, b: 2}
    # The draft of round 1 is gone: round 2's form starts empty.
    expect(page.get_by_label(f"Tricks taken by {a}")).to_have_value("")
    # A second wake-up (the page shown again) sends nothing more.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(300)
    assert Round.objects.filter(game=game).count() == 1
    assert page.evaluate("window.localStorage.getItem('huckley:outbox')") is None

    # A round the rules refuse, kept while offline, comes back to the form when the
    # server refuses it: nothing stored, nothing typed lost.
    page.context.set_offline(True)
    page.get_by_label(f"Tricks taken by {a}").fill("3")
    page.get_by_label(f"Tricks taken by {b}").fill("3")
    page.get_by_role("button", name="Enter round").click()
    expect(page.get_by_text("saved on this phone, not sent yet")).to_be_visible()
    page.context.set_offline(False)
    expect(page.get_by_text("Round 2 was not stored")).to_be_visible(timeout=15_000)
    expect(page.get_by_label(f"Tricks taken by {b}")).to_have_value("3")
    assert Round.objects.filter(game=game).count() == 1
