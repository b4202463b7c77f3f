"""Corrections through the API: `?preview=true` says what a correction or a deletion would
change and changes nothing; without `confirm` a change that would take rounds of the next
game off is refused as before (409 `next_game_started`: the next game's state refuses
it); with `confirm=true` it is made and what it took off is kept in the change history."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game, RoundChange
from tests.api.conftest import db_state, scorer_client
from tests.scoring.helpers import A_WINS, NOBODY_WINS_ROUND_4, dealer_order, play, split

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(top: Game) -> Game:
    """Game 1 won by its first dealer; game 2 started with one round."""
    play(top, A_WINS)
    play(Game.objects.get(table=top.table, number=2), [(3, 2)])
    return top


def url(game: Game, number: int, query: str = "") -> str:
    return f"/api/games/{game.pk}/rounds/{number}/{query}"


def reopening(game: Game) -> dict[str, Any]:
    return {"dealer": dealer_order(game)[3], **split(game, *NOBODY_WINS_ROUND_4)}


def test_a_preview_says_what_a_correction_would_change(
    decided: Game, as_director: APIClient
) -> None:
    before = db_state()
    response = as_director.put(url(decided, 4, "?preview=true"), reopening(decided), format="json")
    assert response.status_code == 200, response.json()
    preview = response.json()["preview"]
    assert preview["needs_confirm"] is True
    assert preview["reopens"] is True
    assert preview["next_game"] == {
        "action": "withdraw",
        "number": 2,
        "dealer_before": dealer_order(decided)[0],
        "dealer_after": None,
        "rounds_removed": 1,
    }
    assert any("Game 1 is open again" in line for line in preview["lines"])
    assert db_state() == before


def test_a_preview_of_a_deletion(decided: Game, as_director: APIClient) -> None:
    before = db_state()
    response = as_director.delete(url(decided, 4, "?preview=1"))
    assert response.status_code == 200
    assert response.json()["preview"]["next_game"]["rounds_removed"] == 1
    assert db_state() == before


def test_without_confirm_the_old_refusal_stands(decided: Game, as_director: APIClient) -> None:
    before = db_state()
    response = as_director.put(url(decided, 4), reopening(decided), format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "next_game_started"
    assert db_state() == before


def test_with_confirm_the_correction_is_made_and_kept(
    decided: Game, as_director: APIClient
) -> None:
    response = as_director.put(url(decided, 4, "?confirm=true"), reopening(decided), format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["game"]["status"] == "playing"
    assert not Game.objects.filter(table=decided.table, number=2).exists()
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.EDIT)
    assert change.removed is not None
    assert change.removed["game"] == 2


def test_a_bad_flag_is_a_400(decided: Game, as_director: APIClient) -> None:
    response = as_director.delete(url(decided, 4, "?confirm=perhaps"))
    assert response.status_code == 400
    assert Game.objects.filter(table=decided.table, number=2).exists()


def restore_url(game: Game, change: RoundChange) -> str:
    return f"/api/games/{game.pk}/changes/{change.pk}/restore/"


def test_a_director_restores_a_confirmed_correction(decided: Game, as_director: APIClient) -> None:
    as_director.put(url(decided, 4, "?confirm=true"), reopening(decided), format="json")
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.EDIT)
    history = as_director.get(f"/api/games/{decided.pk}/changes/").json()
    assert history[0]["removed"]["game"] == 2
    assert len(history[0]["removed"]["rounds"]) == 1
    response = as_director.post(restore_url(decided, change))
    assert response.status_code == 200, response.json()
    assert response.json()["action"] == "restore"
    assert Game.objects.get(table=decided.table, number=2).round_count == 1
    again = as_director.post(restore_url(decided, change))
    assert again.status_code == 409
    assert again.json()["code"] == "not_restorable"


def test_everyone_else_may_not_restore(
    decided: Game, director: Any, roles: dict[str, APIClient]
) -> None:
    scorer = scorer_client(decided.table_id, director)
    scorer.delete(url(decided, 4, "?confirm=true"))
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.DELETE)
    before = db_state()
    for name, client in {**roles, "the table's scorer": scorer}.items():
        response = client.post(restore_url(decided, change))
        assert response.status_code in (401, 403, 404), name
    assert db_state() == before
