"""Scoring without a network (docs/tournament.md): on a phone that opened its table
through the card, every round entered offline waits in a queue on the phone, in order,
the page itself survives a reload offline (the service worker's last copy, said to be
one), and when the network is back the rounds go in order, each told in plain words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Game, Round
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tests.scoring.helpers import MakeSession, dealer_order, split, top_game
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from workflow.tables.card_selectors import table_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_by_card(new_page: Callable[..., Page], game: Game) -> Page:
    """A phone that scanned the table's card, with the service worker in control."""
    (card,) = [c for c in table_cards(game.table.sitting.session) if c.number == game.table.rank]
    page = new_page(PHONE)
    page.goto(card.url)
    expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The page the worker will keep: drawn once more now that it controls the page.
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    kept_soon(page, KEPT, f"/tables/{game.table_id}/")
    return page


# Whether the worker keeps a copy of the page at this path (under its generation).
KEPT = """path => caches.open("huckley-pages-v1")
  .then(cache => cache.keys())
  .then(keys => keys.some(k => new URL(k.url).pathname === path))"""
FORGOTTEN = """path => caches.open("huckley-pages-v1")
  .then(cache => cache.keys())
  .then(keys => !keys.some(k => new URL(k.url).pathname === path))"""


def kept_soon(page: Page, script: str, path: str) -> None:
    """Wait (up to 5 s) until `script(path)` is true: the worker writes its copy after
    answering, and Playwright's wait_for_function does not wait for a promise."""
    for _ in range(50):
        if page.evaluate(script, path):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{script} was still false for {path}")


def enter(page: Page, tricks: dict[str, int]) -> None:
    for name, n in tricks.items():
        page.get_by_label(f"Tricks taken by {name}").fill(str(n))
    page.get_by_role("button", name="Enter round").click()


def queued(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#queue li").all_inner_texts()]


def test_two_rounds_entered_offline_survive_a_reload_and_are_sent_in_order(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: MakeSession,
) -> None:
    game: Game = top_game(make_session(8))
    a, b, c, _ = dealer_order(game)
    page = open_by_card(new_page, game)

    page.context.set_offline(True)
    enter(page, {a: 3, b: 2})
    expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
    # Round 2 is dealt by the next player: the form moved the dealer on a seat.
    expect(page.get_by_label("Dealer:")).to_have_value(b)
    enter(page, {b: 4, c: 1})
    expect(page.get_by_role("heading", name="Enter round 3")).to_be_visible()
    expect(page.locator("#queue li")).to_have_count(2)
    assert [line.split(":")[0] for line in queued(page)] == ["Round 1", "Round 2"]
    assert all("waiting, saved on this phone, not sent yet" in line for line in queued(page))

    # Reloaded offline: the last copy of the page, said to be one, with both rounds waiting.
    page.reload()
    expect(
        page.get_by_text("This is the last copy of this page seen on this phone")
    ).to_be_visible()
    expect(page.locator("#queue li")).to_have_count(2)
    assert all("waiting" in line for line in queued(page))
    expect(page.get_by_role("heading", name="Enter round 3")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 780})
    assert overflow(page) is None
    assert axe_problems(page) == []
    screenshots(page, "queue-offline-reloaded-360")
    page.set_viewport_size(PHONE)
    assert not Round.objects.filter(game=game).exists()

    # The network is back: both go, in order, each said to be sent.
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#queue li.sent")).to_have_count(2, timeout=15_000)
    assert queued(page) == ["Round 1: sent.", "Round 2: sent."]
    expect(page.get_by_text("This is the last copy")).to_have_count(0)
    expect(page.get_by_role("heading", name="Enter round 3")).to_be_visible()
    stored = list(Round.objects.filter(game=game).order_by("number"))
    assert [{name: n for name, n in r.data["tricks"].items() if n} for r in stored] == [
        {a: 3, b: 2},
        {b: 4, c: 1},
    ]
    assert [r.data["dealer"] for r in stored] == [a, b]
    # Told once: the next page no longer lists them, and nothing more is sent.
    page.reload()
    expect(page.locator("#queue li")).to_have_count(0)
    assert Round.objects.filter(game=game).count() == 2


