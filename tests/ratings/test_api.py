"""GET /api/clubs/{slug}/ratings/?rules=<rules id>."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings import services
from tests.ratings import weng_lin
from tournaments.models import Club, Player, Season
from tournaments.permissions import SYSTEM


@pytest.fixture
def rated(rclub: Club, rseason: Season, people: list[Player], helpers: Any) -> list[Player]:
    a, b, c, d = people[:4]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 4, False), (b, 15, True), (c, 9, False), (d, 9, False)])
    bucks = helpers.session(rclub, rseason, day=date(2026, 3, 2), rules_id="buck-euchre")
    helpers.game(bucks, [(a, 0, True), (b, 5, False), (c, 6, False), (d, 7, False)])
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    return [a, b, c, d]


def test_the_ratings_are_listed_best_first_with_the_documented_fields(
    rated: list[Player],
) -> None:
    _a, b, c, d = rated
    response = APIClient().get("/api/clubs/rated/ratings/?rules=huckley-buck")
    assert response.status_code == 200
    body = response.json()
    assert [set(row) for row in body] == [
        {"player_id", "name", "mu", "sigma", "ordinal", "games"}
    ] * 4
    expected = weng_lin.update([(weng_lin.MU, weng_lin.SIGMA)] * 4, [4, 1, 2, 2])
    by_id = {row["player_id"]: row for row in body}
    for player, (mu, sigma) in zip(rated, expected, strict=True):
        row = by_id[player.pk]
        assert row["name"] == player.name
        assert row["mu"] == pytest.approx(mu)
        assert row["sigma"] == pytest.approx(sigma)
        assert row["ordinal"] == pytest.approx(weng_lin.ordinal(mu, sigma))
        assert row["games"] == 1
    ordinals = [row["ordinal"] for row in body]
    assert ordinals == sorted(ordinals, reverse=True)
    assert body[0]["player_id"] == b.pk
    # c and d tied: equal ratings, listed by name.
    assert [row["name"] for row in body[1:3]] == sorted([c.name, d.name])


def test_each_rules_id_has_its_own_list(rated: list[Player]) -> None:
    body = APIClient().get("/api/clubs/rated/ratings/?rules=buck-euchre").json()
    assert body[0]["player_id"] == rated[0].pk
    assert APIClient().get("/api/clubs/rated/ratings/?rules=bluke").json() == []


def test_an_unknown_rules_id_is_a_400_that_says_which_are_known(rated: list[Player]) -> None:
    response = APIClient().get("/api/clubs/rated/ratings/?rules=poker")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_rules"
    assert "poker" in body["message"]
    assert "huckley-buck" in body["message"]


def test_a_missing_rules_id_is_a_400(rated: list[Player]) -> None:
    response = APIClient().get("/api/clubs/rated/ratings/")
    assert response.status_code == 400
    assert response.json()["code"] == "rules_required"


def test_an_unknown_club_is_a_404(db: None) -> None:
    response = APIClient().get("/api/clubs/nowhere/ratings/?rules=huckley-buck")
    assert response.status_code == 404


def test_the_endpoint_is_read_only(rated: list[Player]) -> None:
    response = APIClient().post("/api/clubs/rated/ratings/?rules=huckley-buck", {}, format="json")
    assert response.status_code in (401, 403, 405)
    assert APIClient().get("/api/clubs/rated/ratings/?rules=huckley-buck").json()
