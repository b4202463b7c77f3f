"""Round entry through the API: stored (201), pending with double entry (202), refused by
the engine (400 naming the field), conflicts with the current state (409), corrections,
deletions, and the Idempotency-Key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from api.models import IdempotencyRecord
from scoring import records
from scoring.models import Game, PendingRound, Round, RoundChange
from tests.api.conftest import db_state, first_round, scorer_client, token_client
from tournaments.models import Session

pytestmark = pytest.mark.django_db


def rounds_url(game: Game) -> str:
    return f"/api/games/{game.pk}/rounds/"


def test_a_valid_round_is_stored_and_answered_with_the_new_verdict(
    top: Game, director: Any
) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    response = scorer.post(rounds_url(top), data, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["round"] == {"number": 1, "dealer": data["dealer"], "tricks": data["tricks"]}
    assert body["game"]["round_count"] == 1
    assert body["verdict"]["valid"] is True
    taker = next(iter(data["tricks"]))
    assert body["verdict"]["scores"][taker] == 5
    change = RoundChange.objects.get(game=top)
    assert change.user is None
    assert change.scorer_link is not None


def test_an_invalid_round_is_a_400_naming_the_field_and_nothing_is_stored(
    top: Game, as_director: APIClient
) -> None:
    data = first_round(top)
    taker = next(iter(data["tricks"]))
    data["tricks"] = {taker: 4}
    before = db_state()
    response = as_director.post(rounds_url(top), data, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "round_invalid"
    assert "Round 1 was not entered" in body["message"]
    assert [(e["code"], e["field"]) for e in body["errors"]] == [("tricks_not_five", "tricks")]
    assert db_state() == before


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"tricks": "five"}, "bad_field", "tricks"),
        ({"tricks": {"Nobody": 5}}, "unknown_player", "tricks"),
        ({"out": "everyone"}, "bad_field", "out"),
        ({"dealer": "Zed"}, "wrong_dealer", "dealer"),
        ({"penalties": [{"player": 3}]}, "bad_field", "penalties"),
        ({"misdeal": "yes"}, "bad_field", "misdeal"),
    ],
)
def test_the_engines_refusals_name_the_field(
    top: Game, as_director: APIClient, fields: dict[str, Any], code: str, field: str
) -> None:
    response = as_director.post(rounds_url(top), {"number": 1, **fields}, format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert (code, field) in [(e["code"], e["field"]) for e in errors]
    assert all({"code", "message", "field", "round"} <= set(e) for e in errors)
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "number"),
        ({"number": "one"}, "number"),
        ({"number": 0}, "number"),
        ({"number": 10**30}, "number"),
        ({"number": None}, "number"),
        ([1, 2], None),
        ("round", None),
    ],
)
def test_a_malformed_entry_is_a_400(
    top: Game, as_director: APIClient, body: Any, field: str | None
) -> None:
    response = as_director.post(rounds_url(top), body, format="json")
    assert response.status_code == 400
    payload = response.json()
    assert payload["code"] == "invalid_input"
    assert payload.get("field") == field
    assert not Round.objects.exists()


def test_a_round_number_out_of_order_is_a_409_with_the_game(
    top: Game, as_director: APIClient
) -> None:
    response = as_director.post(rounds_url(top), first_round(top, number=3), format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "round_number_out_of_order"
    assert body["game"]["id"] == top.pk
    assert body["game"]["verdict"]["valid"] is True


def test_the_same_round_sent_twice_without_a_key_is_a_409_with_the_current_state(
    top: Game, director: Any
) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    assert scorer.post(rounds_url(top), data, format="json").status_code == 201
    again = scorer.post(rounds_url(top), data, format="json")
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "round_number_taken"
    assert body["game"]["record"]["rounds"] == [{k: v for k, v in data.items() if k != "number"}]
    assert body["game"]["round_count"] == 1
    different = dict(data, tricks={data["dealer"]: 5})
    other = scorer.post(rounds_url(top), different, format="json")
    assert other.status_code == 409
    assert other.json()["code"] == "round_number_taken"
    assert Round.objects.filter(game=top).count() == 1


def test_a_retry_with_the_same_key_replays_the_first_answer_and_stores_nothing(
    top: Game, director: Any
) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    first = scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    before = db_state()
    retry = scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert db_state() == before
    assert IdempotencyRecord.objects.count() == 1


def test_a_key_reused_with_another_body_is_a_422(top: Game, director: Any) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    before = db_state()
    other = dict(data, number=2)
    response = scorer.post(rounds_url(top), other, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert db_state() == before


def test_a_refusal_is_replayed_too_and_keys_are_per_caller(
    top: Game, director: Any, as_director: APIClient
) -> None:
    scorer = scorer_client(top.table_id, director)
    bad = dict(first_round(top), tricks={})
    refused = scorer.post(rounds_url(top), bad, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert refused.status_code == 400
    again = scorer.post(rounds_url(top), bad, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert (again.status_code, again.json()) == (400, refused.json())
    # The same key from another caller is another request.
    good = first_round(top)
    stored = as_director.post(rounds_url(top), good, format="json", HTTP_IDEMPOTENCY_KEY="same")
    assert stored.status_code == 201
    assert IdempotencyRecord.objects.count() == 2


def test_an_invalid_idempotency_key_is_a_400(top: Game, as_director: APIClient) -> None:
    response = as_director.post(
        rounds_url(top), first_round(top), format="json", HTTP_IDEMPOTENCY_KEY="x" * 256
    )
    assert response.status_code == 400
    assert response.json()["field"] == "Idempotency-Key"
    assert not Round.objects.exists()


def test_an_expired_key_is_forgotten(top: Game, director: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="old")
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=25))
    again = scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert again.status_code == 409
    assert IdempotencyRecord.objects.get().status_code == 409


def test_double_entry_waits_for_a_second_matching_entry(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, double_entry=True)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    first, second = scorer_client(game.table_id, director), scorer_client(game.table_id, director)
    data = first_round(game)
    pending = first.post(rounds_url(game), data, format="json")
    assert pending.status_code == 202
    assert pending.json()["pending"]["round"] == {k: v for k, v in data.items() if k != "number"}
    assert pending.json()["pending"]["yours"] is True
    assert not Round.objects.exists()
    listed = second.get(f"/api/games/{game.pk}/pending/").json()
    assert [(p["number"], p["yours"]) for p in listed] == [(1, False)]
    confirmed = second.post(rounds_url(game), data, format="json")
    assert confirmed.status_code == 201
    assert Round.objects.filter(game=game).count() == 1
    assert not PendingRound.objects.exists()


def test_a_double_entry_mismatch_is_a_409_with_both_entries(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, double_entry=True)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    first, second = scorer_client(game.table_id, director), scorer_client(game.table_id, director)
    data = first_round(game)
    assert first.post(rounds_url(game), data, format="json").status_code == 202
    other = dict(data, tricks={data["dealer"]: 5})
    response = second.post(rounds_url(game), other, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "double_entry_mismatch"
    assert sorted(e["yours"] for e in body["entries"]) == [False, True]
    assert PendingRound.objects.count() == 2
    assert not Round.objects.exists()


def test_a_round_is_corrected_and_deleted(top: Game, director: Any) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)
    scorer.post(rounds_url(top), data, format="json")
    fixed = {"dealer": data["dealer"], "tricks": {data["dealer"]: 5}}
    response = scorer.put(f"{rounds_url(top)}1/", fixed, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["round"] == {"number": 1, **fixed}
    assert response.json()["verdict"]["scores"][data["dealer"]] == 5
    refused = scorer.put(f"{rounds_url(top)}1/", {"tricks": {}}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "round_invalid"
    assert scorer.put(f"{rounds_url(top)}2/", fixed, format="json").status_code == 404
    deleted = scorer.delete(f"{rounds_url(top)}1/")
    assert deleted.status_code == 200
    assert deleted.json()["game"]["round_count"] == 0
    assert not Round.objects.exists()
    assert [c.action for c in RoundChange.objects.order_by("at", "id")] == [
        "enter",
        "edit",
        "delete",
    ]
    assert scorer.delete(f"{rounds_url(top)}1/").status_code == 404


def test_a_finished_game_starts_the_next_with_the_winner_dealing(
    top: Game, as_director: APIClient
) -> None:
    winner = records.game_record(top)["players"][0]
    for number in (1, 2, 3):
        data = first_round(top, number, taker=winner)
        response = as_director.post(rounds_url(top), data, format="json")
        assert response.status_code == 201, response.json()
    verdict = response.json()["verdict"]
    assert (verdict["finished"], verdict["winner"]) == (True, winner)
    table = as_director.get(f"/api/tables/{top.table_id}/").json()
    assert [(g["number"], g["status"]) for g in table["games"]] == [
        (1, "finished"),
        (2, "playing"),
    ]
    game2 = as_director.get(f"/api/games/{table['games'][1]['id']}/").json()
    assert game2["record"]["first_dealer"] == verdict["winner"]
    assert game2["first_dealer_source"] == "previous_winner"


def test_results_are_refused_once_the_session_is_not_running(
    make_session: Callable[..., Session], director: Any
) -> None:
    from workflow.session import start_finish

    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    start_finish.session_finish(session_id=session.pk, early=True, user=director)
    response = token_client(director).post(rounds_url(game), first_round(game), format="json")
    # The round is well formed; the session's state refuses it.
    assert response.status_code == 409
    assert response.json()["code"] == "session_not_running"


def test_the_cleanup_command_drops_expired_keys(top: Game, director: Any) -> None:
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    scorer = scorer_client(top.table_id, director)
    scorer.post(rounds_url(top), first_round(top), format="json", HTTP_IDEMPOTENCY_KEY="a")
    scorer.get(rounds_url(top), HTTP_IDEMPOTENCY_KEY="reads-are-not-stored")
    scorer.post(rounds_url(top), first_round(top, 2), format="json", HTTP_IDEMPOTENCY_KEY="b")
    assert IdempotencyRecord.objects.count() == 2
    IdempotencyRecord.objects.filter(key="a").update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    out = StringIO()
    call_command("api_idempotency_cleanup", stdout=out)
    assert "Deleted 1" in out.getvalue()
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["b"]
