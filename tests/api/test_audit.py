"""`GET /api/clubs/{slug}/audit/` and `GET /api/sessions/{id}/audit/`: what the directors
did, for the club's directors only, newest first, `limit` at a time, filtered as the
club's page filters; the refusals answer as every other director-only read does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import EXPECTED_REFUSAL, token_client
from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry, Club, Session
from tournaments.permissions import SYSTEM
from workflow.club import services as club_services
from workflow.session import services

pytestmark = pytest.mark.django_db


def club_url(club: Club) -> str:
    return f"/api/clubs/{club.slug}/audit/"


def session_url(session: Session) -> str:
    return f"/api/sessions/{session.pk}/audit/"


def test_the_director_reads_the_clubs_log_newest_first(
    club: Club, running: Session, as_director: APIClient
) -> None:
    club_services.player_add(club_id=club.pk, name="Night owl", user=SYSTEM)
    body = as_director.get(club_url(club)).json()
    assert body["count"] == 3
    newest, started, created = body["results"]
    assert newest == {
        "id": newest["id"],
        "at": newest["at"],
        "who": "system",
        "action": "player.add",
        "summary": "Added the player Night owl",
        "details": {"player": {"id": newest["details"]["player"]["id"], "name": "Night owl"}},
        "session_id": None,
        "session_name": None,
    }
    assert (started["action"], started["who"]) == ("session.start", "dee-director")
    assert (started["session_id"], started["session_name"]) == (running.pk, running.name)
    assert created["action"] == "session.create"


def test_the_sessions_log_keeps_its_own_entries(
    club: Club,
    running: Session,
    make_session: Callable[..., Session],
    as_director: APIClient,
) -> None:
    other = make_session(8, seed=3)
    services.session_update_settings(
        session_id=running.pk,
        games_per_sitting=3,
        is_public=True,
        double_entry=False,
        user=SYSTEM,
    )
    body = as_director.get(session_url(running)).json()
    assert [r["action"] for r in body["results"]] == [
        "session.settings",
        "session.start",
        "session.create",
    ]
    assert body["results"][0]["details"] == {
        "changed": {"games_per_sitting": {"before": 2, "after": 3}}
    }
    club_wide = as_director.get(club_url(club), {"session": other.pk}).json()
    assert {r["session_id"] for r in club_wide["results"]} == {other.pk}


def test_the_filters_and_the_page(club: Club, running: Session, as_director: APIClient) -> None:
    AuditEntry.objects.bulk_create(
        AuditEntry(club=club, who_label="system", action="season.open", summary=f"Entry {i}")
        for i in range(5)
    )
    AuditEntry.objects.filter(action="season.open").update(
        at=datetime(2026, 3, 4, 5, 30, tzinfo=UTC)
    )

    def actions(**query: Any) -> list[str]:
        response = as_director.get(club_url(club), query)
        assert response.status_code == 200, response.json()
        return [r["action"] for r in response.json()["results"]]

    assert actions(action="session.start") == ["session.start"]
    assert actions(action="session") == ["session.start", "session.create"]
    assert actions(who="system") == ["season.open"] * 5
    assert actions(who="dee-director", action="season") == []
    assert actions(since="2026-03-04", until="2026-03-04") == ["season.open"] * 5
    assert actions(until="2026-03-03") == []
    assert actions(since="2026-03-05", until="2026-03-04") == []  # an empty span
    page = as_director.get(club_url(club), {"who": "system", "limit": 2, "offset": 4}).json()
    assert (page["count"], len(page["results"])) == (5, 1)
    club_services.club_set_time_zone(club_id=club.pk, time_zone="America/Chicago", user=SYSTEM)
    # 05:30 in UTC is 23:30 on 3 March in Chicago: the days are the club's.
    assert actions(since="2026-03-03", until="2026-03-03") == ["season.open"] * 5


@pytest.mark.parametrize(
    "query",
    [
        {"who": ""},
        {"since": "yesterday"},
        {"limit": 201},
        {"session": 0},
        {"offset": -1},
    ],
)
def test_a_filter_it_cannot_read_is_a_400(
    club: Club, as_director: APIClient, query: dict[str, Any]
) -> None:
    response = as_director.get(club_url(club), query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_only_the_clubs_directors_read_it(
    club: Club, running: Session, roles: dict[str, APIClient]
) -> None:
    for role, client in roles.items():
        for address in (club_url(club), session_url(running)):
            response = client.get(address)
            assert response.status_code == EXPECTED_REFUSAL[role], (role, address)
            if response.status_code == 403:
                assert response.json()["code"] == "not_director"


def test_a_private_session_is_a_404_and_an_unknown_club_too(
    club: Club, running: Session, as_director: APIClient
) -> None:
    Session.objects.filter(pk=running.pk).update(is_public=False)
    assert (
        token_client(UserFactory(username="stranger")).get(session_url(running)).status_code == 404
    )
    assert as_director.get("/api/clubs/no-such-club/audit/").status_code == 404
    assert as_director.get("/api/sessions/999999/audit/").status_code == 404


def test_a_director_of_another_club_reads_only_their_own(club: Club, running: Session) -> None:
    elsewhere = UserFactory(username="runs-another-club")
    other = ClubFactory()
    other.directors.add(elsewhere)
    client = token_client(elsewhere)
    assert client.get(club_url(club)).status_code == 403
    assert client.get(club_url(other)).json() == {"count": 0, "results": []}


def test_its_queries_do_not_grow_with_the_log(
    club: Club, running: Session, as_director: APIClient, django_assert_num_queries: Any
) -> None:
    # The token, the club, the clubs the user directs, the count and the page with its
    # sessions.
    with django_assert_num_queries(5):
        assert as_director.get(club_url(club)).status_code == 200
    AuditEntry.objects.bulk_create(
        AuditEntry(club=club, session=running, who_label="system", action="x.y", summary="z")
        for _ in range(80)
    )
    with django_assert_num_queries(5):
        assert len(as_director.get(club_url(club)).json()["results"]) == 50
    with django_assert_num_queries(5):
        assert len(as_director.get(session_url(running)).json()["results"]) == 50
