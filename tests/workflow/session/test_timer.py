"""The sitting timer (docs/tournament.md, "The sitting timer"): the service, its
refusals, the session page and the projector."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.factories import UserFactory
from tests.snapshots import changed_tables, db_snapshot
from tests.workflow.session.test_service_refusals import MakeSession, refused
from tournaments import pagecache
from tournaments.models import Session, Sitting
from workflow.session import movements, selectors, start_finish, timer
from workflow.session.simulation import play_sitting

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 3, 19, 30, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """`clock(seconds)`: the server's time, `seconds` after T0."""

    def at(seconds: float) -> None:
        monkeypatch.setattr(timezone, "now", lambda: T0 + timedelta(seconds=seconds))

    at(0)
    return at


def timed(make_session: MakeSession, director: Any, minutes: int = 30) -> Session:
    session = make_session(8, start=False)
    timer.session_set_sitting_minutes(session_id=session.pk, minutes=minutes, user=director)
    start_finish.session_start(session_id=session.pk, user=director)
    session.refresh_from_db()
    return session


def current(session: Session) -> Sitting:
    sitting = selectors.current_sitting(session)
    assert sitting is not None
    return sitting


def change(session: Session, action: str, user: Any, minutes: int | None = None) -> None:
    timer.sitting_timer_change(session_id=session.pk, action=action, minutes=minutes, user=user)


def test_each_sitting_starts_its_timer_when_the_session_plays_to_time(
    make_session: MakeSession, director: Any, clock: Callable[[float], None]
) -> None:
    session = timed(make_session, director)
    assert current(session).timer_ends_at == T0 + timedelta(minutes=30)
    play_sitting(current(session), seed=5)
    clock(40 * 60)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    assert current(session).number == 2
    assert current(session).timer_ends_at == T0 + timedelta(minutes=70)


def test_pause_resume_and_extend_keep_the_time_left(
    make_session: MakeSession, director: Any, clock: Callable[[float], None]
) -> None:
    session = timed(make_session, director, minutes=20)
    clock(5 * 60)
    change(session, "pause", director)
    view = timer.sitting_timer(session, current(session))
    assert view is not None
    assert (view.state, view.left, view.clock()) == ("paused", 900, "15:00")
    clock(60 * 60)  # a long pause costs nothing
    change(session, "extend", director)  # +5 minutes while paused
    change(session, "resume", director)
    assert current(session).timer_ends_at == T0 + timedelta(minutes=60 + 20)
    clock(81 * 60)  # time is up; extending starts again from now
    view = timer.sitting_timer(session, current(session))
    assert view is not None
    assert view.over()
    assert view.clock() == "0:00"
    change(session, "extend", director, minutes=3)
    assert current(session).timer_ends_at == T0 + timedelta(minutes=84)
    change(session, "reset", director)
    view = timer.sitting_timer(session, current(session))
    assert view is not None
    assert (view.state, view.left) == ("ready", 20 * 60)
    change(session, "start", director, minutes=10)
    assert current(session).timer_ends_at == T0 + timedelta(minutes=81 + 10)


def test_every_change_of_the_timer_reaches_the_live_screens(
    make_session: MakeSession, director: Any, clock: Callable[[float], None]
) -> None:
    session = timed(make_session, director)
    before = Session.objects.get(pk=session.pk).live_version
    change(session, "pause", director)
    assert Session.objects.get(pk=session.pk).live_version == before + 1


@pytest.mark.parametrize(
    ("setup", "action", "minutes", "code"),
    [
        ([], "resume", None, "timer_not_paused"),
        ([], "start", None, "timer_started"),
        (["pause"], "pause", None, "timer_not_running"),
        (["reset"], "extend", None, "timer_not_started"),
        (["reset"], "reset", None, "timer_not_started"),
        (["reset"], "start", 0, "timer_minutes"),
        (["reset"], "start", 241, "timer_minutes"),
        ([], "explode", None, "timer_action"),
    ],
)
def test_a_timer_change_that_cannot_be_made_is_refused_in_words(
    make_session: MakeSession,
    director: Any,
    clock: Callable[[float], None],
    setup: list[str],
    action: str,
    minutes: int | None,
    code: str,
) -> None:
    session = timed(make_session, director)
    for step in setup:
        change(session, step, director)
    refused(code, lambda: change(session, action, director, minutes))


def test_time_that_is_up_cannot_be_paused(
    make_session: MakeSession, director: Any, clock: Callable[[float], None]
) -> None:
    session = timed(make_session, director, minutes=1)
    clock(61)
    error = refused("timer_not_running", lambda: change(session, "pause", director))
    assert "Time is already up" in error.message


def test_no_timer_before_the_start_or_after_the_end(
    make_session: MakeSession, director: Any
) -> None:
    waiting = make_session(8, start=False)
    refused("session_not_running", lambda: change(waiting, "start", director, 10))
    untimed = make_session(8, seed=3)
    error = refused("timer_minutes", lambda: change(untimed, "start", director))
    assert "set the minutes per sitting first" in error.message
    refused(
        "timer_minutes",
        lambda: timer.session_set_sitting_minutes(session_id=waiting.pk, minutes=0, user=director),
    )
    start_finish.session_start(session_id=waiting.pk, user=director)
    start_finish.session_finish(session_id=waiting.pk, early=True, user=director)
    refused(
        "session_finished",
        lambda: timer.session_set_sitting_minutes(session_id=waiting.pk, minutes=30, user=director),
    )