def test_a_queued_round_someone_entered_differently_is_shown_with_a_link_to_compare(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: MakeSession,
    director: Any,
) -> None:
    game: Game = top_game(make_session(8))
    a, b, c, _ = dealer_order(game)
    page = open_by_card(new_page, game)

    page.context.set_offline(True)
    enter(page, {a: 3, b: 2})
    enter(page, {b: 4, c: 1})
    expect(page.locator("#queue li")).to_have_count(2)
    # Meanwhile the director entered round 1 with other numbers.
    services.round_submit(game_id=game.pk, number=1, data=split(game, 2, 3), actor=director)

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    first = page.locator("#queue li").first
    expect(first).to_contain_text(
        "Round 1: someone entered different numbers: compare Drop my round 1", timeout=15_000
    )
    # The phone's own numbers, to compare with the sheet's.
    seats = list(game.game_players.order_by("seat").values_list("name", flat=True))
    tricks = [f"Tricks taken by {p}: {({a: 3, b: 2})[p]}" for p in seats if p in (a, b)]
    expect(first.locator(".own")).to_have_text(
        f"Entered on this phone: Dealer: {a}, {', '.join(tricks)}."
    )
    # Sending stopped there: round 2 still waits, and nothing of this phone was stored.
    expect(page.locator("#queue li").nth(1)).to_contain_text("Round 2: waiting")
    assert [r.data for r in Round.objects.filter(game=game)] == [split(game, 2, 3)]
    page.set_viewport_size({"width": 360, "height": 780})
    assert overflow(page) is None
    assert axe_problems(page) == []
    screenshots(page, "queue-different-360")
    first.get_by_role("link", name="Compare round 1 on the score sheet").click()
    expect(page).to_have_url(re.compile(rf"/tables/{game.table_id}/\?game=1$"))
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()


def test_find_my_table_and_a_players_table_page_load_offline_once_visited(
    new_page: Callable[..., Page], make_session: MakeSession
) -> None:
    game: Game = top_game(make_session(8))
    player = dealer_order(game)[0]
    session_id = game.table.sitting.session_id
    page = new_page(PHONE)  # a player's phone: no card, no account
    page.goto(f"/sessions/{session_id}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_label("Find my table").fill(player)
    page.get_by_role("button", name="Find").click()
    expect(page.locator(".found")).to_contain_text(f"{player}: table 1")
    found = page.url
    kept_soon(page, KEPT, f"/sessions/{session_id}/")
    page.goto(f"/tables/{game.table_id}/")
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()
    kept_soon(page, KEPT, f"/tables/{game.table_id}/")

    page.context.set_offline(True)
    page.reload()
    expect(
        page.get_by_text("This is the last copy of this page seen on this phone")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()
    page.goto(found)
    expect(
        page.get_by_text("This is the last copy of this page seen on this phone")
    ).to_be_visible()
    expect(page.locator(".found")).to_contain_text(f"{player}: table 1")
    assert overflow(page) is None

    # Online again: the current page, not the copy.
    page.context.set_offline(False)
    page.reload()
    expect(page.locator(".found")).to_contain_text(f"{player}: table 1")
    expect(page.get_by_text("This is the last copy")).to_have_count(0)


def test_signing_out_forgets_the_pages_kept_for_offline(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    make_session: MakeSession,
    director: Any,
) -> None:
    game: Game = top_game(make_session(8))
    page = new_page(PHONE)
    sign_in(page, director.username)
    page.goto(f"/tables/{game.table_id}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    kept_soon(page, KEPT, f"/tables/{game.table_id}/")
    page.get_by_role("button", name="Sign out").click()
    kept_soon(page, FORGOTTEN, f"/tables/{game.table_id}/")


@pytest.mark.usefixtures("catalogues")
def test_the_offline_note_is_in_the_pages_own_language(
    new_page: Callable[..., Page], make_session: MakeSession
) -> None:
    """The service worker has no catalogue: the kept page carries the note's words in its
    own language, and the date as that language writes it."""
    game: Game = top_game(make_session(8))
    club = game.table.sitting.session.club
    club.language = "es"
    club.save(update_fields=["language"])
    page = new_page(PHONE)
    page.goto(f"/tables/{game.table_id}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    kept_soon(page, KEPT, f"/tables/{game.table_id}/")

    page.context.set_offline(True)
    page.reload()
    note = page.locator(".offline-copy")
    expect(note).to_contain_text("Esta es la última copia de esta página vista en este móvil")
    expect(note).to_contain_text(re.compile(r"del \d{1,2}/\d{1,2}/\d{4}"))
    page.context.set_offline(False)
