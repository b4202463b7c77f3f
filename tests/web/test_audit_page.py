"""The club's audit log page: what the directors did, for its directors only, newest
first, a page at a time, filtered by session, action, who and dates in the club's time
zone; its query count does not grow with the log."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry, Club, Session
from tournaments.permissions import SYSTEM
from workflow.club import services as club_services
from workflow.session import services

pytestmark = pytest.mark.django_db


def url(club: Club, **query: Any) -> str:
    address = reverse("tournaments:club_audit", args=[club.slug])
    if query:
        address += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return address


def entries(club: Club, count: int, *, at: datetime, action: str = "player.add") -> None:
    AuditEntry.objects.bulk_create(
        AuditEntry(club=club, who_label="system", action=action, summary=f"Entry {i}")
        for i in range(count)
    )
    AuditEntry.objects.filter(club=club, action=action).update(at=at)


def test_the_director_sees_what_the_directors_did_newest_first_in_the_clubs_time(
    club: Club, director: Any, directing: Client, make_session: Callable[..., Session]
) -> None:
    club_services.club_set_time_zone(club_id=club.pk, time_zone="America/Chicago", user=director)
    session = make_session(8)
    page = directing.get(url(club)).content.decode()
    started = page.index("Started the session: 8 players at 2 tables")
    created = page.index("Created the session Club night")
    zone = page.index("time zone UTC → America/Chicago")
    assert started < created < zone  # newest first
    assert "(America/Chicago)" in page
    assert "dee-director" in page
    assert reverse("tournaments:manage", args=[session.pk]) in page


def test_it_is_linked_from_the_clubs_pages_and_the_sessions_page_filtered_to_it(
    club: Club, directing: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8)
    for name in ("club_home", "club_directors"):
        page = directing.get(reverse(f"tournaments:{name}", args=[club.slug])).content.decode()
        assert url(club) in page, name
    manage = directing.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert url(club) + f"?session={session.pk}" in manage


def test_the_filters_keep_one_session_one_action_one_person_and_a_span_of_days(
    club: Club, director: Any, directing: Client, make_session: Callable[..., Session]
) -> None:
    first = make_session(8)
    second = make_session(8, seed=3)
    club_services.player_add(club_id=club.pk, name="Night owl", user=SYSTEM)

    def summaries(**query: Any) -> list[str]:
        response = directing.get(url(club, **query))
        assert response.status_code == 200
        return [e.summary for e in response.context["page"]]

    assert len(summaries(session=second.pk)) == 2  # created, started
    assert all("Started" in s for s in summaries(action="session.start"))
    assert len(summaries(action="session.start")) == 2
    assert len(summaries(action="session")) == 4  # the subject: every session.* action
    assert summaries(who="system") == ["Added the player Night owl"]
    assert len(summaries(who="dee-director", session=first.pk)) == 2

    AuditEntry.objects.filter(action="player.add").update(
        at=datetime(2026, 3, 4, 5, 30, tzinfo=UTC)  # 4 March at 05:30 in UTC
    )
    assert summaries(since="2026-03-04", until="2026-03-04") == ["Added the player Night owl"]
    assert summaries(until="2026-03-03") == []
    club_services.club_set_time_zone(club_id=club.pk, time_zone="America/Chicago", user=director)
    # 05:30 in UTC is 23:30 on 3 March in Chicago: the days are the club's.
    assert summaries(since="2026-03-03", until="2026-03-03") == ["Added the player Night owl"]


def test_a_filter_that_is_not_a_date_is_said_next_to_its_field(
    club: Club, directing: Client
) -> None:
    response = directing.get(url(club, since="yesterday"))
    assert response.status_code == 400
    assert "Enter a valid date." in response.content.decode()
    response = directing.get(url(club, since="2026-03-05", until="2026-03-04"))
    assert response.status_code == 400
    assert "The last day comes on or after the first." in response.content.decode()


def test_it_pages_through_a_long_log_keeping_its_filters(club: Club, directing: Client) -> None:
    entries(club, 60, at=datetime(2026, 3, 4, 12, tzinfo=UTC))
    response = directing.get(url(club, who="system"))
    assert len(response.context["page"]) == 50
    assert "who=system&amp;page=2" in response.content.decode()
    assert len(directing.get(url(club, who="system", page=2)).context["page"]) == 10


def test_only_the_clubs_directors_see_it(club: Club) -> None:
    assert Client().get(url(club)).status_code == 302  # to sign in
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    assert stranger.get(url(club)).status_code == 403
    elsewhere = UserFactory(username="runs-another-club")
    ClubFactory().directors.add(elsewhere)
    other = Client()
    other.force_login(elsewhere)
    assert other.get(url(club)).status_code == 403


def test_its_queries_do_not_grow_with_the_log(
    club: Club, directing: Client, make_session: Callable[..., Session],
    django_assert_num_queries: Any,
) -> None:  # fmt: skip
    session = make_session(8)
    entries(club, 3, at=datetime(2026, 3, 4, 12, tzinfo=UTC))
    # The session, the user, the club, the clubs directed, the sessions, the actions and
    # people of the log, the count and the page of entries with their sessions.
    with django_assert_num_queries(9):
        directing.get(url(club, session=session.pk))
    entries(club, 60, at=datetime(2026, 3, 5, 12, tzinfo=UTC), action="season.open")
    services.session_update_settings(
        session_id=session.pk, games_per_sitting=3, is_public=True, double_entry=False,
        user=SYSTEM,
    )  # fmt: skip
    with django_assert_num_queries(9):
        directing.get(url(club))
