"""Entry fees and prizes through the API (docs/api.md, "Entry fees and prizes")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tournaments.models import Season, Session
from workflow.club import selectors as club_selectors
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def test_a_night_with_fees_from_check_in_to_the_season_standings(
    make_session: Callable[..., Session], director: Any, season: Season
) -> None:
    api = token_client(director)
    table = api.post(
        "/api/clubs/tuesday/payout-tables/",
        {"name": "Top three", "places": ["50", "30", "20"], "big_loser": "2"},
        format="json",
    )
    assert table.status_code == 201, table.json()
    assert table.json() | {"id": 0} == {
        "id": 0,
        "name": "Top three",
        "places": ["50.00", "30.00", "20.00"],
        "big_loser": "2.00",
        "most_hooks": "",
        "is_default": True,
    }
    assert api.put(
        "/api/clubs/tuesday/currency/", {"currency": "EUR", "money_unit": "cent"}, format="json"
    ).json() == {"currency": "EUR", "money_unit": "cent"}
    session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    got = api.post(
        f"/api/sessions/{session.pk}/prizes/", {"entry_fee": "5", "pool_share": "90"}, format="json"
    )
    assert got.status_code == 200, got.json()
    players = list(session.entries.values_list("player_id", flat=True))
    checked = api.post(
        f"/api/sessions/{session.pk}/check-in/",
        {"player_ids": players, "paid": True},
        format="json",
    ).json()
    assert all(e["paid"] and e["checked_in"] for e in checked["entries"])
    assert (checked["entry_fee"], checked["pool_share"], checked["pool_fixed"]) == (
        "5.00",
        "90.00",
        None,
    )
    # One paid by mistake: taken back later.
    api.post(
        f"/api/sessions/{session.pk}/paid/",
        {"player_ids": players[:1], "paid": False},
        format="json",
    )
    start_finish.session_start(session_id=session.pk, user=director)
    finish_sitting_unplayed(session.sittings.get(), random.Random(4))
    start_finish.session_finish(session_id=session.pk, user=director)

    prizes = api.get(f"/api/sessions/{session.pk}/prizes/").json()
    # 7 paid x 5 = 35, 90 %: 31.50; 2 to the Big Loser, 29.50 split 50/30/20.
    assert (prizes["paid_count"], prizes["fees_collected"], prizes["pool"]) == (7, "35.00", "31.50")
    assert prizes["final"] is True
    assert [p["amount"] for p in prizes["payouts"][:3]] == ["14.75", "8.85", "5.90"]
    assert prizes["extras"][0]["prize"] == "big_loser"
    # The public sees the pool and the payouts, not who paid.
    public = APIClient().get(f"/api/sessions/{session.pk}/prizes/").json()
    assert (public["paid_count"], public["fees_collected"], public["pool"]) == (
        None,
        None,
        "31.50",
    )

    standings = api.get(f"/api/sessions/{session.pk}/standings/").json()
    assert [r["payout"] for r in standings[:3]] == ["14.75", "8.85", "5.90"]
    assert standings[-1]["payout"] == "2.00"
    cache.delete(club_selectors.season_cache_key(season.pk))
    season_rows = APIClient().get(f"/api/seasons/{season.pk}/standings/").json()
    by_player = {r["player_id"]: r["prizes"] for r in season_rows}
    assert {by_player[r["player_id"]] for r in standings} >= {"14.75", "8.85", "5.90", "2.00"}


def test_a_free_session_has_no_payouts(make_session: Callable[..., Session]) -> None:
    session = make_session(8)
    rows = APIClient().get(f"/api/sessions/{session.pk}/standings/").json()
    assert {r["payout"] for r in rows} == {None}
    prizes = APIClient().get(f"/api/sessions/{session.pk}/prizes/").json()
    assert (prizes["entry_fee"], prizes["pool"], prizes["payouts"]) == (None, "0.00", [])


def test_a_payout_table_refused_in_plain_words_next_to_its_field(club: Any, director: Any) -> None:
    api = token_client(director)
    response = api.post(
        "/api/clubs/tuesday/payout-tables/",
        {"name": "Bad", "places": ["30", "50", "20"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "bad_payout_table",
        "message": "Place 2 gets more than place 1; each place gets no more than the place "
        "above it.",
        "field": "places",
    }


def test_payout_tables_change_and_go(club: Any, director: Any) -> None:
    api = token_client(director)
    first = api.post(
        "/api/clubs/tuesday/payout-tables/", {"name": "All", "places": ["100"]}, format="json"
    ).json()
    url = f"/api/clubs/tuesday/payout-tables/{first['id']}/"
    changed = api.put(
        url, {"name": "Two", "places": ["60", "40"], "is_default": True}, format="json"
    ).json()
    assert (changed["name"], changed["places"]) == ("Two", ["60.00", "40.00"])
    assert api.get("/api/clubs/tuesday/payout-tables/").json() == [changed]
    assert api.delete(url).status_code == 204
    assert api.get(url).status_code == 404
    assert api.get("/api/clubs/elsewhere/payout-tables/").status_code == 404
