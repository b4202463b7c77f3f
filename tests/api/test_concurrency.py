"""Real concurrent requests on PostgreSQL: scorers racing to enter the same round, and a
client retrying with one Idempotency-Key while its first request is still running, and
two scorers of a double-entry session entering the same round at once.

Each thread has its own client and database connection, and all start together at a
barrier; the game row lock in `scoring.services` and the idempotency record's unique
constraint must make exactly one of them win. SQLite serializes every write, so these
tests need PostgreSQL (.ci/run provides it and turns a skip into a failure).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from api.models import IdempotencyRecord
from scoring.models import Game, PendingRound, Round, RoundChange
from tests.api.conftest import first_round
from tournaments.models import Session
from workflow.tables import links as table_links

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

THREADS = 6


def race(requests: list[Callable[[Client], Any]], clients: list[Client]) -> list[Any]:
    """Run each request on its own thread and connection, all released at once."""
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = requests[i](clients[i])
        except BaseException as exc:  # reported below, on the test's thread
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    return results


@pytest.fixture
def scored_game(make_session: Callable[..., Session], director: Any) -> tuple[Game, str]:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    return game, link.token


def post_round(url: str, data: dict[str, Any], **headers: str) -> Callable[[Client], Any]:
    def call(client: Client) -> Any:
        response = client.post(
            url, json.dumps(data), content_type="application/json", headers=headers
        )
        return response.status_code, response.json(), response.get("Idempotent-Replayed")

    return call


def test_scorers_racing_for_round_one_store_it_once(scored_game: tuple[Game, str]) -> None:
    game, token = scored_game
    url = f"/api/games/{game.pk}/rounds/"
    data = first_round(game)
    clients = [Client(headers={"X-Scorer-Token": token}) for _ in range(THREADS)]
    results = race([post_round(url, data)] * THREADS, clients)
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [201] + [409] * (THREADS - 1)
    for status, body, _ in results:
        if status == 409:
            assert body["code"] == "round_number_taken"
            assert body["game"]["round_count"] == 1
    assert Round.objects.filter(game=game).count() == 1
    assert RoundChange.objects.filter(game=game).count() == 1


def test_different_rounds_racing_for_one_number_store_one(
    scored_game: tuple[Game, str],
) -> None:
    game, token = scored_game
    url = f"/api/games/{game.pk}/rounds/"
    players = [gp.name for gp in game.game_players.order_by("seat")]
    rounds = [first_round(game, taker=players[i % len(players)]) for i in range(THREADS)]
    clients = [Client(headers={"X-Scorer-Token": token}) for _ in range(THREADS)]
    results = race([post_round(url, r) for r in rounds], clients)
    winners = [i for i, (status, _, _) in enumerate(results) if status == 201]
    assert len(winners) == 1
    assert all(status == 409 for i, (status, _, _) in enumerate(results) if i not in winners)
    stored = Round.objects.get(game=game)
    assert stored.data["tricks"] == rounds[winners[0]]["tricks"]


def test_one_idempotency_key_sent_at_once_is_applied_once(
    scored_game: tuple[Game, str],
) -> None:
    game, token = scored_game
    url = f"/api/games/{game.pk}/rounds/"
    data = first_round(game)
    clients = [Client(headers={"X-Scorer-Token": token}) for _ in range(THREADS)]
    call = post_round(url, data, **{"Idempotency-Key": "retry-storm"})
    results = race([call] * THREADS, clients)
    assert [status for status, _, _ in results] == [201] * THREADS
    assert len({json.dumps(body, sort_keys=True) for _, body, _ in results}) == 1
    assert sorted(replayed or "" for _, _, replayed in results) == [""] + ["true"] * (THREADS - 1)
    assert Round.objects.filter(game=game).count() == 1
    assert IdempotencyRecord.objects.count() == 1


@pytest.fixture
def double_entry_game(make_session: Callable[..., Session], director: Any) -> tuple[Game, str]:
    session = make_session(8, double_entry=True)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    return game, link.token


def two_scorers(token: str) -> list[Client]:
    """Two phones at one table: the same scorer link, each its own device."""
    return [Client(headers={"X-Scorer-Token": token, "X-Device-Id": f"phone-{i}"}) for i in (1, 2)]


@pytest.mark.parametrize("attempt", range(3))
def test_two_scorers_entering_the_same_round_at_once_confirm_it_once(
    double_entry_game: tuple[Game, str], attempt: int
) -> None:
    game, token = double_entry_game
    data = first_round(game)
    results = race([post_round(f"/api/games/{game.pk}/rounds/", data)] * 2, two_scorers(token))
    # Whoever the game's row lock lets in first waits; the second confirms it.
    assert sorted(status for status, _, _ in results) == [201, 202]
    assert Round.objects.filter(game=game).count() == 1
    assert not PendingRound.objects.filter(game=game).exists()
    change = RoundChange.objects.get(game=game)
    assert change.note.startswith("double entry: confirmed")


@pytest.mark.parametrize("attempt", range(3))
def test_two_scorers_entering_a_round_differently_at_once_store_nothing(
    double_entry_game: tuple[Game, str], attempt: int
) -> None:
    game, token = double_entry_game
    url = f"/api/games/{game.pk}/rounds/"
    players = [gp.name for gp in game.game_players.order_by("seat")]
    rounds = [first_round(game, taker=players[0]), first_round(game, taker=players[1])]
    results = race([post_round(url, r) for r in rounds], two_scorers(token))
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [202, 409]
    mismatch = next(body for status, body, _ in results if status == 409)
    assert mismatch["code"] == "double_entry_mismatch"
    assert len(mismatch["entries"]) == 2
    assert not Round.objects.filter(game=game).exists()
    assert PendingRound.objects.filter(game=game).count() == 2
