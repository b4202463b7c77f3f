"""The director's writes through the API, each answered with the new state, and each
refusal of the services passed on with its code."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game
from tests.api.conftest import db_state, token_client
from tournaments.models import (
    Placing,
    Player,
    ScorerLink,
    Season,
    Seating,
    Session,
    SessionStanding,
    Sitting,
)
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.session.simulation import play_game

pytestmark = pytest.mark.django_db


def test_a_director_runs_a_session_from_creation_to_movement(
    season: Season, as_director: APIClient
) -> None:
    ann = Player.objects.create(club=season.club, name="Ann")
    created = as_director.post(
        "/api/clubs/tuesday/sessions/",
        {
            "season": season.pk,
            "name": "Tuesday night",
            "date": "2026-03-03",
            "seed": 5,
            "player_ids": [ann.pk],
            "new_names": ["bob", "Cy", "Dee", "Eve", "Fay", "Gus", "  ann  ", "Hal"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    session = created.json()
    assert (session["status"], session["seed"], session["rules_id"]) == ("setup", 5, "huckley-buck")
    names = {"Ann", "bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}
    assert {e["name"] for e in session["entries"]} == names
    url = f"/api/sessions/{session['id']}/"
    ids = [e["player_id"] for e in session["entries"]]
    checked = as_director.post(f"{url}check-in/", {"player_ids": ids}, format="json")
    assert checked.status_code == 200
    assert all(e["checked_in"] for e in checked.json()["entries"])
    started = as_director.post(f"{url}start/")
    assert started.status_code == 201, started.json()
    sitting = started.json()
    assert sitting["number"] == 1
    assert [len(t["seatings"]) for t in sitting["tables"]] == [4, 4]
    again = as_director.post(f"{url}start/")
    assert again.status_code == 409
    assert again.json()["code"] == "session_started"
    refused = as_director.get(f"{url}movement/")
    assert (refused.status_code, refused.json()["code"]) == (409, "sitting_unfinished")
    fake_results(Sitting.objects.get(pk=sitting["id"]), random.Random(2))
    preview = as_director.get(f"{url}movement/").json()
    assert preview["sitting"] == 1
    placings = [p for t in preview["tables"] for p in t["placings"]]
    assert len(placings) == 8
    assert {p["direction"] for p in placings} <= {"up", "down", "stay"}
    assert all(p["reason"] and p["move_reason"] for p in placings)
    moved = as_director.post(f"{url}movement/", {"sitting": 1}, format="json")
    assert moved.status_code == 201, moved.json()
    assert moved.json()["number"] == 2
    assert Placing.objects.count() == 8
    twice = as_director.post(f"{url}movement/", {"sitting": 1}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "movement_already_confirmed")
    undone = as_director.post(f"{url}movement/undo/")
    assert undone.status_code == 200
    assert (undone.json()["number"], undone.json()["moved_at"]) == (1, None)
    assert not Placing.objects.exists()


def test_settings_change_only_what_is_sent(running: Session, as_director: APIClient) -> None:
    response = as_director.patch(
        f"/api/sessions/{running.pk}/", {"double_entry": True}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["double_entry"], body["is_public"], body["games_per_sitting"]) == (True, True, 2)
    refused = as_director.patch(
        f"/api/sessions/{running.pk}/", {"games_per_sitting": 4}, format="json"
    )
    assert refused.status_code == 400
    # Refused by the input's bounds, which the schema states (minimum 2, maximum 3).
    assert (refused.json()["code"], refused.json()["field"]) == (
        "invalid_input",
        "games_per_sitting",
    )


def test_a_late_arrival_sits_at_the_bottom_table(running: Session, as_director: APIClient) -> None:
    response = as_director.post(
        f"/api/sessions/{running.pk}/players/", {"new_names": ["Late Larry"]}, format="json"
    )
    assert response.status_code == 200, response.json()
    larry = next(e for e in response.json()["entries"] if e["name"] == "Late Larry")
    assert (larry["checked_in"], larry["arrived_late"]) == (True, True)
    seating = Seating.objects.get(player_id=larry["player_id"])
    assert seating.table.rank == 2
    nobody = as_director.post(f"/api/sessions/{running.pk}/players/", {}, format="json")
    assert (nobody.status_code, nobody.json()["code"]) == (400, "no_players")


def test_a_withdrawal_and_the_rebalance_it_calls_for(
    make_session: Callable[..., Session], as_director: APIClient
) -> None:
    session = make_session(9)  # tables of 5 and 4
    url = f"/api/sessions/{session.pk}/"
    small = Game.objects.get(table__sitting__session=session, table__rank=2)
    for gp in list(small.game_players.all())[:2]:
        response = as_director.post(f"{url}withdraw/", {"player_id": gp.player_id}, format="json")
        assert response.status_code == 200, response.json()
    proposal = as_director.get(f"{url}rebalance/").json()["moves"]
    assert proposal, "a table of two needs players"
    stale = [dict(proposal[0], to_rank=proposal[0]["to_rank"] + 5)]
    before = db_state()
    refused = as_director.post(f"{url}rebalance/", {"moves": stale}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "proposal_changed")
    assert db_state() == before
    applied = as_director.post(f"{url}rebalance/", {"moves": proposal}, format="json")
    assert applied.status_code == 200, applied.json()
    assert applied.json()["moved"] == len(proposal)
    assert as_director.get(f"{url}rebalance/").json()["moves"] == []


def test_a_withdrawal_mid_game_is_refused(running: Session, director: Any) -> None:
    from scoring import services as scoring
    from tests.api.conftest import first_round

    game = Game.objects.get(table__sitting__session=running, table__rank=1)
    data = first_round(game)
    del data["number"]
    scoring.round_submit(game_id=game.pk, number=1, data=data, actor=director)
    player_id = game.game_players.first().player_id
    before = db_state()
    response = token_client(director).post(
        f"/api/sessions/{running.pk}/withdraw/", {"player_id": player_id}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (409, "withdrawal_mid_game")
    assert db_state() == before


def test_finishing_needs_early_while_games_are_unplayed(
    running: Session, as_director: APIClient
) -> None:
    url = f"/api/sessions/{running.pk}/finish/"
    refused = as_director.post(url, {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "sitting_unfinished")
    # The top table finished its first game: only its four players have a place.
    top = Game.objects.get(table__sitting__session=running, table__rank=1, number=1)
    play_game(top, seed=3)
    finished = as_director.post(url, {"early": True}, format="json")
    assert finished.status_code == 200
    assert (finished.json()["status"], finished.json()["ended_early"]) == ("finished", True)
    assert SessionStanding.objects.filter(session=running).count() == 4


def test_scorer_links_are_handed_out_listed_and_revoked(top: Game, as_director: APIClient) -> None:
    url = f"/api/tables/{top.table_id}/scorer-links/"
    created = as_director.post(url)
    assert created.status_code == 201
    link = created.json()
    assert link["url"].endswith(f"/score/{link['token']}/")
    assert [x["token"] for x in as_director.get(url).json()] == [link["token"]]
    scorer = APIClient()
    scorer.credentials(HTTP_X_SCORER_TOKEN=link["token"])
    assert scorer.get(f"/api/games/{top.pk}/pending/").status_code == 200
    replaced = as_director.post(url).json()
    assert [x["token"] for x in as_director.get(url).json()] == [replaced["token"]]
    expired = scorer.get(f"/api/games/{top.pk}/pending/")
    assert (expired.status_code, expired.json()["code"]) == (401, "scorer_link_expired")
    revoked = as_director.delete(url)
    assert revoked.json() == {"revoked": 1}
    assert as_director.get(url).json() == []
    assert ScorerLink.objects.filter(revoked_at__isnull=True).count() == 0


def test_a_session_is_refused_with_a_season_of_another_club(
    season: Season, as_director: APIClient
) -> None:
    from tests.factories import SeasonFactory

    other = SeasonFactory()
    response = as_director.post(
        "/api/clubs/tuesday/sessions/",
        {"season": other.pk, "name": "x", "date": "2026-01-01"},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "season_not_in_club")
    unknown = as_director.post(
        "/api/clubs/tuesday/sessions/",
        {"season": 10**12, "name": "x", "date": "2026-01-01"},
        format="json",
    )
    assert (unknown.status_code, unknown.json()["field"]) == (400, "season")
    invalid = as_director.post(
        "/api/clubs/tuesday/sessions/",
        {"season": season.pk, "name": "", "date": "someday", "rules_id": "poker"},
        format="json",
    )
    assert invalid.status_code == 400
    assert {e["field"] for e in invalid.json()["errors"]} == {"name", "date"}
    poker = as_director.post(
        "/api/clubs/tuesday/sessions/",
        {"season": season.pk, "name": "x", "date": "2026-01-01", "rules_id": "poker"},
        format="json",
    )
    assert (poker.status_code, poker.json()["code"]) == (400, "unknown_rules")
    assert not Session.objects.exists()


def test_a_director_gets_a_token_with_the_password(club: Any) -> None:
    response = APIClient().post(
        "/api/auth/token/",
        {"username": "dee-director", "password": "pw-for-tests-only"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/clubs/tuesday/").json()["may_direct"] is True
    wrong = APIClient().post(
        "/api/auth/token/", {"username": "dee-director", "password": "nope"}, format="json"
    )
    # A wrong password is refused credentials (401, saying the scheme); the body keeps
    # its code. A body without a password is a malformed request (400).
    assert wrong.status_code == 401
    assert wrong.headers["WWW-Authenticate"] == "Token"
    assert wrong.json()["code"] == "invalid_input"
    assert wrong.json()["errors"][0]["code"] == "authorization"
    missing = APIClient().post("/api/auth/token/", {"username": "dee-director"}, format="json")
    assert (missing.status_code, missing.json()["field"]) == (400, "password")


def test_guessing_passwords_is_locked_out(director: Any) -> None:
    wrong = {"username": "dee-director", "password": "nope"}
    statuses = [
        APIClient().post("/api/auth/token/", wrong, format="json").status_code for _ in range(7)
    ]
    assert statuses[:4] == [401] * 4  # AXES_FAILURE_LIMIT is 5
    assert statuses[-1] == 429
    right = {"username": "dee-director", "password": "pw-for-tests-only"}
    locked = APIClient().post("/api/auth/token/", right, format="json")
    assert locked.status_code == 429
    assert locked.json()["code"] in {"throttled", "locked_out"}
