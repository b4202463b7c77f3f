"""A whole club night in venue mode, in the browser (issue 11, "Done means").

`python -m huckley.venue` serves a fresh SQLite file on a port of its own
(tests/servers.py, `run_venue`); the director's laptop, four scorer phones (one per
table, opened from scorer links), the projector and a player's "find my table" phone are
open at once. Every round is entered on a phone and
the movement confirmed on the laptop; the projector and the player's phone must show
each change within 2 s, without a reload. The times are read in the pages themselves: a
MutationObserver stamps each new state of a table with the page's clock, which is the
test's clock (one machine).

The sitting timer's countdown is checked in the same browser: it counts down to the
server's end time, says when time is up, and is right again after the laptop "sleeps"
(the page's clock jumped forward with Playwright's clock).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.servers import run_venue
from tests.web.browser.conftest import DESKTOP, PASSWORD, PHONE
from tournaments.models import Session
from workflow.session import timer

pytestmark = [pytest.mark.browser]

#: The issue's bound: every screen shows a change within 2 s of it.
WITHIN_MS = 2_000
#: How long Playwright waits for a text before calling it missing (the bound is checked
#: on the stamps, not on this).
WAIT_MS = 6_000

SETUP = """
from django.contrib.auth import get_user_model
from workflow.session import services
from tournaments.models import Club, Season
import datetime
user = get_user_model().objects.create_user("night-director", password=%(password)r)
club = Club.objects.create(name="Hall Club", slug="hall")
club.directors.add(user)
season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 1, 1),
                               ends_on=datetime.date(2026, 12, 31))
session = services.session_create(
    club=club, season=season, name="Venue night", date=datetime.date(2026, 3, 10),
    rules_id="huckley-buck", games_per_sitting=2, new_names=%(names)r, seed=11,
    is_public=True, double_entry=False, user=user)
session.entries.update(checked_in=True)
session.sitting_minutes = 30
session.save(update_fields=["sitting_minutes"])
print("SESSION", session.pk)
"""

# Sixteen names, none inside another: four tables of four.
NAMES = [
    "Ada Birch", "Basil Crane", "Clem Dorsey", "Della Frost", "Elmer Gale", "Fenna Holm",
    "Gus Irving", "Hattie Jowett", "Ivo Kemp", "Juno Larch", "Kit Mallory", "Lottie Nash",
    "Monty Orr", "Nell Piper", "Otto Quarry", "Pru Rowan",
]  # fmt: skip

# Stamp each new state of the live part with the page's clock: a table's progress on the
# projector, the found card on the player's phone, and the heading of either.
OBSERVER = """
() => {
  window.__sameDocument = true;
  window.__seen = {};
  const stamp = () => {
    const now = Date.now();
    const live = document.getElementById("live");
    const texts = [];
    live.querySelectorAll("article, .found, .screen-head > p:first-of-type, p.muted")
      .forEach((el) => texts.push(el.innerText.replace(/\\s+/g, " ").trim()));
    for (const text of texts) { if (!(text in window.__seen)) { window.__seen[text] = now; } }
  };
  stamp();
  new MutationObserver(stamp).observe(document.getElementById("live"),
                                      {childList: true, subtree: true, characterData: true});
}
"""


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The venue server on a fresh SQLite file with a director and a 16-player session:
    (base URL, session id)."""
    with run_venue(tmp_path_factory.mktemp("venue"), WEB_CONCURRENCY="2") as served:
        # The launcher has migrated the file; the night is made beside the running server
        # (SQLite in WAL mode), which has served no page of it yet.
        made = served.manage("shell", "-c", SETUP % {"password": PASSWORD, "names": NAMES})
        session_id = int(re.search(r"SESSION (\d+)", made).group(1))  # type: ignore[union-attr]
        yield served.url, session_id


@pytest.fixture
def open_page(browser: Any, venue: tuple[str, int]) -> Iterator[Callable[[dict[str, int]], Page]]:
    contexts: list[Any] = []

    def make(viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport, base_url=venue[0])
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def now_ms() -> int:
    return int(time.time() * 1000)


