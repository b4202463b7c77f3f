"""Each rule of the tournament is decided by one function that the pages, the API and
the services all ask (docs/architecture.md): the page never offers what the service
would refuse, and the page and the API never disagree."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from scoring import records
from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import token_client
from tournaments.models import ScorerLink, Session
from tournaments.permissions import SYSTEM
from web.forms import SessionForm
from workflow.session import movements, selectors, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def _move_on(session: Session) -> None:
    finish_sitting_unplayed(session.sittings.get(number=1), random.Random(5))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)


def _enter_a_round(session: Session) -> None:
    sitting = selectors.current_sitting(session)
    game = Game.objects.filter(table__sitting=sitting).order_by("pk").first()
    assert game is not None
    record = records.game_record(game)
    players = record["players"]
    taker = players[(players.index(record["first_dealer"]) + 1) % len(players)]
    scoring.round_submit(game_id=game.pk, number=1, data={"tricks": {taker: 5}}, actor=SYSTEM)


def _not_started(make_session: Callable[..., Session]) -> Session:
    return make_session(8, start=False)


def _first_sitting(make_session: Callable[..., Session]) -> Session:
    return make_session(8)


def _moved_on(make_session: Callable[..., Session]) -> Session:
    session = make_session(8)
    _move_on(session)
    return session


def _moved_on_and_scoring(make_session: Callable[..., Session]) -> Session:
    session = _moved_on(make_session)
    _enter_a_round(session)
    return session


def _finished_after_a_movement(make_session: Callable[..., Session]) -> Session:
    session = _moved_on(make_session)
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    session.refresh_from_db()
    return session


@pytest.mark.parametrize(
    "state",
    [_not_started, _first_sitting, _moved_on, _moved_on_and_scoring, _finished_after_a_movement],
)
def test_the_page_offers_the_undo_exactly_when_the_service_and_the_api_would_do_it(
    make_session: Callable[..., Session], director: Any, state: Callable[..., Session]
) -> None:
    session = state(make_session)
    page = Client()
    page.force_login(director)
    offered = page.get(reverse("tournaments:manage", args=[session.pk])).context["can_undo"]
    answer = token_client(director).post(f"/api/sessions/{session.pk}/movement/undo/")
    assert answer.status_code in (200, 409)
    assert offered == (answer.status_code == 200)


def test_an_undo_the_page_would_not_offer_is_refused_with_the_rules_own_reason(
    make_session: Callable[..., Session],
) -> None:
    session = _finished_after_a_movement(make_session)
    refusal = movements.movement_undo_refusal(session, selectors.current_sitting(session))
    assert refusal is not None
    with pytest.raises(UserError) as caught:
        movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM)
    assert caught.value.code == refusal.code


def _refuse_new_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**kwargs: Any) -> ScorerLink:
        raise UserError("sitting_closed", "Refused for the test.")

    monkeypatch.setattr(table_links, "scorer_link_create", refuse)


def test_a_scorer_link_replacement_refused_midway_on_the_page_keeps_the_old_link(
    make_session: Callable[..., Session], director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make_session(8)
    table = selectors.current_sitting(session).tables.get(rank=1)
    old = table_links.scorer_link_create(table_id=table.pk, user=director)
    _refuse_new_links(monkeypatch)
    page = Client()
    page.force_login(director)
    response = page.post(reverse("tournaments:scorer_links", args=[table.pk]), follow=True)
    assert "Refused for the test." in response.content.decode()
    old.refresh_from_db()
    assert old.revoked_at is None
    assert ScorerLink.objects.filter(table=table).count() == 1


def test_a_scorer_link_replacement_refused_midway_in_the_api_keeps_the_old_link(
    make_session: Callable[..., Session], director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make_session(8)
    table = selectors.current_sitting(session).tables.get(rank=1)
    old = table_links.scorer_link_create(table_id=table.pk, user=director)
    _refuse_new_links(monkeypatch)
    answer = token_client(director).post(f"/api/tables/{table.pk}/scorer-links/")
    assert answer.status_code == 400
    old.refresh_from_db()
    assert old.revoked_at is None


def test_a_scorer_link_replacement_revokes_the_old_link_in_the_same_step(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    table = selectors.current_sitting(session).tables.get(rank=1)
    old = table_links.scorer_link_create(table_id=table.pk, user=director)
    replaced = table_links.scorer_link_replace(table_id=table.pk, user=director)
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert replaced.revoked == 1
    assert replaced.link.pk != old.pk
    assert replaced.link.revoked_at is None


def test_a_new_session_has_the_same_visibility_on_the_page_in_the_api_and_the_service(
    club: Any, season: Any, director: Any
) -> None:
    page_default = SessionForm(club=club).fields["is_public"].initial
    answer = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {"season": season.pk, "name": "API night", "date": str(season.starts_on)},
        format="json",
    )
    assert answer.status_code == 201
    by_service = services.session_create(
        club=club,
        season=season,
        name="Service night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        user=director,
    )
    assert page_default == answer.json()["is_public"] == by_service.is_public
    # docs/tournament.md: a session is public unless the director says otherwise.
    assert by_service.is_public is True


def test_the_standings_place_each_table_as_the_movement_does(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(13, seed=11)
    sitting = session.sittings.get()
    finish_sitting_unplayed(sitting, random.Random(2))
    preview = movements.movement_preview(sitting=sitting)
    by_movement = {p.player: (table.rank, p.place) for table, ps in preview.tables for p in ps}
    by_standings = {
        row.player_id: (row.table_rank, row.place)
        for row in selectors.session_standings(session)
        if row.table_rank is not None
    }
    assert by_standings == by_movement


def test_the_current_sitting_is_the_latest_one_for_the_page_the_api_and_the_services(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    _move_on(session)
    latest = selectors.current_sitting(session)
    assert latest is not None
    assert latest.number == session.sittings.count() == 2
    answer = token_client(director).get(f"/api/sessions/{session.pk}/")
    assert answer.json()["current_sitting"]["id"] == latest.pk
    page = Client().get(reverse("tournaments:session", args=[session.pk]))
    assert page.context["sitting"] == latest


def test_before_the_start_there_is_no_current_sitting_and_a_movement_is_refused(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    assert selectors.current_sitting(session) is None
    with pytest.raises(UserError) as caught:
        selectors.require_current_sitting(session)
    assert caught.value.code == "session_not_started"
    answer = token_client(director).get(f"/api/sessions/{session.pk}/movement/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "session_not_started"
