"""The table-card endpoints (docs/api.md): what they answer and what they refuse. Who may
call them is in test_roles.py with every other endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import db_state
from tournaments.models import ClubTableCard, Session, TableCard
from workflow.tables import card_selectors

pytestmark = pytest.mark.django_db


def test_a_director_lists_and_replaces_a_sessions_cards(
    running: Session, as_director: APIClient
) -> None:
    listed = as_director.get(f"/api/sessions/{running.pk}/table-cards/").json()
    assert [c["number"] for c in listed] == [1, 2]
    assert listed[0]["url"] == f"http://testserver/t/{listed[0]['token']}/"
    new = as_director.post(f"/api/sessions/{running.pk}/table-cards/2/replace/")
    assert new.status_code == 201
    assert new.json()["number"] == 2
    assert new.json()["token"] not in {c["token"] for c in listed}
    assert TableCard.objects.get(token=listed[1]["token"]).replaced_at is not None
    assert card_selectors.table_cards(running)[1].token == new.json()["token"]


def test_replacing_a_card_no_table_has_is_a_plain_404(
    running: Session, as_director: APIClient
) -> None:
    before = db_state()
    response = as_director.post(f"/api/sessions/{running.pk}/table-cards/9/replace/")
    assert response.status_code == 404
    assert response.json()["code"] == "no_such_card"
    assert response.json()["message"] == "This session has no card for table 9."
    assert db_state() == before


def test_a_director_rotates_the_clubs_cards(running: Session, as_director: APIClient) -> None:
    url = f"/api/clubs/{running.club.slug}/table-cards/"
    assert as_director.get(url).json() == []
    first = as_director.post(url, {"count": 2}, format="json")
    assert first.status_code == 201
    assert [c["number"] for c in first.json()] == [1, 2]
    second = as_director.post(url, {"count": 3}, format="json").json()
    assert [c["number"] for c in second] == [1, 2, 3]
    assert as_director.get(url).json() == second
    assert ClubTableCard.objects.filter(replaced_at__isnull=False).count() == 2


@pytest.mark.parametrize("body", [{}, {"count": 0}, {"count": 61}, {"count": "many"}])
def test_a_bad_card_count_is_a_400_that_names_the_field(
    body: dict[str, Any], running: Session, as_director: APIClient
) -> None:
    before = db_state()
    url = f"/api/clubs/{running.club.slug}/table-cards/"
    response = as_director.post(url, body, format="json")
    assert response.status_code == 400
    assert "count" in str(response.json())
    assert db_state() == before
