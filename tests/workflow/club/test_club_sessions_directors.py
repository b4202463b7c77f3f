"""Running the club without /admin/, continued: cancelling and deleting sessions,
directors, long lists and the club's time zone, and every role that may not make a club
write. Seasons and players are in test_club.py. Each action's success, each refusal with
the database unchanged."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, SessionFactory, UserFactory
from tests.workflow.club.test_club import _finished_night, club_state, refused, signed_in, url
from tournaments.models import Club, Player, Session
from workflow.club import directors as club_directors
from workflow.club import services as club_services
from workflow.session import services, start_finish

pytestmark = pytest.mark.django_db


# Sessions


def test_an_unstarted_session_is_cancelled_then_deleted(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    club_services.session_cancel(session_id=session.pk, user=director)
    session.refresh_from_db()
    assert session.status == Session.Status.CANCELLED
    refused(
        "session_cancelled",
        lambda: club_services.session_cancel(session_id=session.pk, user=director),
    )
    refused(
        "session_cancelled",
        lambda: start_finish.session_start(session_id=session.pk, user=director),
    )
    refused(
        "session_cancelled",
        lambda: services.session_add_players(
            session_id=session.pk, new_names=["Late"], user=director
        ),
    )
    players = set(session.entries.values_list("player_id", flat=True))
    club_services.session_delete(session_id=session.pk, user=director)
    assert not Session.objects.filter(pk=session.pk).exists()
    assert set(Player.objects.filter(pk__in=players).values_list("pk", flat=True)) == players


def test_an_empty_session_is_deleted_without_cancelling(club: Club, director: Any) -> None:
    session = SessionFactory(club=club)
    club_services.session_delete(session_id=session.pk, user=director)
    assert not Session.objects.filter(pk=session.pk).exists()


def test_a_started_or_finished_session_is_never_cancelled_or_deleted(
    make_session: Callable[..., Session], director: Any
) -> None:
    running = make_session(8)
    finished, _ = _finished_night(make_session, director)
    for session in (running, finished):
        refused(
            "session_started",
            lambda s=session: club_services.session_cancel(session_id=s.pk, user=director),
        )
        refused(
            "session_not_empty",
            lambda s=session: club_services.session_delete(session_id=s.pk, user=director),
        )


# Directors


def test_a_director_invites_an_existing_account_by_username_or_email(
    club: Club, director: Any
) -> None:
    ann = UserFactory(username="ann", email="ann@example.org")
    bea = UserFactory(username="bea", email="bea@example.org")
    club_directors.director_invite(club_id=club.pk, login="ANN", user=director)
    club_directors.director_invite(club_id=club.pk, login="Bea@Example.org", user=director)
    assert set(club.directors.all()) == {director, ann, bea}
    refused(
        "already_director",
        lambda: club_directors.director_invite(club_id=club.pk, login="ann", user=director),
    )
    refused(
        "unknown_account",
        lambda: club_directors.director_invite(club_id=club.pk, login="nobody", user=director),
    )
    refused(
        "login_required",
        lambda: club_directors.director_invite(club_id=club.pk, login=" ", user=director),
    )


def test_an_invited_new_account_chooses_its_password_once_through_the_link(
    club: Club, director: Any
) -> None:
    page = signed_in(director).post(
        url("club_directors", club.slug), {"login": "cleo@example.org", "create": "on"}
    )
    link = page.context["link"]
    cleo = get_user_model().objects.get(email="cleo@example.org")
    assert club.directors.filter(pk=cleo.pk).exists()
    assert not cleo.has_usable_password()
    client = Client()
    form = client.get(link, follow=True)
    password = "a-long-new-password-31"
    client.post(form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password})
    cleo.refresh_from_db()
    assert cleo.check_password(password)
    assert "has been used" in Client().get(link, follow=True).content.decode()


def test_a_director_is_removed_but_never_the_last_one(club: Club, director: Any) -> None:
    other = UserFactory(username="other")
    club.directors.add(other)
    club_directors.director_remove(club_id=club.pk, user_id=other.pk, user=director)
    assert list(club.directors.all()) == [director]
    refused(
        "last_director",
        lambda: club_directors.director_remove(club_id=club.pk, user_id=director.pk, user=director),
    )
    refused(
        "not_a_director",
        lambda: club_directors.director_remove(club_id=club.pk, user_id=other.pk, user=director),
    )


# Long lists


def test_a_club_of_a_thousand_players_lists_fifty_a_page_in_a_constant_number_of_queries(
    club: Club, director: Any, django_assert_max_num_queries: Any
) -> None:
    Player.objects.bulk_create(Player(club=club, name=f"Player {n:04}") for n in range(60))
    client = signed_in(director)
    client.get(url("club_players", club.slug))  # the session and the user, cached after

    def queries(**params: str) -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            response = client.get(url("club_players", club.slug), params)
        assert response.status_code == 200
        return len(captured)

    small = queries()
    Player.objects.bulk_create(Player(club=club, name=f"Player {n:04}") for n in range(60, 1000))
    with django_assert_max_num_queries(small):
        page = client.get(url("club_players", club.slug), {"page": "20"})
    names = [p.name for p in page.context["page"]]
    assert names == [f"Player {n:04}" for n in range(950, 1000)]
    found = client.get(url("club_players", club.slug), {"q": "player 012"}).context["page"]
    assert [p.name for p in found] == [f"Player {n:04}" for n in range(120, 130)]
    assert queries(q="player 9") <= small


# The club's time zone


def test_times_on_the_club_pages_are_in_its_time_zone_and_say_so(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    club_services.club_set_time_zone(club_id=club.pk, time_zone="America/Chicago", user=director)
    session = make_session(8)
    assert session.started_at is not None
    local = session.started_at.astimezone(zoneinfo.ZoneInfo("America/Chicago"))
    shown = f"{local:%H:%M} (America/Chicago)"
    client = signed_in(director)
    assert shown in client.get(url("club_sessions", club.slug)).content.decode()
    assert shown in client.get(url("manage", session.pk)).content.decode()
    # The club's zone is for its own pages only: it does not outlive the request.
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_time_zone_that_does_not_exist_is_refused(club: Club, director: Any) -> None:
    for bad in ("Mars/Olympus", "", "../etc/passwd"):
        refused(
            "bad_time_zone",
            lambda bad=bad: club_services.club_set_time_zone(
                club_id=club.pk, time_zone=bad, user=director
            ),
        )


# Who may make each write


def club_writes(club: Club, director: Any) -> list[tuple[str, str, dict[str, Any]]]:
    season = SeasonFactory(club=club, name="2031")
    player = PlayerFactory(club=club, name="Target")
    dup = PlayerFactory(club=club, name="Duplicate")
    session = SessionFactory(club=club, season=season)
    slug = club.slug
    return [
        ("time zone", url("club_time_zone", slug), {"time_zone": "Europe/London"}),
        ("open season", url("club_seasons", slug),
            {"name": "X", "starts_on": "2032-01-01", "ends_on": "2032-02-01"}),
        ("close season", url("club_season_close", slug, season.pk), {}),
        ("add player", url("club_players", slug), {"name": "New"}),
        ("rename", url("club_player", slug, player.pk), {"name": "Renamed"}),
        ("deactivate", url("club_player_active", slug, player.pk), {"active": "0"}),
        ("merge", url("club_player_merge", slug, player.pk), {"merged": dup.pk}),
        ("cancel session", url("club_session_cancel", slug, session.pk), {}),
        ("delete session", url("club_session_delete", slug, session.pk), {}),
        ("invite", url("club_directors", slug), {"login": "fresh", "create": "on"}),
        ("remove director", url("club_director_remove", slug, director.pk), {}),
    ]  # fmt: skip


def club_pages(club: Club, director: Any) -> list[str]:
    return [
        url("club_home", club.slug),
        url("club_seasons", club.slug),
        url("club_players", club.slug),
        url("club_sessions", club.slug),
        url("club_directors", club.slug),
    ]


def test_anonymous_visitors_are_sent_to_sign_in_and_change_nothing(
    club: Club, director: Any
) -> None:
    club.directors.add(UserFactory(username="second"))  # removing one would be allowed
    client = Client()
    for label, address, data in club_writes(club, director):
        before = club_state()
        response = client.post(address, data)
        assert response.status_code == 302, label
        assert response["Location"].startswith(reverse("login")), label
        assert club_state() == before, label


@pytest.mark.parametrize("who", ["player", "director of another club"])
def test_players_and_other_clubs_directors_are_refused_every_club_write_and_page(
    club: Club, director: Any, who: str
) -> None:
    club.directors.add(UserFactory(username="second"))
    user = UserFactory(username="someone")
    if who == "player":
        PlayerFactory(club=club, name="Their record", user=user)
    else:
        ClubFactory().directors.add(user)
    client = signed_in(user)
    for label, address, data in club_writes(club, director):
        before = club_state()
        assert client.post(address, data).status_code == 403, label
        assert club_state() == before, label
    for address in club_pages(club, director):
        assert client.get(address).status_code == 403, address


def test_the_club_page_links_its_directors_to_running_the_club(club: Club, director: Any) -> None:
    running = url("club_home", club.slug)
    assert running in signed_in(director).get(url("club", club.slug)).content.decode()
    assert running not in Client().get(url("club", club.slug)).content.decode()
    for address in club_pages(club, director):
        assert signed_in(director).get(address).status_code == 200, address


def test_each_refusal_on_the_pages_is_said_in_plain_words_and_changes_nothing(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    running = make_session(8)
    a, b = running.entries.all()[:2]
    slug = club.slug
    cases = [
        (url("club_time_zone", slug), {"time_zone": "Mars/Olympus"}, "is not a time zone"),
        (url("club_season_close", slug, running.season_id), {}, "Finish or cancel"),
        (url("club_players", slug), {"name": a.player.name.upper()}, "already has a player"),
        (url("club_player", slug, a.player_id), {"name": b.player.name}, "merge the two"),
        (url("club_player_merge", slug, a.player_id), {"merged": b.player_id}, "two people"),
        (url("club_session_cancel", slug, running.pk), {}, "has started"),
        (url("club_session_delete", slug, running.pk), {}, "never started"),
        (url("club_directors", slug), {"login": "nobody"}, "No account is called"),
        (url("club_director_remove", slug, director.pk), {}, "only director"),
    ]
    client = signed_in(director)
    for address, data, words in cases:
        before = club_state()
        response = client.post(address, data, follow=True)
        assert words in response.content.decode(), address
        assert club_state() == before, address
