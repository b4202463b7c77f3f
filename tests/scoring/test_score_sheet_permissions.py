"""Who sees a table's score sheet, and who gets its entry form, correction links, pending
entries and history (docs/tournament.md, roles). Reading the sheet never writes: each
request is checked against a snapshot of every table. Posting results as each role is in
`tests/tournaments/test_roles.py`; these are the pages that lead to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import records, services
from scoring.models import Game
from tests.factories import ClubFactory, UserFactory
from tests.scoring.helpers import (
    MakeSession,
    dealer_order,
    link_client,
    signed_in,
    split,
    top_game,
)
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import Player, Session
from workflow.session import movements
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db

FORM = "<h2>Enter round"
FIX = 'aria-label="Correct round 1"'
HISTORY = "<h2>History</h2>"
PENDING = "Waiting for a second entry"


def revoked_client(table_id: int, director: Any) -> Client:
    client = link_client(table_id, director)
    table_links.scorer_link_revoke(table_id=table_id, user=director)
    return client


def other_director() -> Client:
    user = UserFactory.create(username="director-elsewhere")
    ClubFactory.create().directors.add(user)
    return signed_in(user)


Role = Callable[[Session, Game, Any], Client]

OUTSIDERS: dict[str, Role] = {
    "anonymous": lambda s, g, d: Client(),
    "signed-in stranger": lambda s, g, d: signed_in(UserFactory.create(username="stranger")),
    "director of another club": lambda s, g, d: other_director(),
    "scorer with a revoked link": lambda s, g, d: revoked_client(g.table_id, d),
}


def other_tables_scorer(session: Session, game: Game, director: Any) -> Client:
    bottom = session.sittings.get().tables.get(rank=2)
    return link_client(bottom.pk, director)


def player_at_the_table(session: Session, game: Game, director: Any) -> Client:
    user = UserFactory.create(username="seated-player")
    seated = game.game_players.order_by("seat").values_list("player_id", flat=True)
    Player.objects.filter(pk=seated[0]).update(user=user)
    return signed_in(user)


@pytest.fixture
def private(make_session: MakeSession) -> tuple[Session, Game]:
    """A private double-entry session with one round entered and one waiting at the top
    table, so that every part of the sheet has something to show."""
    session = make_session(8, is_public=False, double_entry=True)
    game = top_game(session)
    director = session.club.directors.get()
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=director)
    return session, game


def get(client: Client, url: str) -> tuple[int, str]:
    before = db_snapshot()
    response = client.get(url)
    # Opening a page may start a browser session, never a change to the tournament.
    assert changed_tables(before) == []
    return response.status_code, response.content.decode()


def sheet_url(game: Game) -> str:
    return reverse("scoring:table", args=[game.table_id])


@pytest.mark.parametrize("role", OUTSIDERS.values(), ids=OUTSIDERS.keys())
def test_outsiders_do_not_find_the_sheet_of_a_private_session(
    private: tuple[Session, Game], director: Any, role: Role
) -> None:
    session, game = private
    status, _ = get(role(session, game, director), sheet_url(game))
    assert status == 404


@pytest.mark.parametrize("role", OUTSIDERS.values(), ids=OUTSIDERS.keys())
def test_outsiders_get_no_correction_or_deletion_page(
    private: tuple[Session, Game], director: Any, role: Role
) -> None:
    session, game = private
    client = role(session, game, director)
    for name in ("scoring:round_edit", "scoring:round_delete"):
        status, _ = get(client, reverse(name, args=[game.pk, 1]))
        assert status == 403, name


@pytest.mark.parametrize(
    "role", [other_tables_scorer, player_at_the_table], ids=["other table's scorer", "player"]
)
def test_people_of_the_session_see_the_sheet_but_cannot_score_it(
    private: tuple[Session, Game], director: Any, role: Role
) -> None:
    session, game = private
    client = role(session, game, director)
    status, page = get(client, sheet_url(game))
    assert status == 200
    assert "Total" in page
    for part in (FORM, FIX, HISTORY, PENDING):
        assert part not in page, part
    for name in ("scoring:round_edit", "scoring:round_delete"):
        assert get(client, reverse(name, args=[game.pk, 1]))[0] == 403, name


@pytest.mark.parametrize("who", ["the table's scorer", "director"])
def test_the_tables_scorer_and_the_director_get_everything(
    private: tuple[Session, Game], director: Any, who: str
) -> None:
    _, game = private
    scorer = link_client(game.table_id, director)
    # The scorer's entry of round 2 waits for a second person.
    players = records.game_record(game)["players"]
    _, dealer, taker, _ = dealer_order(game)
    posted = scorer.post(
        reverse("scoring:round_enter", args=[game.pk]),
        {"number": 2, "dealer": dealer, f"tricks_{players.index(taker) + 1}": 5},
    )
    assert posted.status_code == 302
    client = scorer if who == "the table's scorer" else signed_in(director)
    status, page = get(client, sheet_url(game))
    assert status == 200
    for part in (FORM, FIX, HISTORY, PENDING):
        assert part in page, part
    assert get(client, reverse("scoring:round_edit", args=[game.pk, 1]))[0] == 200


def test_the_public_sees_a_public_sheet_without_the_tables_tools(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8, is_public=True)
    game = top_game(session)
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=director)
    for client in (Client(), revoked_client(game.table_id, director), other_director()):
        status, page = get(client, sheet_url(game))
        assert status == 200
        for part in (FORM, FIX, HISTORY):
            assert part not in page, part


def test_a_scorer_link_stops_scoring_once_the_players_move_on(
    make_session: MakeSession, director: Any
) -> None:
    import random

    from workflow.session.simulation import finish_sitting_unplayed

    session = make_session(8, is_public=False)
    game = top_game(session)
    scorer = link_client(game.table_id, director)
    finish_sitting_unplayed(session.sittings.get(), random.Random(9))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    status, _ = get(scorer, sheet_url(game))
    assert status == 404  # a private session, and the link no longer counts
    status, page = get(signed_in(director), sheet_url(game))
    assert status == 200
    assert FORM not in page
    assert FIX not in page
