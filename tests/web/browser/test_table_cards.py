"""A whole sitting at phone size through the permanent table cards (docs/tournament.md,
"Table cards"): scan the card, enter the rounds, the movement, and the same card opens
the new game. Then every page a scorer or a player sees, at 390 x 844 and 1280 x 800:
a screenshot, nothing wider than the screen, and no serious or critical axe-core
violation. Screenshots go to $HUCKLEY_SCREENSHOTS when it is set."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

from scoring.models import Game, Round
from tests.web.browser.checks import axe_problems, overflow
from tournaments.models import Player, Session, Table, TableCard
from workflow.session import movements, start_finish
from workflow.session.simulation import play_game
from workflow.tables import card_selectors
from workflow.tables import links as table_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def check_page(page: Page, shot: Callable[[Page, str], Any], name: str) -> None:
    """Screenshot at both sizes, no sideways overflow at either, and axe-core finds no
    serious or critical violation (run once: the rules do not depend on the width)."""
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        assert overflow(page) is None, f"{name} at {label}"
        shot(page, f"cards-{name}-{label}")
    page.set_viewport_size(PHONE)
    assert axe_problems(page) == [], name


def enter_round(page: Page, tricks: dict[str, int]) -> None:
    for name, count in tricks.items():
        page.get_by_label(f"Tricks taken by {name}").fill(str(count))
    page.get_by_role("button", name="Enter round").click()


def seated_first(table: Table, number: int) -> str:
    game = Game.objects.get(table=table, number=number)
    first = game.game_players.order_by("seat").first()
    assert first is not None
    return first.name


def test_a_sitting_through_the_table_cards_and_every_page_a_scorer_sees(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(8)
    card = card_selectors.table_cards(session)[0].url
    phone = new_page(PHONE)

    # Scan the card of table 1: the score sheet of its game 1, no account.
    phone.goto(card)
    expect(phone.get_by_text("You can now enter results for table 1.")).to_be_visible()
    expect(phone.get_by_role("heading", name=re.compile(r"Table 1\s+sitting 1"))).to_be_visible()
    check_page(phone, screenshots, "01-score-sheet")
    table1 = Table.objects.get(sitting__session=session, sitting__number=1, rank=1)

    # Game 1 and game 2 entered from the phone: three rounds of five tricks win each.
    for number in (1, 2):
        ace = seated_first(table1, number)
        for r in (1, 2, 3):
            expect(phone.get_by_role("heading", name=f"Enter round {r}")).to_be_visible()
            enter_round(phone, {ace: 5})
            expect(phone.get_by_text(f"Round {r} entered.")).to_be_visible()
        if number == 1:
            check_page(phone, screenshots, "02-game-won")
            phone.get_by_role("link", name="Game 2", exact=True).click()
    expect(phone.get_by_text("This table has played all its games of the sitting.")).to_be_visible()
    assert Round.objects.filter(game__table=table1).count() == 6

    # A correction's page, then back.
    phone.get_by_role("link", name="Correct round 1").click()
    expect(phone.get_by_role("heading", name=re.compile("Correct round 1"))).to_be_visible()
    check_page(phone, screenshots, "03-correction")
    phone.go_back()

    # Table 2 plays its games; the director moves everyone on.
    table2 = Table.objects.get(sitting=table1.sitting, rank=2)
    for number in (1, 2):
        play_game(Game.objects.get(table=table2, number=number), seed=20 + number)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)

    # The same card, scanned again: the new game of table 1 in sitting 2.
    phone.goto(card)
    expect(phone.get_by_role("heading", name=re.compile(r"Table 1\s+sitting 2"))).to_be_visible()
    table1_now = Table.objects.get(sitting__session=session, sitting__number=2, rank=1)
    ace = seated_first(table1_now, 1)
    enter_round(phone, {ace: 5})
    expect(phone.get_by_text("Round 1 entered.")).to_be_visible()
    assert Round.objects.filter(game__table=table1_now).count() == 1
    check_page(phone, screenshots, "04-score-sheet-sitting-2")

    # What a player sees: the session's tables, find my table, the standings.
    player = Player.objects.get(pk=Game.objects.get(table=table1_now, number=1).first_dealer_id)
    phone.goto(f"/sessions/{session.pk}/")
    check_page(phone, screenshots, "05-session-tables")
    phone.get_by_label("Find my table").fill(player.name)
    phone.get_by_role("button", name="Find").click()
    expect(phone.locator(".found")).to_contain_text(f"{player.name}: table 1")
    check_page(phone, screenshots, "06-find-my-table")
    phone.goto(f"/sessions/{session.pk}/standings/")
    check_page(phone, screenshots, "07-standings")

    # The card pages that open no table: replaced, no table now, finished, and the club
    # card that asks which session; the expired scorer link.
    table_links.table_card_replace(session_id=session.pk, number=2, user=director)
    phone.goto(f"/t/{session.table_cards.get(number=2, replaced_at__isnull=False).token}/")
    expect(phone.get_by_role("heading", name="This card was replaced")).to_be_visible()
    check_page(phone, screenshots, "08-card-replaced")
    spare = TableCard.objects.create(session=session, number=5, token="spare-five")
    phone.goto(f"/t/{spare.token}/")
    expect(phone.get_by_role("heading", name="No table 5 now")).to_be_visible()
    check_page(phone, screenshots, "09-card-no-table")
    other = make_session(8, seed=3)
    table_links.club_cards_issue(club_id=session.club_id, count=2, user=director)
    phone.goto(card_selectors.club_table_cards(session.club)[0].url)
    expect(phone.get_by_role("heading", name="Which session?")).to_be_visible()
    check_page(phone, screenshots, "10-club-card-which-session")
    phone.locator(f"a[href='?session={other.pk}']").click()
    expect(phone.get_by_role("heading", name=re.compile(r"Table 1\s+sitting 1"))).to_be_visible()
    start_finish.session_finish(session_id=session.pk, early=True, user=director)
    phone.goto(card)
    expect(phone.get_by_role("heading", name="Session finished")).to_be_visible()
    check_page(phone, screenshots, "11-card-session-finished")
    phone.goto("/score/no-such-link/")
    check_page(phone, screenshots, "12-scorer-link-expired")


def test_a_director_replaces_a_card_and_rotates_the_clubs_from_a_phone(
    new_page: Callable[..., Page],
    live_server: Any,
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(8)
    old = card_selectors.table_cards(session)[1].url
    desk = new_page(PHONE)
    sign_in(desk, director.username)
    desk.goto(f"/director/sessions/{session.pk}/")
    expect(desk.get_by_role("heading", name="Table cards")).to_be_visible()
    check_page(desk, screenshots, "20-manage-with-cards")
    desk.get_by_role("link", name="Show the cards with their QR codes").click()
    expect(desk.get_by_role("img", name="QR code of the card of table 2")).to_be_visible()
    check_page(desk, screenshots, "21-session-cards")
    # Scanned from the screen: the QR code of table 1 is its card's link.
    qr = desk.get_by_role("img", name="QR code of the card of table 1").screenshot()
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr)))
    assert [d.text for d in decoded] == [
        f"{live_server.url}{card_selectors.table_cards(session)[0].url}"
    ]
    phone = new_page(PHONE)
    phone.goto(decoded[0].text)
    expect(phone.get_by_text("You can now enter results for table 1.")).to_be_visible()
    desk.get_by_role("link", name="Replace the card of table 2…").click()
    expect(desk.get_by_role("heading", name="Replace the card of table 2?")).to_be_visible()
    desk.get_by_role("button", name="Replace card").click()
    expect(desk.get_by_text("Table 2 has a new card")).to_be_visible()
    assert card_selectors.table_cards(session)[1].url != old

    desk.get_by_role("link", name="The club's own cards").click()
    desk.get_by_label("Number of tables").fill("3")
    desk.get_by_role("button", name="Issue the club's cards…").click()
    expect(desk.get_by_text("Issue 3 cards?")).to_be_visible()
    desk.get_by_role("button", name="Issue the cards").click()
    expect(desk.get_by_text("The club has 3 new table cards")).to_be_visible()
    check_page(desk, screenshots, "22-club-cards")
    desk.get_by_role("button", name="Rotate the club's cards…").click()
    desk.get_by_role("button", name="Rotate the cards").click()
    expect(desk.get_by_text("The club has 3 new table cards")).to_be_visible()
    assert len(card_selectors.club_table_cards(session.club)) == 3
