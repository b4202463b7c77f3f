"""The refusals of the `Idempotency-Key` machinery change nothing: a malformed key, a key
reused with another body, a caller refused before the write, a write that crashed.
The replay itself and per-caller keys are in `test_rounds.py`."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from api.models import IdempotencyRecord
from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import first_round, scorer_client, token_client
from tests.factories import ClubFactory, UserFactory
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import Session

pytestmark = pytest.mark.django_db


def rounds_url(game: Game) -> str:
    return reverse("api:game_rounds", args=[game.pk])


@pytest.mark.parametrize("key", ["", "   ", "k" * 256, "tab\tinside", "bell\x07"], ids=repr)
def test_a_malformed_key_is_refused_before_anything_is_written(
    top: Game, as_director: APIClient, key: str
) -> None:
    before = db_snapshot()
    response = as_director.post(
        rounds_url(top), first_round(top), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][0]["code"] == "idempotency_key_invalid"
    assert changed_tables(before) == []


def test_a_key_of_255_printable_characters_is_accepted(top: Game, as_director: APIClient) -> None:
    key = "k" * 255
    response = as_director.post(
        rounds_url(top), first_round(top), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert response.status_code == 201, response.json()
    assert IdempotencyRecord.objects.get().key == key


def test_a_key_reused_on_a_director_write_with_another_body_changes_nothing(
    running: Session, as_director: APIClient
) -> None:
    url = reverse("api:session_players", args=[running.pk])
    first = as_director.post(
        url, {"new_names": ["Late Lou"]}, format="json", HTTP_IDEMPOTENCY_KEY="p"
    )
    assert first.status_code == 200, first.json()
    before = db_snapshot()
    reused = as_director.post(
        url, {"new_names": ["Other Olga"]}, format="json", HTTP_IDEMPOTENCY_KEY="p"
    )
    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"
    assert changed_tables(before) == []


def test_a_caller_refused_by_permissions_leaves_no_answer_under_the_key(
    top: Game, director: Any
) -> None:
    """The key is looked at only after the permission check, so a refused caller neither
    stores an answer nor learns one stored by somebody else."""
    stranger = UserFactory.create(username="elsewhere")
    ClubFactory.create().directors.add(stranger)
    client = token_client(stranger)
    before = db_snapshot()
    refused = client.post(
        rounds_url(top), first_round(top), format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    assert refused.status_code == 403
    assert changed_tables(before) == []
    assert not IdempotencyRecord.objects.exists()


def test_a_write_that_crashes_stores_no_answer_so_it_can_be_retried(
    top: Game, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    scorer = scorer_client(top.table_id, director)
    data = first_round(top)

    def crash(**kwargs: Any) -> None:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patched:
        patched.setattr(scoring, "round_submit", crash)
        before = db_snapshot()
        with pytest.raises(RuntimeError):
            scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="retry-me")
        assert changed_tables(before) == []
    retried = scorer.post(rounds_url(top), data, format="json", HTTP_IDEMPOTENCY_KEY="retry-me")
    assert retried.status_code == 201, retried.json()
    assert "Idempotent-Replayed" not in retried


# A key is bound to the method, the full path with its query, and the body ----------------


def entered(top: Game, director: Any) -> str:
    data = first_round(top)
    del data["number"]
    scoring.round_submit(game_id=top.pk, number=1, data=data, actor=director)
    return f"{rounds_url(top)}1/"


def test_a_key_used_for_a_preview_is_refused_for_the_delete_itself(
    top: Game, director: Any, as_director: APIClient
) -> None:
    url = entered(top, director)
    preview = as_director.delete(f"{url}?preview=true", HTTP_IDEMPOTENCY_KEY="del-1")
    assert preview.status_code == 200, preview.json()
    assert "preview" in preview.json()
    before = db_snapshot()
    reused = as_director.delete(url, HTTP_IDEMPOTENCY_KEY="del-1")
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert changed_tables(before) == []
    deleted = as_director.delete(url, HTTP_IDEMPOTENCY_KEY="del-2")
    assert deleted.status_code == 200, deleted.json()
    assert "preview" not in deleted.json()
    assert not top.rounds.exists()


def test_the_same_query_in_another_order_is_the_same_call(
    top: Game, director: Any, as_director: APIClient
) -> None:
    url = entered(top, director)
    first = as_director.delete(f"{url}?preview=true&confirm=false", HTTP_IDEMPOTENCY_KEY="k")
    again = as_director.delete(f"{url}?confirm=false&preview=true", HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


def test_a_key_reused_on_another_path_or_method_is_a_422_and_changes_nothing(
    top: Game, director: Any, as_director: APIClient
) -> None:
    url = entered(top, director)
    first = as_director.delete(f"{url}?preview=true", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 200
    before = db_snapshot()
    other_method = as_director.put(
        f"{url}?preview=true", {"tricks": {}}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    other_path = as_director.post(
        rounds_url(top), first_round(top) | {"number": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    for reused in (other_method, other_path):
        assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert changed_tables(before) == []


@pytest.mark.parametrize("query", ["?preview=", "?preview=abc", "?confirm=", "?confirm=maybe"])
def test_an_empty_or_unknown_flag_is_a_400_and_deletes_nothing(
    top: Game, director: Any, as_director: APIClient, query: str
) -> None:
    url = entered(top, director)
    before = db_snapshot()
    response = as_director.delete(f"{url}{query}")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_input"
    assert changed_tables(before) == []
