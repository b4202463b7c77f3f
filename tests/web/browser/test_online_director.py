"""The director's side of online play in a real browser: the seats page on a 360 px
phone, the projector showing an online table's trick as the cards are played, and a
finished round replayed card by card on its game's page."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Page, expect
from rest_framework.test import APIClient

from play import selectors
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import play_table, settle
from tests.play.rounds import store_online_round
from tests.play.test_sessions import robots_play_out, seat_robots
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Session, Sitting, Table
from web.templatetags.card_faces import card, card_name, suit_words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def online_session(make_session: Callable[..., Session]) -> Callable[..., Session]:
    """A started session whose every table plays online."""

    def make(players: int) -> Session:
        session = make_session(players)
        Session.objects.filter(pk=session.pk).update(online=True)
        Table.objects.filter(sitting__session=session).update(online=True)
        settle(session.pk)  # the tables switched online are dealt, as a switch's commit would
        session.refresh_from_db()
        return session

    return make


WITHIN_MS = 4_000


def test_the_seats_page_fits_a_360_px_phone(
    new_page: Callable[..., Page],
    online_session: Callable[..., Session],
    director: Any,
    sign_in: Callable[[Any, str], None],
    screenshots: Callable[[Page, str], Any],
) -> None:
    session = online_session(8)
    phone = new_page(SMALL_PHONE)
    sign_in(phone, director.username)
    phone.goto(f"/director/sessions/{session.pk}/")
    phone.get_by_role("link", name="The seats online: links, QR codes, email").click()
    expect(phone.get_by_role("heading", name="Seats online")).to_be_visible()
    expect(phone.get_by_role("img", name="QR code of the seat link of")).to_have_count(8)
    expect(phone.get_by_role("button", name="Email the links")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "seats-360px")


def test_the_projector_shows_the_trick_of_an_online_table_as_it_is_played(
    new_page: Callable[..., Page],
    online_session: Callable[..., Session],
    director: Any,
    screenshots: Callable[[Page, str], Any],
) -> None:
    session = online_session(4)
    table = Table.objects.get(sitting__session=session)
    tokens = tokens_of(session, director)
    phones = APIClient()
    rng = random.Random(5)

    def cards_on_table() -> int:
        return len(selectors.watch_view(table.pk)["trick"])

    play_table(phones, tokens, rng=rng, until=lambda: cards_on_table() >= 1)
    wall = new_page(PROJECTOR)
    wall.goto(f"/sessions/{session.pk}/screen/")
    article = wall.locator("article", has=wall.get_by_role("heading", name="Table 1"))
    first = selectors.watch_view(table.pk)["trick"][0]
    expect(article).to_contain_text(f"on the table: {first['player']}", timeout=WITHIN_MS)
    expect(article).to_contain_text("to play")
    # The card as a face, named in words: never the record's code.
    face = article.get_by_role("img", name=card_name(first["card"]))
    expect(face).to_have_text(card(first["card"])[0])
    assert first["card"] not in article.inner_text().split()
    # One card more, and the wall shows it without a reload.
    wall.evaluate("window.__sameDocument = true")
    play_table(phones, tokens, rng=rng, until=lambda: cards_on_table() != 1)
    second = selectors.watch_view(table.pk)["trick"]
    if second:
        expect(article).to_contain_text(second[-1]["player"], timeout=WITHIN_MS)
    assert wall.evaluate("window.__sameDocument") is True
    # The wall never shows a hand: the watcher's view has none.
    assert selectors.watch_view(table.pk)["hand"] is None
    screenshots(wall, "projector-online-trick")


def test_a_finished_round_replays_card_by_card(
    new_page: Callable[..., Page],
    online_session: Callable[..., Session],
    screenshots: Callable[[Page, str], Any],
) -> None:
    session = online_session(4)
    game = Game.objects.get(table__sitting__session=session, number=1)
    data = store_online_round(game, seed=6)
    cards = [c for trick in data["play"]["tricks"] for c in trick]
    page = new_page(PHONE)
    page.goto(f"/tables/{game.table_id}/?game=1")
    page.get_by_text("Replay round 1 card by card").click()
    status = page.locator("#replay-1 .replay-status")
    expect(status).to_contain_text("the hands as play began")
    expect(page.get_by_role("button", name="Previous card")).to_be_disabled()
    page.get_by_role("button", name="Next card").click()
    expect(status).to_contain_text(f"Card 1 of {len(cards)}, trick 1")
    page.get_by_role("button", name="Next card").click()
    expect(status).to_contain_text(f"Card 2 of {len(cards)}")
    page.get_by_role("button", name="Previous card").click()
    expect(status).to_contain_text(f"Card 1 of {len(cards)}")
    page.get_by_role("button", name="Last").click()
    expect(status).to_contain_text(f"Card {len(cards)} of {len(cards)}")
    expect(status).to_contain_text("takes the trick")
    expect(page.get_by_role("button", name="Next card")).to_be_disabled()
    # Every hand is empty at the end; the tricks add up to the round's.
    rows = page.locator("#replay-1 .replay-table tbody tr")
    expect(rows).to_have_count(4)
    total = sum(int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(4))
    assert total == len(data["play"]["tricks"])
    assert overflow(page) is None
    assert axe_problems(page) == []
    screenshots(page, "replay-last-card")


def test_a_director_watches_a_table_on_a_360_px_phone(
    new_page: Callable[..., Page],
    online_session: Callable[..., Session],
    director: Any,
    sign_in: Callable[[Any, str], None],
) -> None:
    session = online_session(4)
    table = Table.objects.get(sitting__session=session)
    tokens = tokens_of(session, director)
    phone = new_page(SMALL_PHONE)
    sign_in(phone, director.username)
    phone.goto(f"/director/sessions/{session.pk}/")
    expect(phone.get_by_role("heading", name="Online play")).to_be_visible()
    phone.get_by_role("link", name="Watch").click()
    expect(phone.get_by_role("heading", name="Table 1, watched")).to_be_visible()
    rng = random.Random(3)
    play_table(
        APIClient(),
        tokens,
        rng=rng,
        until=lambda: len(selectors.watch_view(table.pk)["trick"]) >= 2,
    )
    played = selectors.watch_view(table.pk)["trick"][1]
    trick = phone.locator("#watch-trick")
    # Faces and words, never "Upcard 2S. Trump S.".
    face = card(played["card"])[0]
    expect(trick).to_contain_text(f"{played['player']}: {face}", timeout=WITHIN_MS)
    expect(trick.get_by_role("img", name=card_name(played["card"]))).to_be_visible()
    view = selectors.watch_view(table.pk)
    facts = phone.locator("#watch-facts")
    expect(facts).to_contain_text(f"Trump: {suit_words(view['trump'])}.")
    if view["upcard"]:
        expect(facts.get_by_role("img", name=card_name(view["upcard"]))).to_be_visible()
    assert f"Trump {view['trump']}." not in facts.inner_text()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    # On the projector of the hall too, once the first trick is taken: who took it.
    play_table(
        APIClient(),
        tokens,
        rng=rng,
        until=lambda: selectors.watch_view(table.pk)["last_trick"] is not None,
    )
    wall = new_page(PROJECTOR)
    sign_in(wall, director.username)
    with wall.expect_websocket() as opened:
        wall.goto(f"/director/tables/{table.pk}/watch/")
    # The socket names the table as the seat pages' do: a proxy sends them to one server.
    key = f"{table.sitting.session_id}.{table.sitting.number}.{table.rank}"
    assert opened.value.url.endswith(f"/ws/watch/{table.pk}/?table={key}")
    last = selectors.watch_view(table.pk)["last_trick"]
    expect(wall.locator("#watch-last")).to_contain_text(f"{last['winner']} took it.")
    expect(wall.locator("#watch-last").get_by_role("img")).to_have_count(len(last["cards"]))
    assert overflow(wall) is None
    assert axe_problems(wall) == []


def test_a_duplicate_sitting_compares_its_deals_on_a_360_px_phone(
    new_page: Callable[..., Page],
    online_session: Callable[..., Session],
    director: Any,
    sign_in: Callable[[Any, str], None],
    screenshots: Callable[[Page, str], Any],
) -> None:
    """The director switches duplicate deals on for the next sitting; a duplicate sitting
    played out by robots at two tables is compared deal by deal on a phone."""
    session = online_session(8)
    phone = new_page(SMALL_PHONE)
    sign_in(phone, director.username)
    phone.goto(f"/director/sessions/{session.pk}/")
    box = phone.get_by_label("Duplicate deals", exact=False)
    expect(box).not_to_be_checked()
    box.check()
    phone.get_by_role("button", name="Save the online settings").click()
    expect(phone.get_by_text("Online settings saved.")).to_be_visible()
    expect(phone.get_by_label("Duplicate deals", exact=False)).to_be_checked()
    session.refresh_from_db()
    assert session.duplicate

    # This sitting keeps its deals: for the page, it is made a duplicate one here.
    Sitting.objects.filter(session=session).update(duplicate=True, deal_key=secrets.token_hex(32))
    tables = list(Table.objects.filter(sitting__session=session).order_by("rank"))
    seat_robots(tables)

    def play_out() -> None:
        # Away from Playwright's event loop, where the push after each move runs as in a
        # server's worker thread.
        try:
            for table in tables:
                robots_play_out(table)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(play_out).result()
    phone.goto(f"/sessions/{session.pk}/sittings/1/duplicate/")
    expect(phone.get_by_role("heading", name="Duplicate deals: sitting 1")).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    phone.get_by_role("link", name="Round 1", exact=True).first.click()
    heading = phone.get_by_role("heading", name="Game 1, round 1 tables of 4", exact=True)
    expect(heading).to_be_visible()
    first = phone.locator("#deal-4-1-1")
    expect(first.get_by_role("row")).to_have_count(3)  # the header and two tables
    expect(first.get_by_text("Dealer's left", exact=False).first).to_be_visible()
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "duplicate-360px")
