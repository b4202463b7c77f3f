"""The API of self check-in at the door (docs/api.md, "Self check-in"):
`POST /api/sessions/{id}/self-check-in/` for anyone with the door code, every refusal
with its status and code, and `door_code` in the session's detail for its directors only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments.models import Player, Session, SessionPlayer
from workflow.front import door

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(make_session: Callable[..., Session]) -> Session:
    session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    Session.objects.filter(pk=session.pk).update(door_code="3141")
    session.refresh_from_db()
    return session


def url(session: Session) -> str:
    return f"/api/sessions/{session.pk}/self-check-in/"


def first(session: Session) -> SessionPlayer:
    return session.entries.select_related("player").order_by("player__name").first()


def test_anyone_with_the_door_code_checks_in(setup: Session) -> None:
    entry = first(setup)
    response = APIClient().post(
        url(setup), {"name": entry.player.name.upper(), "door_code": "3141"}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {
        "player_id": entry.player_id,
        "name": entry.player.name,
        "already_checked_in": False,
        "walk_in": False,
        "message": f"Welcome, {entry.player.name}: you are checked in.",
    }
    entry.refresh_from_db()
    assert entry.checked_in
    again = APIClient().post(
        url(setup), {"name": entry.player.name, "door_code": "3141"}, format="json"
    )
    assert again.status_code == 200
    assert again.json()["already_checked_in"] is True


CLOSED = {"self_check_in_open": False}


@pytest.mark.parametrize(
    ("change", "body", "status", "code"),
    [
        ({}, {"name": "X", "door_code": "0000"}, 400, "wrong_door_code"),
        ({}, {"name": "Nobody Known", "door_code": "3141"}, 400, "not_on_roster"),
        ({}, {"name": "--", "door_code": "3141"}, 400, "name_required"),
        ({}, {"door_code": "3141"}, 400, "invalid_input"),
        (CLOSED, {"name": "X", "door_code": "3141"}, 409, "self_check_in_closed"),
        ({"status": "running"}, {"name": "X", "door_code": "3141"}, 409, "session_started"),
        ({"status": "finished"}, {"name": "X", "door_code": "3141"}, 409, "session_finished"),
        ({"status": "cancelled"}, {"name": "X", "door_code": "3141"}, 409, "session_cancelled"),
    ],
)  # fmt: skip
def test_each_refusal_has_its_status_and_code_and_changes_nothing(
    setup: Session, change: dict[str, Any], body: dict[str, str], status: int, code: str
) -> None:
    Session.objects.filter(pk=setup.pk).update(**change)
    response = APIClient().post(url(setup), body, format="json")
    assert response.status_code == status
    assert response.json()["code"] == code
    assert not SessionPlayer.objects.filter(session=setup, checked_in=True).exists()


def test_a_name_that_fits_several_lists_the_choices(setup: Session) -> None:
    names = sorted(setup.entries.values_list("player__name", flat=True))
    # Every generated name has a letter in common with another: ask, never guess.
    shared = next(
        c for c in "aeiou" if sum(c in n.casefold() for n in names) > 1
    )  # e.g. "a" in Ann and Dan
    response = APIClient().post(url(setup), {"name": shared, "door_code": "3141"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "which_name"
    assert len(body["choices"]) > 1
    assert set(body["choices"]) <= set(names)


def test_too_many_wrong_codes_is_a_429_with_retry_after(setup: Session) -> None:
    client = APIClient()
    for _ in range(door.WRONG_PER_CLIENT):
        assert (
            client.post(url(setup), {"name": "X", "door_code": "1"}, format="json").status_code
            == 400
        )
    name = first(setup).player.name
    response = client.post(url(setup), {"name": name, "door_code": "3141"}, format="json")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_attempts"
    assert 0 < int(response["Retry-After"]) <= door.WINDOW
    assert not first(setup).checked_in


def test_a_private_session_is_a_404_unless_its_door_is_open(setup: Session) -> None:
    Session.objects.filter(pk=setup.pk).update(is_public=False)
    name = first(setup).player.name
    body = {"name": name, "door_code": "3141"}
    assert APIClient().post(url(setup), body, format="json").status_code == 200
    Session.objects.filter(pk=setup.pk).update(self_check_in_open=False)
    assert APIClient().post(url(setup), body, format="json").status_code == 404
    assert (
        APIClient().post("/api/sessions/999999/self-check-in/", body, format="json").status_code
        == 404
    )


def test_the_door_code_is_in_the_detail_for_the_sessions_directors_only(
    setup: Session, as_director: APIClient, roles: dict[str, APIClient]
) -> None:
    mine = as_director.get(f"/api/sessions/{setup.pk}/").json()
    assert mine["door_code"] == "3141"
    assert mine["self_check_in_open"] is True
    assert mine["walk_ins_allowed"] is False
    for role, client in roles.items():
        response = client.get(f"/api/sessions/{setup.pk}/")
        if response.status_code == 401:  # a revoked scorer link's credentials
            continue
        assert response.json()["door_code"] is None, role


def test_the_schema_documents_the_endpoint() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/sessions/{session_id}/self-check-in/"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "404", "409", "429"}
    request = schema["components"]["schemas"]["SelfCheckInInputRequest"]
    assert set(request["required"]) == {"name", "door_code"}
    detail = schema["components"]["schemas"]["SessionDetail"]["properties"]
    assert detail["door_code"]["nullable"] is True


def test_a_name_typed_as_people_type_it_checks_in_and_a_near_miss_asks_which(
    setup: Session,
) -> None:
    entries = list(setup.entries.select_related("player").order_by("player__name"))
    entries[0].player.name, entries[1].player.name = "Pádraig McGettigan", "Rosa Díaz"
    Player.objects.bulk_update([entries[0].player, entries[1].player], ["name"])
    done = APIClient().post(
        url(setup), {"name": "padraig mc gettigan", "door_code": "3141"}, format="json"
    )
    assert done.status_code == 200
    assert done.json()["name"] == "Pádraig McGettigan"
    asked = APIClient().post(url(setup), {"name": "Rosa Dias", "door_code": "3141"}, format="json")
    assert asked.status_code == 400
    assert asked.json()["code"] == "which_name"
    assert asked.json()["choices"] == ["Rosa Díaz"]