def test_only_a_director_of_the_club_may_run_the_timer(
    make_session: MakeSession, director: Any, client: Client
) -> None:
    session = timed(make_session, director)
    stranger = UserFactory(username="stranger")
    before = db_snapshot()
    with pytest.raises(PermissionDenied):
        change(session, "pause", stranger)
    client.force_login(stranger)
    assert (
        client.post(f"/director/sessions/{session.pk}/timer/", {"action": "pause"}).status_code
        == 403
    )
    minutes_url = f"/director/sessions/{session.pk}/timer/minutes/"
    assert client.post(minutes_url, {"minutes": "5"}).status_code == 403
    assert changed_tables(before) == []


def test_the_session_page_runs_the_timer(
    make_session: MakeSession, director: Any, client: Client
) -> None:
    session = make_session(8)
    client.force_login(director)
    page = client.get(f"/director/sessions/{session.pk}/").content.decode()
    assert "No timer: this session does not play to time." in page
    typo = client.post(
        f"/director/sessions/{session.pk}/timer/minutes/", {"minutes": "ten"}, follow=True
    )
    assert "“ten” is not a number of minutes" in typo.content.decode()
    client.post(f"/director/sessions/{session.pk}/timer/minutes/", {"minutes": "25"})
    page = client.get(f"/director/sessions/{session.pk}/").content.decode()
    assert "Not started:" in page
    assert "25:00" in page
    assert "Start the timer" in page
    started = client.post(
        f"/director/sessions/{session.pk}/timer/", {"action": "start"}, follow=True
    )
    text = started.content.decode()
    assert "Timer started." in text
    assert "data-timer-ends=" in text
    assert "Pause" in text
    again = client.post(f"/director/sessions/{session.pk}/timer/", {"action": "start"}, follow=True)
    assert "The timer has already started" in again.content.decode()


def test_the_projector_counts_down_to_the_servers_end_time_and_says_when_time_is_up(
    make_session: MakeSession, director: Any, client: Client, clock: Callable[[float], None]
) -> None:
    session = timed(make_session, director, minutes=30)
    page = client.get(f"/sessions/{session.pk}/screen/").content.decode()
    ends = int((T0 + timedelta(minutes=30)).timestamp() * 1000)
    assert f'data-timer-ends="{ends}"' in page
    assert "Time left" in page
    assert "30:00" in page
    assert "data-server-now=" in page
    assert "timer.js" in page
    clock(31 * 60)
    pagecache.live_changed(session.pk)
    live = client.get(f"/sessions/{session.pk}/screen/live/").content.decode()
    assert "Time is up" in live
    untimed = make_session(8, seed=9)
    assert "timer-line" not in client.get(f"/sessions/{untimed.pk}/screen/").content.decode()


def test_the_api_reads_and_runs_the_timer_and_refuses_in_words(
    make_session: MakeSession, director: Any, clock: Callable[[float], None]
) -> None:
    session = make_session(8)
    api = token_client(director)
    url = f"/api/sessions/{session.pk}/timer/"
    off = api.get(url).json()
    assert (off["state"], off["sitting_minutes"], off["seconds_left"]) == ("off", None, None)
    ready = api.patch(url, {"sitting_minutes": 20}, format="json")
    assert ready.status_code == 200, ready.json()
    assert (ready.json()["state"], ready.json()["seconds_left"]) == ("ready", 1200)
    started = api.post(url, {"action": "start"}, format="json").json()
    assert started["state"] == "running"
    assert started["ends_at"].startswith("2026-11-03T19:50:00")
    clock(21 * 60)
    up = APIClient().get(url).json()  # the public reads it too
    assert (up["seconds_left"], up["time_is_up"]) == (0, True)
    before = db_snapshot()
    refusal = api.post(url, {"action": "pause"}, format="json")
    assert (refusal.status_code, refusal.json()["code"]) == (409, "timer_not_running")
    assert "Time is already up" in refusal.json()["message"]
    bad = api.post(url, {"action": "start", "minutes": 0}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_input")
    assert changed_tables(before) == []
    stranger = token_client(UserFactory(username="stranger"))
    assert stranger.post(url, {"action": "reset"}, format="json").status_code == 403
    assert stranger.patch(url, {"sitting_minutes": None}, format="json").status_code == 403
    assert api.get(url).json()["state"] == "running"


@pytest.mark.parametrize("typed", ["²", "9" * 5000])
def test_minutes_that_only_look_like_a_number_are_refused_in_words(
    make_session: MakeSession, director: Any, client: Client, typed: str
) -> None:
    session = make_session(8)
    client.force_login(director)
    answer = client.post(
        f"/director/sessions/{session.pk}/timer/minutes/", {"minutes": typed}, follow=True
    )
    assert "is not a number of minutes" in answer.content.decode()
    session.refresh_from_db()
    assert session.sitting_minutes is None
