"""A club night in the browser: the director's, the scorer's and a player's pages, end
to end, against a live server and Debian's Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Round
from tests.web.browser.conftest import DESKTOP, PHONE
from tournaments.models import Placing, Seating, Session, Sitting, Table
from workflow.session.simulation import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Thirteen names, none contained in another, so that "find my table" finds exactly one.
NAMES = [
    "Alma Quill", "Bertie Marsh", "Cora Vance", "Dmitri Holt", "Edna Fairweather",
    "Floyd Pike", "Greta Lund", "Hiram Stoke", "Imelda Cross", "Jasper Wynn",
    "Kezia Brook", "Lionel Dart", "Mabel Thorne",
]  # fmt: skip


def total_row(page: Page) -> list[str]:
    """The score sheet's Total row: "Total", then one score a player."""
    return page.get_by_role("row").filter(has_text="Total").locator("th").all_inner_texts()


def enter_round(page: Page, tricks: dict[str, int]) -> None:
    for name, count in tricks.items():
        page.get_by_label(f"Tricks taken by {name}").fill(str(count))
    page.get_by_role("button", name="Enter round").click()


def test_a_club_night_from_the_new_session_to_the_second_sitting(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    director: Any,
    club: Any,
    season: Any,
) -> None:
    """A director creates a 13-player session, a scorer enters a game with a refused
    round and its correction, the director moves players, and a player finds the new
    table."""
    # The director creates the session and starts it: 13 players make tables of 5, 4, 4.
    desk = new_page(DESKTOP)
    sign_in(desk, director.username)
    desk.goto(f"/director/clubs/{club.slug}/sessions/new/")
    desk.get_by_label("Name").fill("Tuesday night")
    desk.get_by_label("Date").fill("2026-03-10")
    expect(desk.get_by_label("Season")).to_have_value(str(season.pk))
    desk.get_by_label("Seed").fill("7")
    desk.get_by_label("New players").fill("\n".join(NAMES))
    desk.get_by_role("button", name="Create session").click()
    expect(desk).to_have_url(re.compile(r"/director/sessions/\d+/$"))
    session = Session.objects.get(name="Tuesday night")
    expect(desk.get_by_role("heading", name="Check-in (0 of 13)")).to_be_visible()
    desk.get_by_role("button", name="Check everyone in").click()
    expect(desk.get_by_text("Everyone on the roster is checked in.")).to_be_visible()
    desk.get_by_role("button", name="Start with 13 players").click()
    expect(desk.get_by_text("Tables drawn and the first games started.")).to_be_visible()
    sizes = []
    for rank in (1, 2, 3):
        card = desk.locator(".card").filter(
            has=desk.get_by_role("link", name=f"Table {rank}", exact=True)
        )
        seated = card.locator("p").first.inner_text().split(", ")
        assert set(seated) <= set(NAMES)
        sizes.append(len(seated))
    assert sorted(sizes) == [4, 4, 5]
    expect(desk.get_by_role("link", name="Table 4", exact=True)).to_have_count(0)
    screenshots(desk, "01-director-sitting-1")

    # The director hands table 1 a scorer link; the scorer opens it on a phone, with no
    # account.
    desk.locator(".card").filter(
        has=desk.get_by_role("link", name="Table 1", exact=True)
    ).get_by_role("link", name="scorer link").click()
    desk.get_by_role("button", name="Create a scorer link").click()
    expect(desk.get_by_role("img", name="QR code of the scorer link")).to_be_visible()
    link_url = desk.locator("a[href*='/score/']").inner_text()
    phone = new_page(PHONE)
    phone.goto(link_url)
    expect(phone.get_by_text("You can now enter results for table 1.")).to_be_visible()
    expect(phone.get_by_role("heading", name="Game 1")).to_be_visible()
    table = Table.objects.get(sitting__session=session, sitting__number=1, rank=1)
    game1 = Game.objects.get(table=table, number=1)
    players = list(game1.game_players.order_by("seat").values_list("name", flat=True))
    ace, second = players[0], players[1]

    # Six tricks in a round of five: refused with the engine's reason, the numbers kept,
    # nothing stored.
    with phone.expect_response(lambda r: r.request.method == "POST") as refused:
        enter_round(phone, {ace: 3, second: 3})
    assert refused.value.status == 400
    expect(phone.get_by_role("alert")).to_contain_text("The tricks add up to 6")
    expect(phone.get_by_label(f"Tricks taken by {ace}")).to_have_value("3")
    expect(phone.get_by_label(f"Tricks taken by {second}")).to_have_value("3")
    expect(phone.get_by_text("No round entered yet.")).to_be_visible()
    screenshots(phone, "02-scorer-refused-round")
    assert not Round.objects.filter(game=game1).exists()

    # Two good rounds, then round 2 corrected from 5 tricks for one player to 3 + 2.
    phone.get_by_label(f"Tricks taken by {second}").fill("")
    enter_round(phone, {ace: 5})
    expect(phone.get_by_text("Round 1 entered.")).to_be_visible()
    enter_round(phone, {ace: 5})
    expect(phone.get_by_text("Round 2 entered.")).to_be_visible()
    assert total_row(phone)[1:] == ["10", "0", "0", "0", "0"][: len(players)]
    phone.get_by_role("link", name="Correct round 2").click()
    expect(phone).to_have_url(re.compile(rf"/games/{game1.pk}/rounds/2/edit/$"))
    expect(phone.get_by_role("heading", name="Correct round 2 of game 1")).to_be_visible()
    expect(phone.get_by_label(f"Tricks taken by {ace}")).to_have_value("5")
    phone.get_by_label(f"Tricks taken by {ace}").fill("3")
    phone.get_by_label(f"Tricks taken by {second}").fill("2")
    screenshots(phone, "03-scorer-correction")
    phone.get_by_role("button", name="Save the correction").click()
    expect(phone.get_by_text("Round 2 corrected.")).to_be_visible()
    assert total_row(phone)[1:] == ["8", "2", "0", "0", "0"][: len(players)]
    assert Round.objects.get(game=game1, number=2).data["tricks"][ace] == 3

    # Round 3 takes the ace to 13: game 1 is won and game 2 opens for entry.
    enter_round(phone, {ace: 5})
    expect(phone.get_by_text("Round 3 entered.")).to_be_visible()
    expect(
        phone.get_by_text(f"Game 1 is won by {ace}. Game 2 starts with {ace} dealing.")
    ).to_be_visible()
    screenshots(phone, "04-scorer-after-the-winning-round")
    phone.get_by_role("link", name="Game 1", exact=True).click()
    expect(phone.get_by_role("heading", name=f"Game 1: won by {ace}")).to_be_visible()
    screenshots(phone, "05-scorer-game-1-won")
    phone.get_by_role("link", name="Game 2", exact=True).click()
    for number in (1, 2, 3):
        expect(phone.get_by_role("heading", name=f"Enter round {number}")).to_be_visible()
        enter_round(phone, {ace: 5})
        expect(phone.get_by_text(f"Round {number} entered.")).to_be_visible()
    expect(phone.get_by_text("This table has played all its games of the sitting.")).to_be_visible()
    assert list(Game.objects.filter(table=table).values_list("status", flat=True)) == [
        "finished",
        "finished",
    ]

    # The other tables play their games through the services.
    for other in Table.objects.filter(sitting=table.sitting).exclude(pk=table.pk):
        for number in (1, 2):
            play_game(Game.objects.get(table=other, number=number), seed=other.rank * 10 + number)

    # The director previews the movement, with every placing's reason, and confirms it.
    desk.goto(f"/director/sessions/{session.pk}/")
    desk.get_by_role("link", name="Preview the movement").click()
    expect(desk.get_by_role("heading", name="Movement after sitting 1")).to_be_visible()
    for rank in (1, 2, 3):
        expect(desk.get_by_role("heading", name=f"Table {rank}", exact=True)).to_be_visible()
    placings = desk.get_by_role("listitem")
    expect(placings.filter(has_text=re.compile(r"· 1st"))).to_have_count(3)
    expect(placings.filter(has_text=re.compile("ahead of|level with")).first).to_be_visible()
    expect(placings.filter(has_text=re.compile("coin flip")).first).to_be_visible()
    screenshots(desk, "06-director-movement-preview")
    # On the director's phone: one card per table, nothing to scroll sideways.
    desk.set_viewport_size(PHONE)
    assert desk.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshots(desk, "06-director-movement-preview-phone")
    desk.set_viewport_size(DESKTOP)
    desk.get_by_role("button", name="Confirm the movement").click()
    expect(desk.get_by_text("Players moved. Sitting 2 has started.")).to_be_visible()
    expect(desk.get_by_role("heading", name="Sitting 2")).to_be_visible()

    # A player who went down from the top table looks up the new table on a phone.
    sitting1 = Sitting.objects.get(session=session, number=1)
    mover = Placing.objects.filter(sitting=sitting1, table__rank=1, direction="down").first()
    assert mover is not None
    new_seat = Seating.objects.get(sitting__session=session, sitting__number=2, player=mover.player)
    assert new_seat.table.rank == mover.to_rank == 2
    player = new_page(PHONE)
    player.goto(f"/sessions/{session.pk}/")
    player.get_by_label("Find my table").fill(mover.player.name)
    player.get_by_role("button", name="Find").click()
    found = player.locator(".found")
    expect(found).to_contain_text(
        f"{mover.player.name}: table {new_seat.table.rank}, seat {new_seat.seat}"
    )
    companions = Seating.objects.filter(table=new_seat.table).exclude(pk=new_seat.pk)
    for seating in companions:
        expect(found).to_contain_text(f"{seating.player.name} (seat {seating.seat})")
    expect(player.get_by_role("button", name="Sign out")).to_have_count(0)
    screenshots(player, "07-player-finds-table")


def test_strangers_see_a_clear_miss_and_no_entry_form(
    page: Page,
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8)
    page.goto(f"/sessions/{session.pk}/")
    page.get_by_label("Find my table").fill("Zebedee")
    page.get_by_role("button", name="Find").click()
    expect(page.get_by_text("Nobody named “Zebedee” is seated in this session.")).to_be_visible()
    screenshots(page, "08-nobody-named")

    table = Table.objects.get(sitting__session=session, sitting__number=1, rank=1)
    page.goto(f"/tables/{table.pk}/")
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Enter round"))).to_have_count(0)
    expect(page.get_by_role("button", name="Enter round")).to_have_count(0)
    expect(page.get_by_role("spinbutton")).to_have_count(0)
    page.get_by_role("main").get_by_role("link", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/accounts/login/\?next=/tables/{table.pk}/$"))
    screenshots(page, "09-sign-in-from-sheet")
