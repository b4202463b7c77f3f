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
