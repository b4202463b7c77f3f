"""The sign-up endpoints (docs/api.md, Registrations): signing up, a sign-up by its token,
its cancellation, the director's list and the session's sign-up settings, with every
refusal and who may not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Registration, Session
from workflow.front import registrations

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_session: Callable[..., Session], director: Any) -> Session:
    session = make_session(0, start=False)
    return registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=1, user=director
    )


def post(session: Session, body: dict[str, Any], client: APIClient | None = None) -> Any:
    return (client or APIClient()).post(
        f"/api/sessions/{session.pk}/registrations/", body, format="json"
    )


def test_sign_up_gives_a_place_then_a_waitlist_position_and_a_token(night: Session) -> None:
    first = post(night, {"name": "Ann", "email": "ann@example.org"})
    assert first.status_code == 201, first.json()
    body = first.json()
    assert (body["status"], body["position"], body["name"]) == ("registered", 1, "Ann")
    assert body["email_given"] is True
    assert len(body["token"]) >= 30
    second = post(night, {"name": "Bob"}).json()
    third = post(night, {"name": "Cy"}).json()
    assert (second["status"], second["position"]) == ("waitlisted", 1)
    assert (third["status"], third["position"]) == ("waitlisted", 2)
    status = APIClient().get(f"/api/registrations/{third['token']}/")
    assert status.status_code == 200
    assert status.json()["position"] == 2


def test_a_cancellation_by_token_moves_the_first_of_the_waitlist_up(night: Session) -> None:
    ann = post(night, {"name": "Ann"}).json()
    bob = post(night, {"name": "Bob"}).json()
    gone = APIClient().delete(f"/api/registrations/{ann['token']}/")
    assert gone.status_code == 200
    assert (gone.json()["status"], gone.json()["position"]) == ("cancelled", None)
    assert gone.json()["cancelled_at"]
    moved = APIClient().get(f"/api/registrations/{bob['token']}/").json()
    assert (moved["status"], moved["position"]) == ("registered", 1)
    assert moved["promoted_at"]
    again = APIClient().delete(f"/api/registrations/{ann['token']}/")
    assert (again.status_code, again.json()["code"]) == (409, "already_cancelled")


def test_an_unknown_token_is_a_404(night: Session) -> None:
    for method in ("get", "delete"):
        answer = getattr(APIClient(), method)("/api/registrations/nope/")
        assert (answer.status_code, answer.json()["code"]) == (404, "registration_not_found")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": " "}, 400, "name_required"),
        ({"name": "Ann", "email": "ann at home"}, 400, "email_invalid"),
        ({"name": "Ann", "email_assignment": True}, 400, "email_needed"),
        ({"email": "ann@example.org"}, 400, "invalid_input"),
    ],
)
def test_bad_sign_ups_are_refused_in_plain_words(
    night: Session, body: dict[str, Any], status: int, code: str
) -> None:
    answer = post(night, body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert not Registration.objects.exists()


def test_a_name_signed_up_twice_is_refused(night: Session) -> None:
    post(night, {"name": "Rosa Díaz"})
    answer = post(night, {"name": "rosa diaz"})
    assert (answer.status_code, answer.json()["code"]) == (409, "already_registered")


def test_closed_or_started_nights_refuse_sign_ups(
    night: Session, director: Any, make_session: Callable[..., Session]
) -> None:
    client = token_client(director)
    closed = client.patch(f"/api/sessions/{night.pk}/", {"registration_open": False}, format="json")
    assert closed.status_code == 200
    assert closed.json()["registration_open"] is False
    answer = post(night, {"name": "Ann"})
    assert (answer.status_code, answer.json()["code"]) == (409, "registration_closed")
    running = make_session(8)
    answer = post(running, {"name": "Ann"})
    assert (answer.status_code, answer.json()["code"]) == (409, "session_started")
    late = client.patch(f"/api/sessions/{running.pk}/", {"registration_open": True}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "session_started")


def test_a_private_night_is_a_404_without_its_invitation(night: Session, director: Any) -> None:
    token_client(director).patch(f"/api/sessions/{night.pk}/", {"is_public": False}, format="json")
    night.refresh_from_db()
    assert post(night, {"name": "Ann"}).status_code == 404
    assert post(night, {"name": "Ann", "invite": "wrong"}).status_code == 404
    # No token has a letter outside ASCII: a wrong invitation too, never a 500.
    assert post(night, {"name": "Ann", "invite": "été"}).status_code == 404
    assert not Registration.objects.exists()
    answer = post(night, {"name": "Ann", "invite": night.registration_invite})
    assert answer.status_code == 201


def test_only_the_director_reads_the_list_and_changes_the_settings(
    night: Session, director: Any
) -> None:
    post(night, {"name": "Ann", "email": "ann@example.org"})
    post(night, {"name": "Bob"})
    url = f"/api/sessions/{night.pk}/registrations/"
    assert APIClient().get(url).status_code == 401
    stranger = token_client(UserFactory.create(username="stranger"))
    other = UserFactory.create(username="other-director")
    ClubFactory.create(slug="elsewhere").directors.add(other)
    for client in (stranger, token_client(other)):
        assert client.get(url).status_code == 403
        refused = client.patch(f"/api/sessions/{night.pk}/", {"capacity": 5}, format="json")
        assert refused.status_code == 403
    listed = token_client(director).get(url)
    assert listed.status_code == 200
    assert [(r["name"], r["status"], r["position"], r["on_roster"]) for r in listed.json()] == [
        ("Ann", "registered", 1, True),
        ("Bob", "waitlisted", 1, False),
    ]
    assert "token" not in listed.json()[0]
    night.refresh_from_db()
    assert night.capacity == 1


def test_the_director_sets_the_capacity_and_the_waitlist_moves_up(
    night: Session, director: Any
) -> None:
    post(night, {"name": "Ann"})
    bob = post(night, {"name": "Bob"}).json()
    client = token_client(director)
    zero = client.patch(f"/api/sessions/{night.pk}/", {"capacity": 0}, format="json")
    assert (zero.status_code, zero.json()["code"]) == (400, "invalid_input")
    answer = client.patch(f"/api/sessions/{night.pk}/", {"capacity": None}, format="json")
    assert answer.status_code == 200
    assert (answer.json()["capacity"], answer.json()["registration_open"]) == (None, True)
    assert [e["name"] for e in answer.json()["entries"]] == ["Ann", "Bob"]
    assert APIClient().get(f"/api/registrations/{bob['token']}/").json()["status"] == "registered"


def test_anonymous_sign_ups_are_throttled_per_address(night: Session, settings: Any) -> None:
    settings.HUCKLEY_REGISTRATIONS_PER_HOUR = 2
    assert post(night, {"name": "Ann"}).status_code == 201
    assert post(night, {"name": "Bob"}).status_code == 201
    answer = post(night, {"name": "Cy"})
    assert (answer.status_code, answer.json()["code"]) == (429, "throttled")
    assert "Retry-After" in answer.headers
