"""The time zone is picked from a list as you type, not typed blind; a new club starts
with this device's own zone where the page has JavaScript."""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Club
from web.account_forms import ClubForm


@pytest.fixture
def signed_in(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def zones_offered(page: str) -> set[str]:
    box = re.search(r'<input[^>]*name="time_zone"[^>]*list="([^"]+)"', page)
    assert box is not None
    listed = re.search(rf'<datalist id="{box.group(1)}">(.*?)</datalist>', page, re.S)
    assert listed is not None
    return set(re.findall(r'<option value="([^"]+)">', listed.group(1)))


def test_the_clubs_time_zone_is_chosen_from_every_zone(club: Club, signed_in: Client) -> None:
    page = signed_in.get(reverse("tournaments:club_home", args=[club.slug])).content.decode()

    assert zones_offered(page) == zoneinfo.available_timezones()


def test_a_new_clubs_time_zone_is_offered_from_the_list_and_the_device(
    signed_in: Client,
) -> None:
    page = signed_in.get(reverse("tournaments:club_new")).content.decode()

    assert "Europe/Berlin" in zones_offered(page)
    assert 'data-from-browser="Europe/London"' in page
    assert "timezone.js" in page


def test_a_typed_time_zone_is_kept_as_typed_when_the_form_comes_back() -> None:
    form = ClubForm(data={"name": "", "slug": "", "time_zone": "Mars/Olympus"})

    assert not form.is_valid()
    assert "data-from-browser" not in str(form["time_zone"])
    assert 'value="Mars/Olympus"' in str(form["time_zone"])
