"""`fill_with_robots` through the API (docs/api.md, "Robots fill seats"): on
`POST /api/clubs/{slug}/sessions/` and `PATCH /api/sessions/{id}/`, shown by the session's
detail, refused in plain words with a code where robots could not play (a session not
online, a game with no online play), and refused to anyone who does not direct the club.
The start and the movements it changes are in tests/workflow/session/test_robots_fill.py."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import online as engine_online
from tests.api.conftest import EXPECTED_REFUSAL, db_state
from tournaments.models import Season, Session
from workflow.session.simulation import generated_names

pytestmark = pytest.mark.django_db


def create(client: APIClient, season: Season, **fields: Any) -> Any:
    body = {
        "season": season.pk,
        "name": "Robots night",
        "date": str(season.starts_on),
        "rules_id": "buck-euchre",
        "new_names": generated_names(7),
        **fields,
    }
    return client.post(f"/api/clubs/{season.club.slug}/sessions/", body, format="json")


def test_a_new_online_session_fills_with_robots_and_seats_seven_at_two_tables(
    season: Season, as_director: APIClient
) -> None:
    answer = create(as_director, season, online=True, fill_with_robots=True)

    assert answer.status_code == 201, answer.content
    created = answer.json()
    assert (created["online"], created["fill_with_robots"]) == (True, True)
    url = f"/api/sessions/{created['id']}/"
    assert as_director.get(url).json()["fill_with_robots"] is True
    ids = [e["player_id"] for e in created["entries"]]
    checked = as_director.post(f"{url}check-in/", {"player_ids": ids}, format="json")
    assert checked.status_code == 200, checked.content
    started = as_director.post(f"{url}start/")
    assert started.status_code == 201, started.content
    tables = started.json()["tables"]
    assert [len(t["seatings"]) for t in tables] == [4, 4]
    assert [[s["robot"] for s in t["seatings"]] for t in tables] == [
        [False] * 4,
        [False, False, False, True],
    ]
    assert tables[1]["seatings"][3]["name"] == "Robot 1"


def test_left_out_it_is_off(season: Season, as_director: APIClient) -> None:
    answer = create(as_director, season, online=True)
    assert answer.status_code == 201, answer.content
    assert answer.json()["fill_with_robots"] is False


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        # Robots play only at online tables: a paper night is refused, not changed.
        ({"fill_with_robots": True}, "fill_needs_online", "fill_with_robots"),
        ({"fill_with_robots": True, "online": False}, "fill_needs_online", "fill_with_robots"),
        # Not a yes or no: refused, never read as one.
        ({"fill_with_robots": "maybe", "online": True}, "invalid_input", "fill_with_robots"),
        ({"fill_with_robots": None, "online": True}, "invalid_input", "fill_with_robots"),
    ],
)
def test_a_new_session_that_robots_could_not_fill_is_refused(
    season: Season, as_director: APIClient, fields: dict[str, Any], code: str, field: str
) -> None:
    answer = create(as_director, season, **fields)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert (body["code"], body.get("field") or body["errors"][0]["field"]) == (code, field)
    if code == "fill_needs_online":
        assert "every table plays online" in body["message"]
    assert not Session.objects.exists()


def test_a_game_with_no_online_play_cannot_fill_with_robots(
    season: Season, as_director: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_online, "playable", lambda rules_id: rules_id != "buck-euchre")
    answer = create(as_director, season, online=True, fill_with_robots=True)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert (body["code"], body["field"]) == ("not_playable_online", "fill_with_robots")
    assert body["message"] == "Buck Euchre cannot be played online yet."
    assert not Session.objects.exists()


def test_only_a_director_of_the_club_creates_one(
    season: Season, roles: dict[str, APIClient]
) -> None:
    before = Session.objects.count()
    for who, client in roles.items():
        answer = create(client, season, online=True, fill_with_robots=True)
        assert answer.status_code == EXPECTED_REFUSAL[who], who
    assert Session.objects.count() == before


# -- PATCH -------------------------------------------------------------------------------


@pytest.fixture
def online(season: Season, as_director: APIClient) -> str:
    """The URL of an online session of Buck Euchre, not started."""
    answer = create(as_director, season, online=True)
    assert answer.status_code == 201, answer.content
    return f"/api/sessions/{answer.json()['id']}/"


def fill_of(url: str) -> bool:
    return Session.objects.get(pk=int(url.rstrip("/").rsplit("/", 1)[1])).fill_with_robots


def test_the_patch_turns_it_on_and_off_and_says_so(online: str, as_director: APIClient) -> None:
    on = as_director.patch(online, {"fill_with_robots": True}, format="json")
    assert on.status_code == 200, on.content
    assert on.json()["fill_with_robots"] is True
    assert fill_of(online)
    # Another field alone leaves it as it is.
    other = as_director.patch(online, {"online_grace_seconds": 30}, format="json")
    assert other.json()["fill_with_robots"] is True
    off = as_director.patch(online, {"fill_with_robots": False}, format="json")
    assert off.json()["fill_with_robots"] is False
    assert not fill_of(online)


def test_the_session_cannot_go_to_paper_while_robots_fill_it(
    online: str, as_director: APIClient
) -> None:
    assert as_director.patch(online, {"fill_with_robots": True}, format="json").status_code == 200
    refused = as_director.patch(online, {"online": False}, format="json")
    assert refused.status_code == 400, refused.content
    assert (refused.json()["code"], refused.json()["field"]) == ("fill_needs_online", "online")
    detail = as_director.get(online).json()
    assert (detail["online"], detail["fill_with_robots"]) == (True, True)
    both = as_director.patch(online, {"online": False, "fill_with_robots": False}, format="json")
    assert both.status_code == 200, both.content
    assert (both.json()["online"], both.json()["fill_with_robots"]) == (False, False)
    again = as_director.patch(online, {"fill_with_robots": True}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "fill_needs_online")


def test_a_running_session_takes_it_for_the_next_movement_and_a_finished_one_refuses(
    online: str, as_director: APIClient
) -> None:
    ids = [e["player_id"] for e in as_director.get(online).json()["entries"]]
    as_director.post(f"{online}check-in/", {"player_ids": ids}, format="json")
    assert as_director.post(f"{online}start/").status_code == 201
    on = as_director.patch(online, {"fill_with_robots": True}, format="json")
    assert on.status_code == 200, on.content
    finished = as_director.post(f"{online}finish/", {"early": True}, format="json")
    assert finished.status_code == 200, finished.content
    refused = as_director.patch(online, {"fill_with_robots": False}, format="json")
    assert refused.status_code == 409, refused.content
    assert (refused.json()["code"], refused.json()["field"]) == (
        "session_finished",
        "fill_with_robots",
    )
    assert fill_of(online)


def test_only_a_director_of_the_club_changes_it(
    running: Session, roles: dict[str, APIClient]
) -> None:
    Session.objects.filter(pk=running.pk).update(online=True)
    before = db_state()
    for who, client in roles.items():
        answer = client.patch(
            f"/api/sessions/{running.pk}/", {"fill_with_robots": True}, format="json"
        )
        assert answer.status_code == EXPECTED_REFUSAL[who], who
    assert db_state() == before
    running.refresh_from_db()
    assert running.fill_with_robots is False
