"""Roles: directors, scorers with a table's link, players, the public. Each role against
each result write, checking the refusal and that nothing changed; who sees which session."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from scoring import records
from scoring import services as scoring
from scoring.models import Game, PendingRound, Round
from tests.factories import ClubFactory, UserFactory
from tests.web.test_pages import db_state
from tournaments.models import Player, Session
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def link_client(table_id: int, director: Any) -> Client:
    link = table_links.scorer_link_create(table_id=table_id, user=director)
    client = Client()
    client.get(reverse("tournaments:scorer_open", args=[link.token]))
    return client


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def first_round(game: Game) -> dict[str, Any]:
    record = records.game_record(game)
    players = record["players"]
    dealer = record["first_dealer"]
    taker = players[(players.index(dealer) + 1) % len(players)]
    return {"number": 1, "dealer": dealer, f"tricks_{players.index(taker) + 1}": 5}


@pytest.fixture
def tables(make_session: Callable[..., Session]) -> tuple[Session, Game, Game]:
    session = make_session(8)
    top = Game.objects.get(table__sitting__session=session, table__rank=1)
    bottom = Game.objects.get(table__sitting__session=session, table__rank=2)
    return session, top, bottom


def roles(session: Session, top: Game, bottom: Game, director: Any) -> dict[str, Client]:
    player = UserFactory(username="player")
    Player.objects.filter(pk=top.game_players.first().player_id).update(user=player)
    other_director = UserFactory(username="other-director")
    ClubFactory().directors.add(other_director)
    revoked = link_client(top.table_id, director)
    table_links.scorer_link_revoke(table_id=top.table_id, user=director)
    return {
        "anonymous": Client(),
        "signed-in stranger": signed_in(UserFactory(username="stranger")),
        "player at the table": signed_in(player),
        "director of another club": signed_in(other_director),
        "scorer of another table": link_client(bottom.table_id, director),
        "scorer with a revoked link": revoked,
    }


def test_only_the_tables_scorer_and_directors_may_write_its_results(
    tables: tuple[Session, Game, Game], director: Any
) -> None:
    session, top, bottom = tables
    refused = roles(session, top, bottom, director)
    data = first_round(top)
    for role, client in refused.items():
        for label, url, body in [
            ("enter", reverse("scoring:round_enter", args=[top.pk]), data),
            ("correct", reverse("scoring:round_edit", args=[top.pk, 1]), data),
            ("delete", reverse("scoring:round_delete", args=[top.pk, 1]), {}),
        ]:
            before = db_state()
            response = client.post(url, body)
            assert response.status_code in (403, 404), (role, label, response.status_code)
            assert db_state() == before, (role, label)
    scorer = link_client(top.table_id, director)
    assert scorer.post(reverse("scoring:round_enter", args=[top.pk]), data).status_code == 302
    assert Round.objects.filter(game=top).count() == 1
    assert (
        signed_in(director).post(reverse("scoring:round_delete", args=[top.pk, 1])).status_code
        == 302
    )
    assert not Round.objects.filter(game=top).exists()


def test_a_scorer_link_expires_when_the_players_move_on(
    tables: tuple[Session, Game, Game], director: Any
) -> None:
    session, top, _ = tables
    scorer = link_client(top.table_id, director)
    fake_results(session.sittings.get(), random.Random(1))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    new_top = Game.objects.get(
        table__sitting__session=session, table__sitting__number=2, table__rank=1
    )
    response = scorer.post(reverse("scoring:round_enter", args=[new_top.pk]), first_round(new_top))
    assert response.status_code == 403
    link = session.sittings.get(number=1).tables.get(rank=1).scorer_links.get()
    response = Client().get(reverse("tournaments:scorer_open", args=[link.token]))
    assert response.status_code == 410
    assert "expired" in response.content.decode()


def test_only_directors_hand_out_scorer_links(
    tables: tuple[Session, Game, Game], director: Any
) -> None:
    _, top, _ = tables
    url = reverse("tournaments:scorer_links", args=[top.table_id])
    assert signed_in(UserFactory(username="nosy")).post(url, {"action": "new"}).status_code == 403
    assert Client().post(url, {"action": "new"}).status_code == 302  # to sign in
    assert not top.table.scorer_links.exists()
    page = signed_in(director)
    page.post(url, {"action": "new"})
    response = page.get(url)
    link = top.table.scorer_links.get()
    assert link.token in response.content.decode()
    assert "<svg" in response.content.decode()


def test_a_private_session_is_hidden_from_the_public(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, is_public=False)
    urls = [
        reverse("tournaments:session", args=[session.pk]),
        reverse("tournaments:standings", args=[session.pk]),
    ]
    for url in urls:
        assert Client().get(url).status_code == 404
        assert signed_in(UserFactory(username="someone")).get(url).status_code == 404
        assert signed_in(director).get(url).status_code == 200
    assert session.name not in Client().get(reverse("tournaments:home")).content.decode()
    player = UserFactory(username="playing")
    Player.objects.filter(pk=session.entries.first().player_id).update(user=player)
    for url in urls:
        assert signed_in(player).get(url).status_code == 200


def test_a_player_sees_their_own_table_and_games(
    tables: tuple[Session, Game, Game], director: Any
) -> None:
    _, top, _ = tables
    gp = top.game_players.first()
    user = UserFactory(username="me")
    Player.objects.filter(pk=gp.player_id).update(user=user)
    page = signed_in(user).get(reverse("tournaments:my_games")).content.decode()
    assert "table <strong>1</strong>" in page
    assert f"seat <strong>{gp.seat}</strong>" in page
    unlinked = signed_in(UserFactory(username="nobody")).get(reverse("tournaments:my_games"))
    assert "not linked to a player" in unlinked.content.decode()


class TestDoubleEntry:
    @pytest.fixture
    def game(self, make_session: Callable[..., Session]) -> Game:
        session = make_session(8, double_entry=True)
        return Game.objects.get(table__sitting__session=session, table__rank=1)

    def round(self, game: Game, taker_offset: int = 1) -> dict[str, Any]:
        record = records.game_record(game)
        players = record["players"]
        dealer = record["first_dealer"]
        return {"tricks": {players[(players.index(dealer) + taker_offset) % 4]: 5}}

    def test_a_scorers_round_waits_for_a_second_matching_entry(
        self, game: Game, director: Any
    ) -> None:
        link = table_links.scorer_link_create(table_id=game.table_id, user=director)
        from tournaments.permissions import Actor

        first = Actor(scorer_tokens=frozenset([link.token]), device="browser:one")
        second = Actor(scorer_tokens=frozenset([link.token]), device="browser:two")
        entry = scoring.round_submit(game_id=game.pk, number=1, data=self.round(game), actor=first)
        assert entry.round is None
        assert entry.pending is not None
        assert not Round.objects.filter(game=game).exists()
        # The same person again does not confirm their own entry.
        again = scoring.round_submit(game_id=game.pk, number=1, data=self.round(game), actor=first)
        assert again.round is None
        entry = scoring.round_submit(game_id=game.pk, number=1, data=self.round(game), actor=second)
        assert entry.round is not None
        assert Round.objects.filter(game=game).count() == 1
        assert not PendingRound.objects.filter(game=game).exists()

    def test_a_mismatch_keeps_both_entries_and_stores_nothing(
        self, game: Game, director: Any
    ) -> None:
        from tournaments.permissions import Actor

        link = table_links.scorer_link_create(table_id=game.table_id, user=director)
        first = Actor(scorer_tokens=frozenset([link.token]), device="browser:one")
        second = Actor(scorer_tokens=frozenset([link.token]), device="browser:two")
        scoring.round_submit(game_id=game.pk, number=1, data=self.round(game, 1), actor=first)
        entry = scoring.round_submit(
            game_id=game.pk, number=1, data=self.round(game, 2), actor=second
        )
        assert entry.round is None
        assert entry.mismatch is not None
        assert "entered differently" in entry.mismatch
        assert PendingRound.objects.filter(game=game).count() == 2
        assert not Round.objects.filter(game=game).exists()

    def test_a_director_confirms_a_pending_round(self, game: Game, director: Any) -> None:
        from tournaments.permissions import Actor

        link = table_links.scorer_link_create(table_id=game.table_id, user=director)
        scorer = Actor(scorer_tokens=frozenset([link.token]), device="browser:one")
        scoring.round_submit(game_id=game.pk, number=1, data=self.round(game), actor=scorer)
        entry = scoring.round_submit(
            game_id=game.pk,
            number=1,
            data=self.round(game),
            actor=Actor(user=director, device="user:d"),
        )
        assert entry.round is not None
        change = entry.round.game.changes.get()
        assert "double entry" in change.note

    def test_the_score_sheet_shows_a_pending_entry_to_the_table(
        self, game: Game, director: Any
    ) -> None:
        scorer = link_client(game.table_id, director)
        response = scorer.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
        assert response.status_code == 302
        page = scorer.get(reverse("scoring:table", args=[game.table_id])).content.decode()
        assert "Waiting for a second entry of round 1" in page
        assert "Your entry" in page


def test_api_clients_on_one_scorer_link_are_told_apart_by_their_device_id(
    tables: tuple[Session, Game, Game], director: Any
) -> None:
    from django.test import RequestFactory

    from tournaments.permissions import actor_from_request

    _, top, _ = tables
    link = table_links.scorer_link_create(table_id=top.table_id, user=director)
    factory = RequestFactory()
    one = factory.get("/", HTTP_X_SCORER_TOKEN=link.token, HTTP_X_DEVICE_ID="phone-1")
    two = factory.get("/", HTTP_X_SCORER_TOKEN=link.token, HTTP_X_DEVICE_ID="phone-2")
    same = factory.get("/", HTTP_X_SCORER_TOKEN=link.token, HTTP_X_DEVICE_ID="phone-1")
    for request in (one, two, same):
        request.user = AnonymousUser()
    assert actor_from_request(one).device != actor_from_request(two).device
    assert actor_from_request(one).device == actor_from_request(same).device
    assert link.token not in actor_from_request(one).device


def test_the_system_directs_every_club_and_sees_every_session(
    make_session: Callable[..., Session],
) -> None:
    from tournaments.permissions import SYSTEM, can_direct, visible_sessions

    private = make_session(8, is_public=False)
    elsewhere = ClubFactory()
    assert can_direct(SYSTEM, private.club_id)
    assert can_direct(SYSTEM, elsewhere)
    assert private in visible_sessions(SYSTEM)
    assert SYSTEM.label() == "the system"


def test_nobody_at_all_directs_no_club(club: Any) -> None:
    """None is no one: it never stands for "the system" or "anyone"."""
    from tournaments.permissions import can_direct

    assert not can_direct(None, club)
    assert not can_direct(AnonymousUser(), club)
