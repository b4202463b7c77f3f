"""Running the club in the browser, on a phone-wide page, without /admin/: open a season,
add and rename a player, merge two records of one person, invite a director and cancel a
session that has not started."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PlayerFactory, SessionFactory, UserFactory
from tests.web.browser.conftest import PHONE
from tournaments.models import Player, Season, Session, SessionPlayer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


def test_a_director_runs_the_club_from_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    director: Any,
    club: Any,
    season: Any,
) -> None:
    duplicate = PlayerFactory(club=club, name="Bobby Smith")
    night = SessionFactory(club=club, season=season, name="Rained off")
    SessionPlayer.objects.create(session=night, player=duplicate)
    UserFactory(username="helen", email="helen@example.org")
    page = new_page(PHONE)
    sign_in(page, director.username)

    # From the club's page to running it.
    page.goto(f"/clubs/{club.slug}/")
    page.get_by_role("link", name="Run the club").click()
    expect(page.get_by_role("heading", name=f"Run {club.name}")).to_be_visible()
    no_sideways_scroll(page)

    # A season.
    page.get_by_role("link", name=re.compile(r"^Seasons")).click()
    page.get_by_label("Name").fill("2027")
    page.get_by_label("Starts on").fill("2027-01-01")
    page.get_by_label("Ends on").fill("2027-12-31")
    page.get_by_role("button", name="Open season").click()
    expect(page.get_by_text("Season 2027 opened.")).to_be_visible()
    assert Season.objects.filter(club=club, name="2027", closed_at__isnull=True).exists()
    no_sideways_scroll(page)
    screenshots(page, "club-seasons")

    # A player, added then renamed.
    page.goto(f"/director/clubs/{club.slug}/players/")
    page.get_by_label("Name").fill("Bob Smyth")
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text("Bob Smyth added.")).to_be_visible()
    page.get_by_label("New name").fill("Bob Smith")
    page.get_by_role("button", name="Rename").click()
    expect(page.get_by_text("Bob Smyth is now called Bob Smith.")).to_be_visible()
    bob = Player.objects.get(club=club, name="Bob Smith")

    # The same person entered twice: merged after a confirmation.
    page.get_by_label("Name of the other record").fill("Bobby Smith")
    page.get_by_role("button", name="Merge into Bob Smith…").click()
    expect(
        page.get_by_role("heading", name="Merge “Bobby Smith” into “Bob Smith”?")
    ).to_be_visible()
    no_sideways_scroll(page)
    page.get_by_role("button", name="Merge", exact=True).click()
    expect(page.get_by_text("The two records are one: Bob Smith.")).to_be_visible()
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert SessionPlayer.objects.filter(session=night, player=bob).exists()

    # Another director.
    page.goto(f"/director/clubs/{club.slug}/directors/")
    page.get_by_label("Username or email").fill("helen@example.org")
    page.get_by_role("button", name="Invite").click()
    expect(page.get_by_text(f"helen now directs {club.name}.")).to_be_visible()
    assert club.directors.filter(username="helen").exists()
    no_sideways_scroll(page)

    # A session that will not be played.
    page.goto(f"/director/clubs/{club.slug}/sessions/")
    page.get_by_role("link", name="Cancel Rained off").click()
    page.get_by_role("button", name="Cancel session").click()
    expect(page.get_by_text("“Rained off” is cancelled.")).to_be_visible()
    night.refresh_from_db()
    assert night.status == Session.Status.CANCELLED
    no_sideways_scroll(page)
    screenshots(page, "club-sessions")
