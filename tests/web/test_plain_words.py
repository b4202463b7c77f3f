"""What a director reads counts in plain words with the right plural (issue 10, bug 3):
"1 table still has games to play", "1 point", never "table(s)" or "1 points"."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import GamePlayer
from tournaments.models import Session
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def _director(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.mark.parametrize(
    ("players", "text"),
    [(4, "1 table still has games to play"), (8, "2 tables still have games to play")],
)
def test_ending_early_counts_the_tables_with_games_to_play(
    make_session: Callable[..., Session], director: Any, players: int, text: str
) -> None:
    session = make_session(players)
    page = _director(director).get(reverse("tournaments:finish", args=[session.pk]))
    body = page.content.decode()
    assert text in body
    assert "(s)" not in body


def test_the_movement_page_says_1_point_not_1_points(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(5))
    one = GamePlayer.objects.filter(game__table__sitting=sitting).order_by("pk").first()
    assert one is not None
    GamePlayer.objects.filter(game__table__sitting=sitting, player_id=one.player_id).update(score=0)
    GamePlayer.objects.filter(pk=one.pk).update(score=1)
    body = _director(director).get(reverse("tournaments:movement", args=[session.pk]))
    text = body.content.decode()
    assert "1 point ·" in text
    assert "1 points" not in text


def test_revoking_a_table_link_counts_it_in_words(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(4)
    table = session.sittings.get().tables.get()
    table_links.scorer_link_create(table_id=table.pk, user=director)
    client = _director(director)
    url = reverse("tournaments:scorer_links", args=[table.pk])
    answer = client.post(url, {"action": "revoke"}, follow=True)
    assert "1 scorer link revoked." in answer.content.decode()
