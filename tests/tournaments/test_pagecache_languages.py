"""The public's stored pages and the languages (serving/pages.py, huckley/languages.py):
a stored page is kept per language asked for, so nobody is answered with a page built
in someone else's language, early or on the full path, and a club that changes its
language is served in the new one at once."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.languages import catalogues  # noqa: F401 (a fixture)
from tests.tournaments.test_pagecache import _early, mode  # noqa: F401 (a fixture)
from tournaments import pagecache
from tournaments.models import Seating, Session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogues", "mode")]


def lang(response: Any) -> str:
    found = re.search(r'<html lang="([^"]*)"', response.content.decode())
    assert found is not None, response.content[:200]
    return found.group(1)


def visitor(language: str | None = None) -> Client:
    client = Client()
    if language:
        client.cookies["django_language"] = language
    return client


def names(session: Session) -> list[str]:
    seated = Seating.objects.filter(sitting__session=session).select_related("player")
    return [s.player.name for s in seated[:2]]


def test_a_visitors_own_language_gets_its_own_stored_copy(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    visitor().get(url)
    assert _early(visitor().get(url))

    spanish = visitor("es").get(url)
    assert lang(spanish) == "es"
    assert not _early(spanish)  # not the English copy
    again = visitor("es").get(url)
    assert _early(again)
    assert lang(again) == "es"
    assert again.content == spanish.content
    assert "Accept-Language" in again["Vary"]
    english = visitor().get(url)
    assert _early(english)
    assert lang(english) == "en-us"


def test_the_browsers_language_does_not_change_a_clubs_stored_page(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    visitor().get(url)
    for _ in range(2):
        page = visitor().get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert lang(page) == "en-us"  # the club's language, over the browser's


def test_a_club_that_changes_its_language_is_served_in_it_at_once(
    make_session: Callable[..., Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    visitor().get(url)
    assert lang(visitor().get(url)) == "en-us"

    session.club.language = "en-ie"
    session.club.save(update_fields=["language"])  # its save moves the generation
    # With the generation read from the row, a process trusts the one it read for a
    # quarter of a second (tests/conftest.py stops that clock on the embedded default;
    # with Redis it runs): let it pass, from whichever time it was read at.
    later = time.monotonic() + 2 * pagecache.GENERATION_MEMO
    monkeypatch.setattr(pagecache, "_now", lambda: later)

    after = visitor().get(url)
    assert not _early(after)
    assert lang(after) == "en-ie"
    assert lang(visitor().get(url)) == "en-ie"
    assert lang(visitor("es").get(url)) == "es"


def test_a_name_found_early_is_in_the_language_of_the_page_it_is_found_on(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(13)
    session.club.language = "es"
    session.club.save(update_fields=["language"])
    first, second = names(session)
    url = reverse("tournaments:session", args=[session.pk])

    for language, expected in ((None, "es"), ("en-gb", "en-gb")):
        full = visitor(language).get(url, {"name": first})
        assert lang(full) == expected
        composed = visitor(language).get(url, {"name": second})
        assert _early(composed), language
        assert lang(composed) == expected, language
        assert second in composed.content.decode()
