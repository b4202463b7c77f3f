"""A new club's first night without help, on a 360 px phone: sign up, create the club,
land on its page with the next steps, change the password, and sign in with the new one.
Then a player claiming their record from the director's link, and a club file imported.
Every page fits the screen and has no serious or critical axe-core violation; none needs
JavaScript to work."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from exchange.clubfile import club_export
from tests.factories import PlayerFactory
from tests.limits import forget_limits
from tests.web.browser.checks import axe_problems, overflow
from tournaments.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}
FIRST = "Gold-Buck-4711"
SECOND = "Hooks-And-Tricks-88"


@pytest.fixture(autouse=True)
def _no_counts_left() -> Iterator[None]:
    forget_limits()
    yield
    forget_limits()


def fits_and_passes_axe(page: Page, shot: Callable[[Page, str], Any], name: str) -> None:
    assert overflow(page) is None, name
    shot(page, f"starting-a-club-{name}")
    assert axe_problems(page) == [], name


def test_a_new_director_signs_up_creates_the_club_and_changes_the_password_on_a_phone(
    new_page: Callable[..., Page], screenshots: Callable[[Page, str], Any]
) -> None:
    page = new_page(NARROW)
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "sign-up")
    page.get_by_label("Username").fill("nell")
    page.get_by_label("Email").fill("nell@example.org")
    page.get_by_label("Password", exact=True).fill(FIRST)
    page.get_by_label("Password again").fill(FIRST)
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_role("heading", name="Create your club")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "create-your-club")
    page.get_by_label("Club name").fill("Thursday Bucks")
    page.get_by_label("Time zone").fill("Europe/Dublin")
    page.get_by_role("button", name="Create the club").click()

    expect(page.get_by_role("heading", name="Run Thursday Bucks")).to_be_visible()
    expect(page.get_by_role("heading", name="Next steps")).to_be_visible()
    expect(page.get_by_role("link", name="Create a session")).to_be_visible()
    expect(page.get_by_role("link", name="Import your roster")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "club-page")
    club = Club.objects.get(slug="thursday-bucks")
    assert list(club.directors.values_list("username", flat=True)) == ["nell"]

    page.get_by_role("link", name="Password").click()
    expect(page.get_by_role("heading", name="Change your password")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "change-password")
    page.get_by_label("Current password").fill(FIRST)
    page.get_by_label("New password", exact=True).fill(SECOND)
    page.get_by_label("New password again").fill(SECOND)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "password-changed")
    assert get_user_model().objects.get(username="nell").check_password(SECOND)

    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("link", name="Sign in").click()
    expect(page.get_by_role("link", name="Forgot your password?")).to_be_visible()
    page.get_by_label("Username").fill("nell")
    page.get_by_label("Password").fill(SECOND)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("link", name="Run the club")).to_be_visible()


def test_a_player_claims_their_record_from_the_directors_link_on_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    club: Club,
    director: Any,
) -> None:
    theo = PlayerFactory(club=club, name="Theo Marsh")
    desk = new_page(NARROW)
    sign_in(desk, director.username)
    desk.goto(f"/director/clubs/{club.slug}/players/{theo.pk}/")
    desk.get_by_role("button", name="Invite Theo Marsh to claim this record").click()
    expect(desk.get_by_role("img", name="QR code of the invitation link")).to_be_visible()
    fits_and_passes_axe(desk, screenshots, "invite")
    link = desk.get_by_label("The link, to copy").input_value()

    phone = new_page(NARROW)
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Are you Theo Marsh?")).to_be_visible()
    fits_and_passes_axe(phone, screenshots, "claim-signed-out")
    phone.get_by_role("link", name="Sign up").last.click()
    phone.get_by_label("Username").fill("theo")
    phone.get_by_label("Email").fill("theo@example.org")
    phone.get_by_label("Password", exact=True).fill(FIRST)
    phone.get_by_label("Password again").fill(FIRST)
    phone.get_by_role("button", name="Sign up").click()
    expect(phone.get_by_role("button", name="I am Theo Marsh")).to_be_visible()
    fits_and_passes_axe(phone, screenshots, "claim")
    phone.get_by_role("button", name="I am Theo Marsh").click()
    expect(phone.get_by_role("heading", name="My games")).to_be_visible()
    theo.refresh_from_db()
    assert theo.user is not None
    assert theo.user.username == "theo"


def test_a_club_file_is_previewed_and_imported_on_a_phone(
    new_page: Callable[..., Page],
    sign_in: Callable[[Page, str], None],
    screenshots: Callable[[Page, str], Any],
    club: Club,
    season: Any,
    director: Any,
) -> None:
    PlayerFactory(club=club, name="Ann Lee")
    content = json.dumps(club_export(club)).encode()
    club.delete()
    page = new_page(NARROW)
    sign_in(page, director.username)
    page.goto("/director/club-import/")
    fits_and_passes_axe(page, screenshots, "club-file")
    page.get_by_label("Club file (JSON)").set_input_files(
        {"name": "club.json", "mimeType": "application/json", "buffer": content}
    )
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("heading", name="What importing creates")).to_be_visible()
    fits_and_passes_axe(page, screenshots, "club-file-preview")
    page.get_by_role("button", name="Import Tuesday Club").click()
    expect(page.get_by_role("heading", name="Run Tuesday Club")).to_be_visible()
    assert Club.objects.get(slug="tuesday").players.get().name == "Ann Lee"
