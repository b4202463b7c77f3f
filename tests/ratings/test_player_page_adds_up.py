"""A player's page adds up: after a night played through the services (three sittings, the
movements between them, the finish), each player's page shows their place at the table in
every sitting, the last one included, and the record the session's standings give."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from typing import Any

import pytest
from django.contrib.humanize.templatetags.humanize import ordinal
from django.test import Client
from django.urls import reverse

from tournaments import format as fmt
from workflow.session import selectors
from workflow.session.simulation import PlayOptions, generated_names, play_session

pytestmark = pytest.mark.django_db


def record(html: str, heading: str) -> str:
    found = re.search(rf"<th>{heading}</th><td[^>]*>(.*?)</td>", html, re.S)
    assert found, heading
    return found.group(1).strip()


def test_every_players_page_agrees_with_the_nights_sittings_and_standings(
    club: Any, season: Any, director: Any
) -> None:
    session = play_session(
        club=club,
        season=season,
        name="Club night",
        day=date(2026, 3, 3),
        players=generated_names(13),
        options=PlayOptions(sittings=3, games_per_sitting=2, seed=11, user=director),
    )
    rules = fmt.format_for(session.rules_id)
    sittings = list(session.sittings.order_by("number"))
    assert len(sittings) == 3
    places: dict[int, Counter[int]] = {}
    for sitting in sittings:
        for table in selectors.sitting_order(sitting, rules).tables:
            for placing in table.placings:
                places.setdefault(placing.player, Counter())[placing.place] += 1
    standings = selectors.session_standings(session)
    assert len(standings) == 13
    client = Client()
    for row in standings:
        # The standings' place is the place at the table in the last sitting.
        assert row.place is not None
        html = client.get(reverse("ratings:player", args=[row.player_id])).content.decode()
        shown = record(html, "Placings at the table")
        expected = places[row.player_id]
        assert sum(expected.values()) == 3
        assert expected[row.place] >= 1
        assert shown == " · ".join(f"{ordinal(p)}: {n}" for p, n in sorted(expected.items())), (
            row.name
        )
        assert record(html, "Sessions played") == "1"
        assert record(html, "Games finished") == str(row.games_played) == "6"
        assert record(html, "Wins") == str(row.games_won)
        assert record(html, "Hooks") == str(row.hooks)
