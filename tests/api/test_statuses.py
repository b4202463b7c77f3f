"""Which status a refusal gets (docs/api.md, Errors): a well-formed request that the
session's or the game's state refuses is a 409; a request that is wrong whatever the
state is a 400. Each case is refused with its code, and changes nothing."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import db_state, first_round, token_client
from tournaments.models import PayoutTable, Season, Session
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed as fake_results

pytestmark = pytest.mark.django_db


@dataclass
class World:
    running: Session
    top: Game
    director: Any
    season: Season
    make_session: Callable[..., Session]

    def with_round(self) -> Game:
        data = first_round(self.top)
        del data["number"]
        scoring.round_submit(game_id=self.top.pk, number=1, data=data, actor=self.director)
        return self.top

    def moved(self) -> Session:
        fake_results(self.running.sittings.get(), random.Random(3))
        movements.sitting_move_players(
            session_id=self.running.pk, sitting_number=1, user=self.director
        )
        return self.running


@pytest.fixture
def world(running: Session, top: Game, director: Any, season: Season, make_session: Any) -> World:
    return World(running, top, director, season, make_session)


# (method, url, body) from the world, after any setup the case needs.
Case = Callable[[World], tuple[str, str, Any]]


def _session(w: World | Session, path: str) -> str:
    session = w.running if isinstance(w, World) else w
    return f"/api/sessions/{session.pk}/{path}"


def _unstarted(w: World, path: str) -> str:
    return f"/api/sessions/{w.make_session(8, start=False, seed=11).pk}/{path}"


def _finished(w: World) -> Session:
    from workflow.session import start_finish

    start_finish.session_finish(session_id=w.running.pk, early=True, user=w.director)
    return w.running


def _closed_season(w: World) -> tuple[str, str, Any]:
    Season.objects.filter(pk=w.season.pk).update(closed_at=timezone.now())
    body = {"season": w.season.pk, "name": "Late", "date": "2026-03-01", "new_names": ["Ann"]}
    return "post", "/api/clubs/tuesday/sessions/", body


def _check_in_once_running(w: World) -> tuple[str, str, Any]:
    player_ids = list(w.running.entries.values_list("player_id", flat=True)[:1])
    return "post", _session(w, "check-in/"), {"player_ids": player_ids}


def _withdrawal_mid_game(w: World) -> tuple[str, str, Any]:
    game = w.with_round()
    player_id = game.game_players.values_list("player_id", flat=True)[0]
    return "post", _session(w, "withdraw/"), {"player_id": player_id}


def _round_once_over(w: World) -> tuple[str, str, Any]:
    from workflow.session import start_finish

    start_finish.session_finish(session_id=w.running.pk, early=True, user=w.director)
    return "post", f"/api/games/{w.top.pk}/rounds/", first_round(w.top)


def _correction_after_movement(w: World) -> tuple[str, str, Any]:
    w.with_round()
    w.moved()
    return "put", f"/api/games/{w.top.pk}/rounds/1/", {"dealer": "x"}


def _start_with_too_few(w: World) -> tuple[str, str, Any]:
    session = w.make_session(8, start=False, seed=11)
    session.entries.exclude(pk=session.entries.first().pk).update(checked_in=False)  # type: ignore[union-attr]
    return "post", f"/api/sessions/{session.pk}/start/", {}


def _paid_then_free(w: World) -> tuple[str, str, Any]:
    Session.objects.filter(pk=w.running.pk).update(entry_fee=5)
    w.running.entries.update(paid=True)
    return "post", _session(w, "prizes/"), {"entry_fee": ""}


def _paid_check_in_on_a_free_session(w: World) -> tuple[str, str, Any]:
    session = w.make_session(8, start=False, seed=11)
    player_ids = list(session.entries.values_list("player_id", flat=True)[:1])
    return "post", _session(session, "check-in/"), {"player_ids": player_ids, "paid": True}


def _table_in_use(w: World) -> tuple[str, str, Any]:
    table = PayoutTable.objects.create(club=w.running.club, name="All", places=["100"])
    Session.objects.filter(pk=w.running.pk).update(payout_table=table)
    return "delete", f"/api/clubs/tuesday/payout-tables/{table.pk}/", None


STATE_REFUSALS: dict[str, tuple[str, Case]] = {
    "a second start": ("session_started", lambda w: ("post", _session(w, "start/"), {})),
    "a check-in once running": ("session_started", _check_in_once_running),
    "a new seeding once running": (
        "session_started",
        lambda w: ("patch", _session(w, ""), {"seeding": "balanced"}),
    ),
    "the movement preview mid-sitting": (
        "sitting_unfinished",
        lambda w: ("get", _session(w, "movement/"), None),
    ),
    "the movement preview before the start": (
        "session_not_started",
        lambda w: ("get", _unstarted(w, "movement/"), None),
    ),
    "finishing with games to play": (
        "sitting_unfinished",
        lambda w: ("post", _session(w, "finish/"), {}),
    ),
    "an undo with no movement": (
        "nothing_to_undo",
        lambda w: ("post", _session(w, "movement/undo/"), {}),
    ),
    "a withdrawal mid-game": ("withdrawal_mid_game", _withdrawal_mid_game),
    "a round once the session is over": ("session_not_running", _round_once_over),
    "a correction after the movement": ("sitting_closed", _correction_after_movement),
    "a session in a closed season": ("season_closed", _closed_season),
    "a start with one player checked in": ("too_few_players", _start_with_too_few),
    "a timer started before the session": (
        "session_not_running",
        lambda w: ("post", _unstarted(w, "timer/"), {"action": "start"}),
    ),
    "making a session with paid players free": ("players_paid", _paid_then_free),
    "deleting a payout table in use": ("payout_table_in_use", _table_in_use),
    "the sitting minutes of a finished session": (
        "session_finished",
        lambda w: ("patch", _session(_finished(w), "timer/"), {"sitting_minutes": 30}),
    ),
}


INPUT_REFUSALS: dict[str, tuple[str, Case]] = {
    "fees on a free session at check-in": (
        "fees_on_free_session",
        _paid_check_in_on_a_free_session,
    ),
    "fees on a free session": (
        "fees_on_free_session",
        lambda w: ("post", _session(w, "paid/"), {"paid": True}),
    ),
    "a payout table that does not add up": (
        "bad_payout_table",
        lambda w: ("post", "/api/clubs/tuesday/payout-tables/", {"name": "T", "places": ["50"]}),
    ),
    "an entry fee that is not an amount": (
        "bad_amount",
        lambda w: ("post", _session(w, "prizes/"), {"entry_fee": "five"}),
    ),
    "no players named": (
        "no_players",
        lambda w: ("post", _session(w, "players/"), {"player_ids": [], "new_names": []}),
    ),
    "a player of another club": (
        "unknown_player",
        lambda w: (
            "post",
            _session(w, "players/"),
            {"player_ids": [w.top.game_players.values_list("player_id", flat=True)[0], 999999]},
        ),
    ),
    "a withdrawal of someone not on the roster": (
        "not_on_roster",
        lambda w: ("post", _session(w, "withdraw/"), {"player_id": 999999}),
    ),
    "a round the engine refuses": (
        "round_invalid",
        lambda w: ("post", f"/api/games/{w.top.pk}/rounds/", {**first_round(w.top), "tricks": {}}),
    ),
    "a session with unknown rules": (
        "unknown_rules",
        lambda w: (
            "post",
            "/api/clubs/tuesday/sessions/",
            {"season": w.season.pk, "name": "N", "date": "2026-03-01", "rules_id": "poker"},
        ),
    ),
}


def _refused(w: World, case: Case) -> Any:
    method, url, body = case(w)
    before = db_state()
    client: APIClient = token_client(w.director)
    response = getattr(client, method)(url, body, format="json")
    assert db_state() == before
    return response


@pytest.mark.parametrize("name", list(STATE_REFUSALS))
def test_a_refusal_by_the_state_is_a_409(name: str, world: World) -> None:
    code, case = STATE_REFUSALS[name]
    response = _refused(world, case)
    assert (response.status_code, response.json()["code"]) == (409, code), response.json()
    assert response.json()["message"]


@pytest.mark.parametrize("name", list(INPUT_REFUSALS))
def test_a_request_wrong_whatever_the_state_is_a_400(name: str, world: World) -> None:
    code, case = INPUT_REFUSALS[name]
    response = _refused(world, case)
    assert (response.status_code, response.json()["code"]) == (400, code), response.json()


# What docs/api.md lists among the 409s, against every refusal in the code --------------

ROOT = Path(__file__).resolve().parents[2]


def _documented_409s() -> set[str]:
    errors = (ROOT / "docs" / "api.md").read_text().split("- **409**", 1)[1]
    return set(re.findall(r"`([a-z_]+)`", errors.split("\n- **422**", 1)[0]))


def _raised(kind: str) -> set[tuple[str, str]]:
    """(code, file) of every `kind("code", ...)` in the apps' code."""
    found = set()
    for path in ROOT.glob("*/**/*.py"):
        if path.parts[len(ROOT.parts)] in {"tests", ".venv", "bench"}:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == kind
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add((str(node.args[0].value), str(path.relative_to(ROOT))))
    return found


def test_no_state_refusal_the_docs_call_a_409_is_raised_as_a_400() -> None:
    documented = _documented_409s()
    assert {"session_not_running", "session_finished", "timer_not_running"} <= documented
    as_400 = sorted((code, path) for code, path in _raised("UserError") if code in documented)
    assert as_400 == []


def test_every_conflict_the_code_raises_is_documented_as_a_409() -> None:
    documented = _documented_409s()
    # The club's own writes (seasons, players, directors) and the accounts (sign-up, a new
    # club, claiming a player) have pages and no API.
    pages_only = {
        "workflow/club/services.py",
        "workflow/club/directors.py",
        "workflow/club/accounts.py",
    }
    undocumented = sorted(
        (code, path)
        for code, path in _raised("ConflictError")
        if code not in documented and path not in pages_only
    )
    assert undocumented == []
