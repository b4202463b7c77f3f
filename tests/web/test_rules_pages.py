"""The rules of each game, short, for the players (`/rules/<rules_id>/`, web/views/rules.py):
a page for every game the engine knows, at its usual settings, linked from the seat page;
an unknown game is a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import engine

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_every_game_has_a_rules_page_naming_it_and_linking_the_others(
    client: Client, rules_id: str
) -> None:
    info = engine.RULES[rules_id]
    response = client.get(reverse("tournaments:rules", args=[rules_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>The rules of {info.name}</h1>" in html
    assert f"{info.tables.play_min} to {info.tables.play_max} players" in html
    for other in engine.RULES:
        if other != rules_id:
            assert reverse("tournaments:rules", args=[other]) in html
    assert "{{" not in html
    assert "{%" not in html


@pytest.mark.parametrize(
    ("rules_id", "words", "not_in"),
    [
        ("huckley-buck", "Kill the trick if you can", "hucklebuck"),
        ("hucklebuck", "There is no duty to trump", "huckley-buck"),
        ("buck-euchre", "Everyone starts at 25", "huckley-buck"),
        ("ten-point-buck", "After 5 rounds the most points wins", "bluke"),
        ("bluke", "a Bluke may be played at any time", "bluke-nj"),
        ("bluke-nj", "The Blukes belong to the trump suit", "bluke"),
    ],
)
def test_each_page_says_its_own_game_s_rule(
    client: Client, rules_id: str, words: str, not_in: str
) -> None:
    """Each game's rule on its own page, and not on the page of the game nearest to it."""
    html = client.get(reverse("tournaments:rules", args=[rules_id])).content.decode()
    assert words in html
    other = client.get(reverse("tournaments:rules", args=[not_in])).content.decode()
    assert words not in other


def test_the_game_s_settings_are_read_from_the_engine(client: Client) -> None:
    target = engine.RULES["huckley-buck"].defaults["target"]
    html = client.get(reverse("tournaments:rules", args=["huckley-buck"])).content.decode()
    assert f"someone reaches {target}." in html


def test_an_unknown_game_is_a_404(client: Client) -> None:
    assert client.get("/rules/no-such-game/").status_code == 404
    assert client.post(reverse("tournaments:rules", args=["bluke"])).status_code == 405
