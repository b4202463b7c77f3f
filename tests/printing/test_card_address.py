"""Under `make run` the cards carry http://127.0.0.1:8000/..., which no phone can open: the
print panel and the cards' pages say so, and show the address the cards use before
printing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Session
from web.templatetags.huckley import is_loopback


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1:8000", True),
        ("localhost:8000", True),
        ("localhost", True),
        ("[::1]:8000", True),
        ("127.0.1.1", True),
        ("192.168.1.20:8000", False),
        ("huckley.example.org", False),
        ("[2001:db8::1]:8000", False),
    ],
)
def test_a_loopback_address_is_recognised(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.fixture
def signed_in(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def pages(session: Session) -> list[str]:
    return [
        reverse("tournaments:manage", args=[session.pk]),
        reverse("tournaments:session_cards", args=[session.pk]),
        reverse("tournaments:club_cards", args=[session.club.slug]),
    ]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000"])
def test_the_cards_pages_warn_when_phones_cannot_open_the_address(
    make_session: Callable[..., Session], signed_in: Client, host: str, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["*"]
    session = make_session(8)
    for url in pages(session):
        text = signed_in.get(url, HTTP_HOST=host).content.decode()
        assert "Phones cannot open these cards." in text, url
        assert f"http://{host}/" in text
        assert "make venue" in text


def test_the_cards_pages_show_a_hall_address_without_a_warning(
    make_session: Callable[..., Session], signed_in: Client, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["*"]
    session = make_session(8)
    for url in pages(session):
        text = signed_in.get(url, HTTP_HOST="192.168.1.20:8000").content.decode()
        assert "Phones cannot open" not in text, url
        assert "The cards and QR codes open http://192.168.1.20:8000/" in text
