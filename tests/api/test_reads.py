"""Every read endpoint's happy path, and who sees a private session."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from play import services as play_services
from scoring.models import Game
from tests.api.conftest import first_round, scorer_client, token_client
from tests.factories import UserFactory
from tournaments.models import BigLoserAward, Player, Season, Session

pytestmark = pytest.mark.django_db


def test_it_lists_clubs_and_shows_one_with_its_seasons(
    running: Session, season: Season, as_director: APIClient
) -> None:
    assert APIClient().get("/api/clubs/").json() == [
        {"slug": "tuesday", "name": "Tuesday Club", "big_loser_criterion": "hooks"}
    ]
    club = APIClient().get("/api/clubs/tuesday/").json()
    assert club["may_direct"] is False
    assert [s["name"] for s in club["seasons"]] == ["2026"]
    assert as_director.get("/api/clubs/tuesday/").json()["may_direct"] is True
    assert APIClient().get("/api/clubs/nowhere/").status_code == 404


def test_it_lists_a_clubs_seasons_with_the_big_loser(
    running: Session, season: Season, director: Any
) -> None:
    player = Player.objects.filter(club=season.club).first()
    BigLoserAward.objects.create(season=season, player=player, note="most hooks")
    seasons = APIClient().get("/api/clubs/tuesday/seasons/").json()
    assert seasons == [
        {
            "id": season.pk,
            "name": "2026",
            "starts_on": "2026-01-01",
            "ends_on": "2026-12-31",
            "big_loser": {"player_id": player.pk, "name": player.name, "note": "most hooks"},
        }
    ]


def test_only_directors_list_a_clubs_players(running: Session, as_director: APIClient) -> None:
    players = as_director.get("/api/clubs/tuesday/players/").json()
    assert len(players) == 8
    assert set(players[0]) == {"id", "name"}
    assert APIClient().get("/api/clubs/tuesday/players/").status_code == 401
    stranger = token_client(UserFactory(username="nosy"))
    assert stranger.get("/api/clubs/tuesday/players/").status_code == 403


def test_season_standings_count_finished_sessions(
    make_session: Callable[..., Session], season: Season, director: Any
) -> None:
    from django.core.cache import cache

    from workflow.club import selectors as club_selectors
    from workflow.session import start_finish
    from workflow.session.simulation import finish_sitting_unplayed

    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(7))
    start_finish.session_finish(session_id=session.pk, early=True, user=director)
    cache.delete(club_selectors.season_cache_key(season.pk))  # ids repeat across tests
    rows = APIClient().get(f"/api/seasons/{season.pk}/standings/").json()
    assert [r["position"] for r in rows] == list(range(1, 9))
    assert set(rows[0]) == {
        "position",
        "player_id",
        "name",
        "sessions",
        "games_won",
        "points",
        "hooks",
        "average_finish",
        "prizes",
    }
    assert APIClient().get("/api/seasons/999999/standings/").status_code == 404


def test_it_shows_a_session_with_its_roster(running: Session, as_director: APIClient) -> None:
    public = APIClient().get(f"/api/sessions/{running.pk}/").json()
    assert public["status"] == "running"
    assert public["seed"] is None
    assert public["current_sitting"]["number"] == 1
    assert len(public["entries"]) == 8
    assert all(e["checked_in"] for e in public["entries"])
    assert as_director.get(f"/api/sessions/{running.pk}/").json()["seed"] == running.seed


def test_it_lists_sessions_with_filters(running: Session) -> None:
    page = APIClient().get("/api/sessions/").json()
    assert page["count"] == 1
    assert page["results"][0]["id"] == running.pk
    assert APIClient().get("/api/sessions/?status=finished").json()["count"] == 0
    assert APIClient().get("/api/sessions/?club=tuesday").json()["count"] == 1
    assert APIClient().get(f"/api/sessions/?season={running.season_id}").json()["count"] == 1
    assert APIClient().get("/api/clubs/tuesday/sessions/").json()[0]["id"] == running.pk
    refused = APIClient().get("/api/sessions/?limit=0&status=nope")
    assert refused.status_code == 400
    assert {e["field"] for e in refused.json()["errors"]} == {"limit", "status"}


def test_it_shows_sittings_tables_and_seatings_in_seat_order(running: Session) -> None:
    sittings = APIClient().get(f"/api/sessions/{running.pk}/sittings/").json()
    assert [s["number"] for s in sittings] == [1]
    sitting = APIClient().get(f"/api/sittings/{sittings[0]['id']}/").json()
    assert [t["rank"] for t in sitting["tables"]] == [1, 2]
    for table in sitting["tables"]:
        assert [s["seat"] for s in table["seatings"]] == [1, 2, 3, 4]
        assert table["games_total"] == 2
        assert table["current_game"] is not None
    table = APIClient().get(f"/api/tables/{sitting['tables'][0]['id']}/").json()
    assert table["rank"] == 1
    assert table["sitting"]["number"] == 1
    assert [g["number"] for g in table["games"]] == [1]
    assert [s["seat"] for s in table["seatings"]] == [1, 2, 3, 4]


def test_each_table_of_a_sitting_says_whether_it_plays_online_and_no_seat_token_shows(
    running: Session, director: Any, as_director: APIClient
) -> None:
    sitting = running.sittings.get()
    online = sitting.tables.get(rank=2)
    play_services.table_online_set(table_id=online.pk, online=True, user=director)
    tokens = [
        r["token"] for r in play_services.seat_links_ensure(session_id=running.pk, user=director)
    ]
    assert len(tokens) == 8
    for client in [APIClient(), as_director]:
        response = client.get(f"/api/sittings/{sitting.pk}/")
        tables = {t["rank"]: t for t in response.json()["tables"]}
        assert {rank: t["online"] for rank, t in tables.items()} == {1: False, 2: True}
        assert [len(t["seatings"]) for t in tables.values()] == [4, 4]
        body = response.content.decode()
        assert not [token for token in tokens if token in body]
        assert "/play/" not in body


def test_a_game_is_its_record_and_the_engines_verdict(
    top: Game, director: Any, as_director: APIClient
) -> None:
    from scoring import services as scoring

    data = first_round(top)
    scoring.round_submit(game_id=top.pk, number=1, data={"tricks": data["tricks"]}, actor=director)
    game = APIClient().get(f"/api/games/{top.pk}/").json()
    assert game["record"]["format"] == "buck-game/1"
    assert game["record"]["rounds"] == [{"tricks": data["tricks"]}]
    assert game["verdict"] == engine.check(game["record"])
    assert game["status"] == "playing"
    rounds = APIClient().get(f"/api/games/{top.pk}/rounds/").json()
    assert rounds == [{"number": 1, "tricks": data["tricks"]}]
    assert APIClient().get(f"/api/games/{top.pk}/rounds/1/").json() == rounds[0]
    assert APIClient().get(f"/api/games/{top.pk}/rounds/2/").status_code == 404
    changes = as_director.get(f"/api/games/{top.pk}/changes/").json()
    assert [(c["action"], c["round_number"], c["user"]) for c in changes] == [
        ("enter", 1, "dee-director")
    ]
    assert changes[0]["after"] == {"tricks": data["tricks"]}
    assert APIClient().get(f"/api/games/{top.pk}/changes/").status_code == 401
    scorer = scorer_client(top.table_id, director)
    assert scorer.get(f"/api/games/{top.pk}/changes/").status_code == 403


def test_session_standings(running: Session) -> None:
    rows = APIClient().get(f"/api/sessions/{running.pk}/standings/").json()
    assert [r["position"] for r in rows] == list(range(1, 9))
    assert {r["table_rank"] for r in rows} == {1, 2}


def test_rules_come_from_the_engine() -> None:
    rules = APIClient().get("/api/rules/").json()
    assert [r["id"] for r in rules] == list(engine.RULES)
    one = APIClient().get("/api/rules/huckley-buck/").json()
    assert one == engine.RULES["huckley-buck"].as_dict()
    assert APIClient().get("/api/rules/poker/").json()["code"] == "not_found"


@pytest.mark.parametrize(
    "url",
    [
        "/api/sessions/{pk}/",
        "/api/sessions/{pk}/standings/",
        "/api/sessions/{pk}/sittings/",
        "/api/sittings/{sitting}/",
        "/api/tables/{table}/",
        "/api/games/{game}/",
        "/api/games/{game}/rounds/",
    ],
)
def test_a_private_session_is_a_404_for_those_who_may_not_see_it(
    make_session: Callable[..., Session], director: Any, url: str
) -> None:
    session = make_session(8, is_public=False)
    sitting = session.sittings.get()
    table = sitting.tables.get(rank=1)
    game = Game.objects.get(table=table)
    path = url.format(pk=session.pk, sitting=sitting.pk, table=table.pk, game=game.pk)
    for client in [APIClient(), token_client(UserFactory(username="someone"))]:
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    player = UserFactory(username="playing")
    Player.objects.filter(pk=session.entries.first().player_id).update(user=player)
    assert token_client(player).get(path).status_code == 200
    assert token_client(director).get(path).status_code == 200
    assert scorer_client(table.pk, director).get(path).status_code == 200
    assert APIClient().get("/api/sessions/").json()["count"] == 0
    assert token_client(player).get("/api/sessions/").json()["count"] == 1
