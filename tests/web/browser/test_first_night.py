"""A new club's first night without help, end to end in the browser, as a new user:
sign up, create the club, import a roster, create and run a session of 14 with a late
arrival and a misdeal, confirm a movement, find a player by a name typed without
accents, score two rounds offline through a reload, finish, and read the ladder.

The director works on a laptop-size page; players and scorers on a 360 px phone, whose
pages are checked for sideways scrolling and serious axe-core violations. The story's
own data is made through the pages only; the tables the story does not follow play
their games through `workflow.session.simulation.play_game` (said where)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game, Round
from tests.limits import forget_limits
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import DESKTOP
from tests.web.browser.test_scorer_queue import KEPT, kept_soon
from tournaments.models import Seating, Session, Table
from workflow.session.simulation import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}
PASSWORD = "Gold-Buck-4711"
ROSTER = [
    "Rosa Díaz", "Pete O'Brien", "Alma Quill", "Bertie Marsh", "Cora Vance",
    "Dmitri Holt", "Edna Fairweather", "Floyd Pike", "Greta Lund", "Hiram Stoke",
    "Imelda Cross", "Jasper Wynn", "Kezia Brook",
]  # fmt: skip
LATE = "Mabel Thorne"
# The roster file as a club's spreadsheet saves it: name, email, external id, rating.
CSV = "name,email,external_id,rating\r\n" + "".join(
    f'"{name}",,M-{i},\r\n' for i, name in enumerate(ROSTER, start=1)
)


@pytest.fixture(autouse=True)
def _no_counts_left() -> Any:
    forget_limits()
    yield
    forget_limits()


def fits(page: Page, name: str) -> None:
    """The page, at 360 px, scrolls only downwards and has no serious axe-core problem."""
    size = page.viewport_size
    page.set_viewport_size(NARROW)
    assert overflow(page) is None, name
    assert axe_problems(page) == [], name
    if size is not None:
        page.set_viewport_size(size)


def current_game(table: Table) -> Game:
    game = Game.objects.filter(table=table).exclude(status="finished").order_by("number").first()
    assert game is not None, f"table {table.rank} has no game in play"
    return game


def first_seat(game: Game) -> str:
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    return names[0]


def enter(page: Page, tricks: dict[str, int]) -> None:
    for name, n in tricks.items():
        page.get_by_label(f"Tricks taken by {name}").fill(str(n))
    page.get_by_role("button", name="Enter round").click()


def play_out_on_the_page(page: Page, table: Table) -> None:
    """Finish the table's games through its scorer page: one player takes all five
    tricks a round until each game is won."""
    for _ in range(12):
        # The database says when the table is done; the page may not have re-rendered yet,
        # so it is asked only after the loop, with expect's wait.
        if not Game.objects.filter(table=table).exclude(status="finished").exists():
            break
        game = current_game(table)
        before = Round.objects.filter(game__table=table).count()
        enter(page, {first_seat(game): 5})
        expect(page.get_by_role("alert")).to_have_count(0)
        for _ in range(50):
            if Round.objects.filter(game__table=table).count() > before:
                break
            page.wait_for_timeout(100)
    expect(page.get_by_text("This table has played all its games of the sitting.")).to_be_visible()


def card_url(desk: Page, rank: int) -> str:
    row = desk.locator("#cards ~ table tr, #cards ~ div table tr").filter(
        has=desk.get_by_role("link", name=f"Replace the card of table {rank}")
    )
    return str(row.locator("a[href*='/t/']").first.get_attribute("href"))


def test_a_new_clubs_first_night_end_to_end(
    new_page: Callable[..., Page], screenshots: Callable[[Page, str], Any]
) -> None:
    # Sign up and create the club, on a laptop.
    desk = new_page(DESKTOP)
    desk.goto("/")
    desk.get_by_role("link", name="Sign up").first.click()
    expect(desk.get_by_label("Username")).to_be_visible()
    fits(desk, "sign-up")
    desk.get_by_label("Username").fill("nell")
    desk.get_by_label("Email").fill("nell@example.org")
    desk.get_by_label("Password", exact=True).fill(PASSWORD)
    desk.get_by_label("Password again").fill(PASSWORD)
    desk.get_by_role("button", name="Sign up").click()
    expect(desk.get_by_role("heading", name="Create your club")).to_be_visible()
    desk.get_by_label("Club name").fill("Thursday Bucks")
    desk.get_by_label("Time zone").fill("Europe/Dublin")
    desk.get_by_role("button", name="Create the club").click()
    expect(desk.get_by_role("heading", name="Run Thursday Bucks")).to_be_visible()
    fits(desk, "club-home")

    # Import the roster: preview, then confirm.
    desk.get_by_role("link", name="Import your roster").click()
    expect(desk.get_by_role("heading", name="Import a roster")).to_be_visible()
    desk.get_by_label("Roster file (CSV)").set_input_files(
        {"name": "roster.csv", "mimeType": "text/csv", "buffer": CSV.encode()}
    )
    desk.get_by_role("button", name="Preview").click()
    expect(desk.get_by_text("13 to add · 0 matched · 0 refused.")).to_be_visible()
    desk.get_by_role("button", name="Confirm the import").click()
    expect(desk.get_by_text("Roster imported: 13 players added")).to_be_visible()

    # Create the session of the 13: Huckley Buck, two games a sitting.
    desk.goto("/director/clubs/thursday-bucks/")
    desk.get_by_role("link", name="Create a session").first.click()
    desk.get_by_label("Name").fill("First night")
    desk.get_by_label("Date").fill("2026-11-25")
    desk.get_by_label("Rules").select_option(label="Huckley Buck (IHBA)")
    desk.get_by_label("Games per sitting").select_option("2")
    for name in ROSTER:
        desk.get_by_label(name, exact=True).check()
    desk.get_by_role("button", name="Create session").click()
    expect(desk).to_have_url(re.compile(r"/director/sessions/\d+/$"))
    session = Session.objects.get(name="First night")
    assert (session.rules_id, session.games_per_sitting) == ("huckley-buck", 2)
    expect(desk.get_by_role("heading", name="Check-in (0 of 13)")).to_be_visible()

    # Check them in at the door; a late arrival makes 14.
    desk.get_by_role("button", name="Check everyone in").click()
    expect(desk.get_by_text("Everyone on the roster is checked in.")).to_be_visible()
    desk.get_by_label("New players (one per line)").fill(LATE)
    desk.get_by_role("button", name="Add to roster").click()
    desk.get_by_role("button", name=f"Check in {LATE}", exact=True).click()
    expect(desk.get_by_role("heading", name="Check-in (14 of 14)")).to_be_visible()
    fits(desk, "check-in")
    desk.get_by_role("button", name="Start with 14 players").click()
    expect(desk.get_by_text("Tables drawn and the first games started.")).to_be_visible()
    screenshots(desk, "first-night-01-started")
    tables = list(Table.objects.filter(sitting__session=session, sitting__number=1))
    sizes = sorted(Seating.objects.filter(table=t).count() for t in tables)
    assert sum(sizes) == 14, sizes

    # Table 1's scorer scans its card: a misdeal with tricks is refused, then a misdeal.
    table1 = next(t for t in tables if t.rank == 1)
    phone = new_page(NARROW)
    phone.goto(card_url(desk, 1))
    expect(phone.get_by_role("heading", name="Enter round 1")).to_be_visible()
    fits(phone, "scorer")
    game = current_game(table1)
    phone.get_by_label("Misdeal").check()
    enter(phone, {first_seat(game): 5})
    expect(
        phone.get_by_text("The round is marked as a misdeal, so no tricks were played")
    ).to_be_visible()
    fits(phone, "misdeal-refused")
    assert not Round.objects.filter(game=game).exists()
    phone.get_by_label(f"Tricks taken by {first_seat(game)}").fill("")
    phone.get_by_role("button", name="Enter round").click()
    expect(phone.get_by_text("Round 1 entered.")).to_be_visible()
    assert Round.objects.get(game=game).data.get("misdeal")

    # The sitting played to its end: table 1 on its page; the others (not followed by
    # the story) through workflow.session.simulation.play_game.
    play_out_on_the_page(phone, table1)
    for other in tables:
        if other.rank != 1:
            for number in (1, 2):
                play_game(Game.objects.get(table=other, number=number), seed=number)

    # The director confirms the movement.
    desk.goto(f"/director/sessions/{session.pk}/")
    desk.get_by_role("link", name="Preview the movement").click()
    expect(desk.get_by_role("heading", name="Movement after sitting 1")).to_be_visible()
    desk.get_by_role("button", name=re.compile("Confirm the movement")).click()
    expect(desk.get_by_text("Players moved. Sitting 2 has started.")).to_be_visible()

    # A player's phone finds "rosa diaz", typed without the accent.
    rosa = Seating.objects.get(
        sitting__session=session, sitting__number=2, player__name="Rosa Díaz"
    )
    finder = new_page(NARROW)
    finder.goto(f"/sessions/{session.pk}/")
    finder.get_by_label("Find my table").fill("rosa diaz")
    finder.get_by_role("button", name="Find").click()
    expect(finder.locator(".found")).to_contain_text(
        f"Rosa Díaz: table {rosa.table.rank}, seat {rosa.seat}"
    )
    for mate in Seating.objects.filter(table=rosa.table).exclude(pk=rosa.pk):
        expect(finder.locator(".found")).to_contain_text(f"{mate.player.name} (seat {mate.seat})")
    fits(finder, "find-my-table")
    screenshots(finder, "first-night-02-rosa-found")

    # Her table's scorer goes offline, enters two rounds, reloads, comes back online.
    table = rosa.table
    desk.goto(f"/director/sessions/{session.pk}/")
    scorer = new_page(NARROW)
    scorer.goto(card_url(desk, table.rank))
    expect(scorer.get_by_role("heading", name="Enter round 1")).to_be_visible()
    scorer.evaluate("navigator.serviceWorker.ready.then(() => true)")
    scorer.reload()
    expect(scorer.get_by_role("heading", name="Enter round 1")).to_be_visible()
    assert scorer.evaluate("!!navigator.serviceWorker.controller")
    kept_soon(scorer, KEPT, f"/tables/{table.pk}/")
    game = current_game(table)
    ace = first_seat(game)
    scorer.context.set_offline(True)
    enter(scorer, {ace: 5})
    expect(scorer.get_by_role("heading", name="Enter round 2")).to_be_visible()
    enter(scorer, {ace: 5})
    expect(scorer.get_by_role("heading", name="Enter round 3")).to_be_visible()
    expect(scorer.locator("#queue li")).to_have_count(2)
    scorer.reload()
    expect(
        scorer.get_by_text("This is the last copy of this page seen on this phone")
    ).to_be_visible()
    expect(scorer.locator("#queue li")).to_have_count(2)
    fits(scorer, "offline-queue")
    screenshots(scorer, "first-night-03-offline")
    assert not Round.objects.filter(game=game).exists()
    scorer.context.set_offline(False)
    scorer.evaluate("window.dispatchEvent(new Event('online'))")
    expect(scorer.locator("#queue li.sent")).to_have_count(2, timeout=15_000)
    assert [t.strip() for t in scorer.locator("#queue li").all_inner_texts()] == [
        "Round 1: sent.",
        "Round 2: sent.",
    ]
    assert Round.objects.filter(game=game).count() == 2

    # Play to the end and finish the session.
    scorer.reload()
    play_out_on_the_page(scorer, table)
    for other in Table.objects.filter(sitting=table.sitting).exclude(pk=table.pk):
        for number in (1, 2):
            play_game(Game.objects.get(table=other, number=number), seed=number)
    desk.goto(f"/director/sessions/{session.pk}/")
    desk.get_by_role("link", name="Finish the session…").click()
    desk.get_by_role("button", name="Finish session").click()
    expect(
        desk.get_by_text("Session finished; its standings count for the season.")
    ).to_be_visible()

    # The season ladder on the club's page, on a phone.
    reader = new_page(NARROW)
    reader.goto("/clubs/thursday-bucks/")
    expect(reader.get_by_role("heading", name=re.compile("Season standings"))).to_be_visible()
    for name in [*ROSTER, LATE]:
        expect(reader.get_by_role("link", name=name, exact=True)).to_be_visible()
    fits(reader, "ladder")
    screenshots(reader, "first-night-04-ladder")
