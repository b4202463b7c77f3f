"""Calling the director through the API: a table's scorer calls, the director lists the
calls and marks one handled (or takes it back); every refusal, and who may not."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game
from tests.api.conftest import EXPECTED_REFUSAL, scorer_client, token_client
from tournaments.models import DirectorCall, Session
from tournaments.permissions import SYSTEM
from workflow.front import calls
from workflow.session import movements, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def _call(client: APIClient, table_id: int, **body: Any) -> Any:
    return client.post(
        f"/api/tables/{table_id}/calls/", body or {"reason": "dispute"}, format="json"
    )


def test_a_scorer_calls_and_the_director_sees_it_and_marks_it_handled(
    top: Game, director: Any, as_director: APIClient
) -> None:
    scorer = scorer_client(top.table_id, director)
    answer = _call(scorer, top.table_id, reason="renege", text="Seat 2 reneged on hearts")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["reason"] == "renege"
    assert body["text"] == "Seat 2 reneged on hearts"
    assert body["table_rank"] == 1
    assert body["open"] is True
    assert body["called_by"] == "the table's scorer link"
    assert len(body["players"]) == 4
    session_id = top.table.sitting.session_id

    listed = as_director.get(f"/api/sessions/{session_id}/calls/")
    assert listed.status_code == 200
    assert [c["id"] for c in listed.json()] == [body["id"]]

    handled = as_director.post(f"/api/calls/{body['id']}/handled/")
    assert handled.status_code == 200
    assert handled.json()["open"] is False
    assert handled.json()["handled_by"] == director.username
    again = as_director.post(f"/api/calls/{body['id']}/handled/")
    assert again.status_code == 200  # handling twice changes nothing

    reopened = as_director.delete(f"/api/calls/{body['id']}/handled/")
    assert reopened.status_code == 200
    assert reopened.json()["open"] is True


def test_open_calls_are_listed_first_then_handled_ones(
    top: Game, bottom: Game, as_director: APIClient
) -> None:
    first = calls.director_call_make(table_id=top.table_id, reason="question", text="", user=SYSTEM)
    second = calls.director_call_make(
        table_id=bottom.table_id, reason="misdeal", text="", user=SYSTEM
    )
    calls.director_call_handle(call_id=first.pk, user=SYSTEM)
    listed = as_director.get(f"/api/sessions/{top.table.sitting.session_id}/calls/").json()
    assert [(c["id"], c["open"]) for c in listed] == [(second.pk, True), (first.pk, False)]


def test_a_second_call_while_one_is_open_is_refused_and_the_first_kept(
    top: Game, director: Any
) -> None:
    scorer = scorer_client(top.table_id, director)
    assert _call(scorer, top.table_id, reason="dispute").status_code == 201
    second = _call(scorer, top.table_id, reason="question")
    assert second.status_code == 409
    assert second.json()["code"] == "director_already_called"
    assert "already been called" in second.json()["message"]
    assert list(DirectorCall.objects.values_list("reason", flat=True)) == ["dispute"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"reason": "other", "text": "  "}, "call_text_required"),
        ({"reason": "fight"}, "invalid_input"),
        ({"reason": "question", "text": "x" * 201}, "call_text_too_long"),
        ({"reason": "question", "text": "ab\u202ecd"}, "name_hidden_character"),
    ],
)
def test_a_call_the_service_refuses_says_why_and_is_not_kept(
    top: Game, director: Any, body: dict[str, str], code: str
) -> None:
    answer = _call(scorer_client(top.table_id, director), top.table_id, **body)
    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert not DirectorCall.objects.exists()


def test_a_call_on_a_finished_session_is_refused(
    running: Session, top: Game, director: Any, as_director: APIClient
) -> None:
    scorer = scorer_client(top.table_id, director)
    start_finish.session_finish(session_id=running.pk, early=True, user=director)
    by_director = _call(as_director, top.table_id)
    assert by_director.status_code == 409
    assert by_director.json()["code"] == "session_not_running"
    # The scorer link died with the session.
    by_scorer = _call(scorer, top.table_id)
    assert by_scorer.status_code == 401
    assert by_scorer.json()["code"] == "scorer_link_expired"
    assert not DirectorCall.objects.exists()


def test_a_call_from_a_table_whose_sitting_moved_on_is_refused(
    running: Session, top: Game, as_director: APIClient
) -> None:
    finish_sitting_unplayed(running.sittings.get(), random.Random(3))
    movements.sitting_move_players(session_id=running.pk, sitting_number=1, user=SYSTEM)
    answer = _call(as_director, top.table_id)
    assert answer.status_code == 409
    assert answer.json()["code"] == "sitting_moved_on"


def test_who_may_not_call_from_a_table(top: Game, roles: dict[str, APIClient]) -> None:
    for role, client in roles.items():
        answer = _call(client, top.table_id)
        assert answer.status_code == EXPECTED_REFUSAL[role], role
    assert not DirectorCall.objects.exists()


def test_who_may_not_list_or_handle_calls(
    top: Game, director: Any, roles: dict[str, APIClient]
) -> None:
    call = calls.director_call_make(table_id=top.table_id, reason="question", text="", user=SYSTEM)
    roles["the table's own scorer"] = scorer_client(top.table_id, director)
    session_id = top.table.sitting.session_id
    for role, client in roles.items():
        expected = EXPECTED_REFUSAL.get(role, 403)
        assert client.get(f"/api/sessions/{session_id}/calls/").status_code == expected, role
        assert client.post(f"/api/calls/{call.pk}/handled/").status_code == expected, role
        assert client.delete(f"/api/calls/{call.pk}/handled/").status_code == expected, role
    call.refresh_from_db()
    assert call.handled_at is None


def test_reopening_is_refused_when_the_table_called_again(top: Game, director: Any) -> None:
    client = token_client(director)
    first = calls.director_call_make(table_id=top.table_id, reason="question", text="", user=SYSTEM)
    calls.director_call_handle(call_id=first.pk, user=SYSTEM)
    calls.director_call_make(table_id=top.table_id, reason="dispute", text="", user=SYSTEM)
    answer = client.delete(f"/api/calls/{first.pk}/handled/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "call_reopen_newer_open"


def test_an_unknown_call_is_a_404(as_director: APIClient) -> None:
    assert as_director.post("/api/calls/999/handled/").status_code == 404