class Stamps:
    """When each state was first shown on a live page, against when it was caused."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.delays: list[int] = []

    def seen(self, locator: Any, text: str, caused_at: int, where: str = "") -> None:
        """`text` shows in `locator`; the first state holding `where` and `text` (a table's
        heading and its progress, say) was stamped within the bound of `caused_at`."""
        expect(locator).to_contain_text(text, timeout=WAIT_MS)
        shown = self.page.evaluate(
            "([where, text]) => Math.min(...Object.entries(window.__seen)"
            ".filter(([k]) => k.startsWith(where) && k.includes(text)).map(([, t]) => t))",
            [where, text],
        )
        delay = int(shown) - caused_at
        assert delay <= WITHIN_MS, f"“{text}” took {delay} ms to show on {self.page.url}"
        self.delays.append(delay)


def test_a_club_night_in_venue_mode_with_every_screen_open(
    venue: tuple[str, int], open_page: Callable[[dict[str, int]], Page]
) -> None:
    base, session_id = venue
    started = time.monotonic()
    # The director's laptop: sign in, start, hand each table a scorer link.
    desk = open_page(DESKTOP)
    desk.goto("/accounts/login/")
    desk.get_by_label("Username").fill("night-director")
    desk.get_by_label("Password").fill(PASSWORD)
    desk.get_by_role("button", name="Sign in").click()
    desk.get_by_role("button", name="Sign out").wait_for()
    desk.goto(f"/director/sessions/{session_id}/")
    desk.get_by_role("button", name="Start with 16 players").click()
    expect(desk.get_by_text("Tables drawn and the first games started.")).to_be_visible()
    expect(desk.locator("#timer")).to_contain_text(re.compile(r"Time left (30:00|29:[0-5]\d)"))

    phones: list[Page] = []
    for rank in (1, 2, 3, 4):
        desk.goto(f"/director/sessions/{session_id}/")
        desk.locator(".card").filter(
            has=desk.get_by_role("link", name=f"Table {rank}", exact=True)
        ).get_by_role("link", name="scorer link").click()
        desk.get_by_role("button", name="Create a scorer link").click()
        link = desk.locator("a[href*='/score/']").inner_text()
        assert link.startswith(base)
        phone = open_page(PHONE)
        phone.goto(link)
        expect(phone.get_by_text(f"You can now enter results for table {rank}.")).to_be_visible()
        phones.append(phone)

    # The projector and a player's phone, both live.
    wall = open_page(DESKTOP)
    wall.goto(f"/sessions/{session_id}/screen/")
    expect(wall.locator(".screen-timer")).to_contain_text("Time left")
    table_one = wall.locator("article").filter(has=wall.get_by_role("heading", name="Table 1"))
    player_name = table_one.locator(".seat-list li").first.inner_text()
    player = open_page(PHONE)
    player.goto(f"/sessions/{session_id}/?name={player_name.replace(' ', '+')}")
    expect(player.locator(".found")).to_contain_text(f"{player_name}: table 1")
    for page in (wall, player):
        page.evaluate(OBSERVER)
    on_wall, on_phone = Stamps(wall), Stamps(player)

    # Two games at each table, three rounds each: the first seat takes every trick. Each
    # round is entered at the four tables in turn, then every screen is checked: the
    # stamps time each table's change from its own round.
    for game in (1, 2):
        for number in (1, 2, 3):
            entered = {}
            for rank, phone in enumerate(phones, start=1):
                expect(phone.get_by_role("heading", name=f"Enter round {number}")).to_be_visible()
                phone.get_by_label(re.compile("^Tricks taken by ")).first.fill("5")
                phone.get_by_role("button", name="Enter round").click()
                expect(phone.get_by_text(f"Round {number} entered.")).to_be_visible()
                entered[rank] = now_ms()
                if number == 3 and game == 1:
                    phone.get_by_role("link", name="Game 2", exact=True).click()
            if number < 3:
                state = f"Game {game} of 2 · round {number} · leads:"
            else:
                state = "Game 2 of 2 · no round yet" if game == 1 else "Sitting done (2 of 2 games)"
            for rank in entered:
                article = wall.locator("article").filter(
                    has=wall.get_by_role("heading", name=f"Table {rank}")
                )
                on_wall.seen(article, state, entered[rank], where=f"Table {rank} ")
            mine = state.replace("Sitting done (2 of 2 games)", "played its 2 games")
            on_phone.seen(player.locator(".found"), mine, entered[1])

    # Every table is done: the wall shows who moves; the director confirms.
    expect(wall.get_by_role("heading", name="Next sitting: who moves")).to_be_visible()
    desk.goto(f"/director/sessions/{session_id}/")
    desk.get_by_role("link", name="Preview the movement").click()
    desk.get_by_role("button", name="Confirm the movement").click()
    expect(desk.get_by_text("Players moved. Sitting 2 has started.")).to_be_visible()
    moved = now_ms()
    on_wall.seen(wall.locator(".screen-head"), "Sitting 2 · 2 games a table", moved)
    on_phone.seen(player.locator("#live"), "Sitting 2.", moved)
    expect(player.locator(".found")).to_contain_text(re.compile(rf"{player_name}: table [12],"))

    # No page was reloaded, and none scrolls sideways on its screen.
    for page in (wall, player):
        assert page.evaluate("window.__sameDocument") is True
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    delays = on_wall.delays + on_phone.delays
    print(
        json.dumps(
            {
                "changes": len(delays),
                "slowest_ms": max(delays),
                "median_ms": sorted(delays)[len(delays) // 2],
                "seconds": round(time.monotonic() - started, 1),
            }
        )
    )


@pytest.mark.django_db(transaction=True)
def test_the_projectors_timer_counts_down_says_time_is_up_and_survives_a_sleep(
    new_page: Callable[..., Page], make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    timer.sitting_timer_change(session_id=session.pk, action="start", minutes=2, user=director)
    wall = new_page(DESKTOP)
    wall.clock.install()
    wall.goto(f"/sessions/{session.pk}/screen/")
    line = wall.locator(".screen-timer")
    expect(line).to_contain_text(re.compile(r"Time left [12]:[0-5]\d"))
    # The laptop sleeps for a minute: on waking the countdown is a minute shorter.
    wall.clock.fast_forward("01:00")
    expect(line).to_contain_text(re.compile(r"Time left 0:[0-5]\d"))
    wall.clock.fast_forward("01:30")
    expect(line).to_contain_text("Time is up")
    assert "over" in (line.get_attribute("class") or "")
    # Extended by the director: the wall counts again, from the server's new end time.
    timer.sitting_timer_change(session_id=session.pk, action="extend", minutes=5, user=director)
    wall.clock.fast_forward("00:03")
    expect(line).to_contain_text(re.compile(r"Time left [2-5]:[0-5]\d"), timeout=WAIT_MS)
