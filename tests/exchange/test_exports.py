"""Exports: a session's games as JSON and CSV, a season's ladder as CSV, with the
session's visibility; the JSON records read by the engine's own command line."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import records
from scoring.models import Game, GamePlayer
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Club, Season, Session
from workflow.club import selectors as club_selectors
from workflow.session.simulation import PlayOptions, generated_names, play_game, play_session

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def finished(club: Club, season: Season, director: Any) -> Session:
    """A finished private session of 9 players, two sittings, every game played."""
    return play_session(
        club=club,
        season=season,
        name="Club night",
        day=season.starts_on,
        players=generated_names(9),
        options=PlayOptions(sittings=2, seed=3, public=False, user=director),
    )


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def director_api(director: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(director)
    return api


def test_the_json_export_holds_every_game_with_its_ids_and_record(
    finished: Session, director: Any
) -> None:
    response = director_api(director).get(f"/api/sessions/{finished.pk}/export.json")
    assert response.status_code == 200
    body = response.json()
    assert body["session"]["id"] == finished.pk
    games = Game.objects.filter(table__sitting__session=finished).select_related("table__sitting")
    assert len(body["games"]) == games.count() > 0
    by_id = {g["game_id"]: g for g in body["games"]}
    for game in games:
        entry = by_id[game.pk]
        assert entry["session_id"] == finished.pk
        assert entry["sitting_id"] == game.table.sitting_id
        assert entry["table_id"] == game.table_id
        assert (entry["sitting"], entry["table"], entry["game"]) == (
            game.table.sitting.number,
            game.table.rank,
            game.number,
        )
        # Exactly the game record format: the same keys and values the site checks.
        assert entry["record"] == records.game_record(game)
        assert entry["record"]["format"] == "buck-game/1"


def test_the_engine_command_line_gives_the_same_verdict_as_the_site(
    make_session: Any, director: Any, tmp_path: Path
) -> None:
    session = make_session(8)
    finished_game, under_way = Game.objects.filter(table__sitting__session=session).order_by(
        "table__rank"
    )[:2]
    play_game(finished_game, seed=11, user=director)
    play_game(under_way, seed=12, rounds=2, user=director)
    body = director_api(director).get(f"/api/sessions/{session.pk}/export.json").json()
    checked = 0
    for entry in body["games"]:
        path = tmp_path / f"game-{entry['game_id']}.json"
        path.write_text(json.dumps(entry["record"]))
        run = subprocess.run(
            [sys.executable, "-m", "engine", "check", str(path)],
            capture_output=True,
            cwd=ROOT,
            check=False,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        verdict = json.loads(run.stdout)
        game = Game.objects.get(pk=entry["game_id"])
        assert verdict == records.game_check(game)
        stored = {gp.name: gp.score for gp in GamePlayer.objects.filter(game=game)}
        final = verdict["rounds"][-1]["scores"] if verdict["rounds"] else dict.fromkeys(stored, 0)
        assert final == stored
        checked += 1
    assert checked == Game.objects.filter(table__sitting__session=session).count() >= 2


def test_the_csv_export_has_one_row_per_player_per_game(finished: Session, director: Any) -> None:
    response = director_api(director).get(f"/api/sessions/{finished.pk}/export.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = rows_of(response.content.decode())
    stored = GamePlayer.objects.filter(game__table__sitting__session=finished)
    assert len(rows) == stored.count()
    assert {(int(r["game_id"]), int(r["player_id"])) for r in rows} == set(
        stored.values_list("game_id", "player_id")
    )
    totals: dict[int, int] = defaultdict(int)
    for r in rows:
        totals[int(r["player_id"])] += int(r["score"])
    expected: dict[int, int] = defaultdict(int)
    for player_id, score in stored.values_list("player_id", "score"):
        expected[player_id] += score
    assert totals == expected
    assert {r["won"] for r in rows} <= {"yes", "no"}


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv(
    club: Club, season: Season, director: Any
) -> None:
    session = play_session(
        club=club,
        season=season,
        name="=cmd()",
        day=season.starts_on,
        players=["=1+1", "@SUM(A1)", "Ann", "Bo"],
        options=PlayOptions(sittings=1, seed=5, user=director),
    )
    rows = rows_of(
        director_api(director).get(f"/api/sessions/{session.pk}/export.csv").content.decode()
    )
    assert {r["player"] for r in rows} == {"'=1+1", "'@SUM(A1)", "Ann", "Bo"}
    assert {r["session"] for r in rows} == {"'=cmd()"}


@pytest.mark.parametrize("suffix", ["export.json", "export.csv"])
def test_a_private_sessions_export_is_not_found_for_outsiders(
    finished: Session, suffix: str
) -> None:
    path = f"/api/sessions/{finished.pk}/{suffix}"
    assert APIClient().get(path).status_code == 404
    outsider = APIClient()
    outsider.force_authenticate(UserFactory())
    assert outsider.get(path).status_code == 404
    assert outsider.get(f"/api/sessions/{finished.pk + 1000}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", ["export.json", "export.csv"])
def test_a_player_on_the_roster_may_export_a_private_session(
    finished: Session, suffix: str
) -> None:
    user = UserFactory()
    entry = finished.entries.select_related("player").first()
    assert entry is not None
    entry.player.user = user
    entry.player.save()
    api = APIClient()
    api.force_authenticate(user)
    assert api.get(f"/api/sessions/{finished.pk}/{suffix}").status_code == 200


def test_a_public_sessions_export_needs_no_account(make_session: Any) -> None:
    session = make_session(8, is_public=True)
    assert APIClient().get(f"/api/sessions/{session.pk}/export.json").status_code == 200


def test_the_ladder_csv_follows_the_season_ladder(
    finished: Session, season: Season, club: Club
) -> None:
    response = APIClient().get(f"/api/seasons/{season.pk}/standings.csv")
    assert response.status_code == 200
    rows = rows_of(response.content.decode())
    ladder = club_selectors.season_standings(season.pk)
    assert [int(r["player_id"]) for r in rows] == [r.player.pk for r in ladder]
    assert [int(r["position"]) for r in rows] == list(range(1, len(ladder) + 1))
    assert [int(r["points"]) for r in rows] == [r.points for r in ladder]
    assert len(rows) == finished.entries.count()


def test_an_unknown_seasons_ladder_csv_is_not_found() -> None:
    assert APIClient().get("/api/seasons/987654/standings.csv").status_code == 404


def test_the_director_and_club_pages_link_the_exports(
    client: Any, director: Any, finished: Session, club: Club, season: Season
) -> None:
    client.force_login(director)
    manage = client.get(f"/director/sessions/{finished.pk}/").content.decode()
    assert f"/api/sessions/{finished.pk}/export.json" in manage
    assert f"/api/sessions/{finished.pk}/export.csv" in manage
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f"/api/seasons/{season.pk}/standings.csv" in page
    assert f"/api/clubs/{club.slug}/export.json" in page


def test_the_club_export_is_for_its_directors_only(club: Club, director: Any) -> None:
    path = f"/api/clubs/{club.slug}/export.json"
    assert APIClient().get(path).status_code == 401
    other = APIClient()
    other_director = UserFactory()
    ClubFactory().directors.add(other_director)
    other.force_authenticate(other_director)
    assert other.get(path).status_code == 403
    player = UserFactory()
    PlayerFactory(club=club, user=player)
    other.force_authenticate(player)
    assert other.get(path).status_code == 403
    assert director_api(director).get(path).status_code == 200
