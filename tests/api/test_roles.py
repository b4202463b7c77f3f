"""Each role against each write: refused with the right status and nothing changed; the
roles that may, succeed. The rules come from tournaments.permissions; this proves the API
asks it for every write."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring import records
from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import (
    EXPECTED_REFUSAL,
    db_state,
    first_round,
    scorer_client,
    token_client,
)
from tournaments.models import PayoutTable, Season, Session
from workflow.club import seating_wishes
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed as fake_results

pytestmark = pytest.mark.django_db


@dataclass
class World:
    running: Session
    top: Game
    bottom: Game
    director: Any
    season: Season
    make_session: Callable[..., Session]

    def unstarted(self) -> Session:
        return self.make_session(8, start=False, seed=11)

    def moved(self) -> Session:
        fake_results(self.running.sittings.get(), random.Random(3))
        movements.sitting_move_players(
            session_id=self.running.pk, sitting_number=1, user=self.director
        )
        return self.running

    def with_round(self) -> Game:
        data = first_round(self.top)
        del data["number"]
        scoring.round_submit(game_id=self.top.pk, number=1, data=data, actor=self.director)
        return self.top


Request = tuple[str, str, Any, int]


def create_session(w: World) -> Request:
    body = {"season": w.season.pk, "name": "Extra night", "date": "2026-02-03"}
    return "post", "/api/clubs/tuesday/sessions/", body, 201


def update_settings(w: World) -> Request:
    return "patch", f"/api/sessions/{w.running.pk}/", {"double_entry": True}, 200


def add_players(w: World) -> Request:
    return "post", f"/api/sessions/{w.running.pk}/players/", {"new_names": ["Zed Late"]}, 200


def check_in(w: World) -> Request:
    session = w.unstarted()
    body = {"player_ids": [session.entries.first().player_id], "checked_in": False}
    return "post", f"/api/sessions/{session.pk}/check-in/", body, 200


def start(w: World) -> Request:
    return "post", f"/api/sessions/{w.unstarted().pk}/start/", None, 201


def withdraw(w: World) -> Request:
    player_id = w.bottom.game_players.first().player_id
    return "post", f"/api/sessions/{w.running.pk}/withdraw/", {"player_id": player_id}, 200


def confirm_movement(w: World) -> Request:
    fake_results(w.running.sittings.get(), random.Random(3))
    return "post", f"/api/sessions/{w.running.pk}/movement/", {"sitting": 1}, 201


def undo_movement(w: World) -> Request:
    return "post", f"/api/sessions/{w.moved().pk}/movement/undo/", None, 200


def rebalance(w: World) -> Request:
    return "post", f"/api/sessions/{w.running.pk}/rebalance/", {"moves": []}, 200


def finish(w: World) -> Request:
    return "post", f"/api/sessions/{w.running.pk}/finish/", {"early": True}, 200


def scorer_link_create(w: World) -> Request:
    return "post", f"/api/tables/{w.top.table_id}/scorer-links/", None, 201


def scorer_link_revoke(w: World) -> Request:
    return "delete", f"/api/tables/{w.top.table_id}/scorer-links/", None, 200


def enter_round(w: World) -> Request:
    return "post", f"/api/games/{w.top.pk}/rounds/", first_round(w.top), 201


def correct_round(w: World) -> Request:
    game = w.with_round()
    data = first_round(game)
    fixed = {"dealer": data["dealer"], "tricks": {records.game_record(game)["players"][2]: 5}}
    fixed["dealer"] = records.game_check(game)["rounds"][0]["dealer"]
    return "put", f"/api/games/{game.pk}/rounds/1/", fixed, 200


def delete_round(w: World) -> Request:
    return "delete", f"/api/games/{w.with_round().pk}/rounds/1/", None, 200


# Director-only reads: refused the same way, and they change nothing by nature.
def list_players(w: World) -> Request:
    return "get", "/api/clubs/tuesday/players/", None, 200


def movement_preview(w: World) -> Request:
    fake_results(w.running.sittings.get(), random.Random(3))
    return "get", f"/api/sessions/{w.running.pk}/movement/", None, 200


def rebalance_proposal(w: World) -> Request:
    return "get", f"/api/sessions/{w.running.pk}/rebalance/", None, 200


def game_changes(w: World) -> Request:
    return "get", f"/api/games/{w.with_round().pk}/changes/", None, 200


def scorer_links(w: World) -> Request:
    return "get", f"/api/tables/{w.top.table_id}/scorer-links/", None, 200


def pending_rounds(w: World) -> Request:
    return "get", f"/api/games/{w.top.pk}/pending/", None, 200


def table_cards(w: World) -> Request:
    return "get", f"/api/sessions/{w.running.pk}/table-cards/", None, 200


def table_card_replace(w: World) -> Request:
    return "post", f"/api/sessions/{w.running.pk}/table-cards/1/replace/", None, 201


def club_table_cards(w: World) -> Request:
    return "get", f"/api/clubs/{w.running.club.slug}/table-cards/", None, 200


def club_cards_rotate(w: World) -> Request:
    return "post", f"/api/clubs/{w.running.club.slug}/table-cards/", {"count": 4}, 201


def set_prizes(w: World) -> Request:
    return "post", f"/api/sessions/{w.running.pk}/prizes/", {"entry_fee": "5"}, 200


def mark_paid(w: World) -> Request:
    Session.objects.filter(pk=w.running.pk).update(entry_fee=5)
    return "post", f"/api/sessions/{w.running.pk}/paid/", {"paid": True}, 200


def payout_tables(w: World) -> Request:
    return "get", f"/api/clubs/{w.running.club.slug}/payout-tables/", None, 200


def payout_table_create(w: World) -> Request:
    body = {"name": "All", "places": ["100"]}
    return "post", f"/api/clubs/{w.running.club.slug}/payout-tables/", body, 201


def _payout_table(w: World) -> str:
    table = PayoutTable.objects.create(club=w.running.club, name="Top two", places=["60", "40"])
    return f"/api/clubs/{w.running.club.slug}/payout-tables/{table.pk}/"


def payout_table_change(w: World) -> Request:
    return "put", _payout_table(w), {"name": "Top two", "places": ["70", "30"]}, 200


def payout_table_delete(w: World) -> Request:
    return "delete", _payout_table(w), None, 204


def set_currency(w: World) -> Request:
    body = {"currency": "£", "money_unit": "cent"}
    return "put", f"/api/clubs/{w.running.club.slug}/currency/", body, 200


def keep_apart_list(w: World) -> Request:
    return "get", f"/api/clubs/{w.running.club.slug}/keep-apart/", None, 200


def keep_apart_add(w: World) -> Request:
    first, second = (e.player_id for e in w.running.entries.order_by("pk")[:2])
    return (
        "post",
        f"/api/clubs/{w.running.club.slug}/keep-apart/",
        {"players": [first, second]},
        201,
    )


def keep_apart_remove(w: World) -> Request:
    first, second = (e.player_id for e in w.running.entries.order_by("pk")[:2])
    pair = seating_wishes.keep_apart_add(
        club_id=w.running.club_id, players=[first, second], user=w.director
    )
    return "delete", f"/api/clubs/{w.running.club.slug}/keep-apart/{pair.pk}/", None, 204


def fixed_table(w: World) -> Request:
    body = {"player_id": w.running.entries.order_by("pk")[0].player_id, "fixed_table": 5}
    return "patch", f"/api/sessions/{w.running.pk}/players/", body, 200


CASES: dict[str, Callable[[World], Request]] = {
    f.__name__: f
    for f in [
        create_session,
        update_settings,
        add_players,
        check_in,
        start,
        withdraw,
        confirm_movement,
        undo_movement,
        rebalance,
        finish,
        scorer_link_create,
        scorer_link_revoke,
        enter_round,
        correct_round,
        delete_round,
        list_players,
        movement_preview,
        rebalance_proposal,
        game_changes,
        scorer_links,
        pending_rounds,
        table_cards,
        table_card_replace,
        club_table_cards,
        club_cards_rotate,
        set_prizes,
        mark_paid,
        payout_tables,
        payout_table_create,
        payout_table_change,
        payout_table_delete,
        set_currency,
        keep_apart_list,
        keep_apart_add,
        keep_apart_remove,
        fixed_table,
    ]
}
# After the movement, the links of sitting 1 have expired: a credential no longer valid.
LINKS_EXPIRED = {"undo_movement"}
# Who, besides a director of the club, may: the holder of the table's scorer link.
SCORER_MAY = {"enter_round", "correct_round", "delete_round", "pending_rounds"}


@pytest.fixture
def world(
    running: Session,
    top: Game,
    bottom: Game,
    director: Any,
    season: Season,
    make_session: Callable[..., Session],
) -> World:
    return World(running, top, bottom, director, season, make_session)


def call(client: APIClient, method: str, url: str, body: Any) -> Any:
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize("case", list(CASES))
def test_each_role_is_refused_and_nothing_changes(
    case: str, world: World, roles: dict[str, APIClient]
) -> None:
    method, url, body, _ = CASES[case](world)
    for role, client in roles.items():
        expected = EXPECTED_REFUSAL[role]
        if case in LINKS_EXPIRED and role == "scorer of another table":
            expected = 401
        before = db_state()
        response = call(client, method, url, body)
        assert response.status_code == expected, (role, response.json())
        payload = response.json()
        assert set(payload) >= {"code", "message"}, (role, payload)
        expected_codes = (
            {"not_authenticated", "scorer_link_expired"}
            if response.status_code == 401
            else {"not_director", "not_scorer"}
        )
        assert payload["code"] in expected_codes, (role, payload)
        assert db_state() == before, role


@pytest.mark.parametrize("case", list(CASES))
def test_a_director_of_the_club_may(case: str, world: World) -> None:
    method, url, body, ok = CASES[case](world)
    response = call(token_client(world.director), method, url, body)
    assert response.status_code == ok, response.json()


@pytest.mark.parametrize("case", sorted(SCORER_MAY))
def test_the_tables_scorer_may_write_its_results(case: str, world: World) -> None:
    method, url, body, ok = CASES[case](world)
    response = call(scorer_client(world.top.table_id, world.director), method, url, body)
    assert response.status_code == ok, response.json()


@pytest.mark.parametrize("case", sorted(set(CASES) - SCORER_MAY))
def test_the_tables_scorer_may_not_direct(case: str, world: World) -> None:
    client = scorer_client(world.top.table_id, world.director)
    method, url, body, _ = CASES[case](world)
    before = db_state()
    response = call(client, method, url, body)
    if case in LINKS_EXPIRED:
        assert response.status_code == 401
        assert response.json()["code"] == "scorer_link_expired"
    else:
        assert response.status_code == 403
        assert response.json()["code"] == "not_director"
    assert db_state() == before


def test_a_superuser_directs_every_club(world: World, superuser: Any) -> None:
    method, url, body, ok = finish(world)
    assert call(token_client(superuser), method, url, body).status_code == ok


def test_a_signed_in_director_needs_the_csrf_token(world: World) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(world.director)
    before = db_state()
    response = client.post(f"/api/sessions/{world.running.pk}/finish/", {}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["message"]
    assert db_state() == before


def test_writes_to_a_private_session_are_a_404_for_those_who_may_not_see_it(
    world: World, roles: dict[str, APIClient]
) -> None:
    Session.objects.filter(pk=world.running.pk).update(is_public=False)
    method, url, body, _ = enter_round(world)
    for role in ["stranger with a token", "director of another club"]:
        before = db_state()
        response = call(roles[role], method, url, body)
        assert response.status_code == 404, role
        assert db_state() == before
    # A player of the session sees it, but may not score.
    assert call(roles["player at the table"], method, url, body).status_code == 403


def test_a_write_without_credentials_is_a_401_whether_the_object_exists_or_not(
    world: World, roles: dict[str, APIClient]
) -> None:
    Session.objects.filter(pk=world.running.pk).update(is_public=False)
    anonymous = roles["anonymous"]
    before = db_state()
    private = call(anonymous, *enter_round(world)[:3])
    missing = call(anonymous, "post", "/api/games/999999/rounds/", {"number": 1})
    undirected = call(anonymous, "post", f"/api/sessions/{world.running.pk}/finish/", {})
    for response in (private, missing, undirected):
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
    # The same body for all three: nothing tells a private session from no session.
    assert private.json() == missing.json() == undirected.json()
    assert db_state() == before
