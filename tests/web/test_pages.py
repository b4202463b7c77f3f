"""The pages: they render, refuse who may not write (and then change nothing), and run a
number of queries that does not grow with the number of tables or rounds."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Round, RoundChange
from tests.factories import UserFactory
from tournaments.models import (
    BigLoserAward,
    Placing,
    Seating,
    Session,
    SessionPlayer,
    Sitting,
)
from tournaments.permissions import SYSTEM
from workflow.session import movements, withdrawals
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.session.simulation import play_game
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def db_state() -> tuple[Any, ...]:
    """Everything a write could change, to prove a refused write changed nothing."""
    return (
        list(Session.objects.order_by("pk").values_list("pk", "status", "games_per_sitting")),
        list(SessionPlayer.objects.order_by("pk").values_list("pk", "checked_in", "withdrawn_at")),
        list(Sitting.objects.order_by("pk").values_list("pk", "moved_at")),
        list(Seating.objects.order_by("pk").values_list("pk", "table_id", "seat", "left_at")),
        list(Round.objects.order_by("pk").values_list("pk", "number", "data")),
        Placing.objects.count(),
        BigLoserAward.objects.count(),
    )


@pytest.fixture
def running(make_session: Callable[..., Session]) -> Session:
    return make_session(8)


@pytest.fixture
def stranger(db: None) -> Any:
    """Signed in, but directs no club."""
    return UserFactory(username="stranger")


def director_writes(session: Session) -> list[tuple[str, str, dict[str, Any]]]:
    player_id = session.entries.first().player_id
    pk = session.pk

    def url(name: str, *args: object) -> str:
        return reverse(f"tournaments:{name}", args=args)

    new_session = {
        "name": "X",
        "date": "2026-01-02",
        "season": session.season_id,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "new_names": "A\nB\nC",
    }
    return [
        ("new session", url("session_new", session.club.slug), new_session),
        ("check in", url("check_in", pk), {"player": player_id, "checked_in": "0"}),
        ("check in all", url("check_in_all", pk), {}),
        ("start", url("start", pk), {}),
        ("settings", url("settings", pk), {"games_per_sitting": 3}),
        ("add players", url("add_players", pk), {"new_names": "Zed"}),
        ("withdraw", url("withdraw", pk, player_id), {}),
        ("movement", url("movement", pk), {"sitting": 1}),
        ("undo movement", url("movement_undo", pk), {}),
        ("rebalance", url("rebalance", pk), {"proposal": ""}),
        ("finish", url("finish", pk), {"early": "1"}),
        ("big loser", url("big_loser", session.season_id), {"player": player_id}),
    ]


def test_anonymous_visitors_cannot_make_any_director_write(running: Session) -> None:
    client = Client()
    for label, url, data in director_writes(running):
        before = db_state()
        response = client.post(url, data)
        assert response.status_code == 302, label
        assert response["Location"].startswith(reverse("login")), label
        assert db_state() == before, label


def test_a_user_who_does_not_direct_the_club_is_refused_every_director_write(
    running: Session, stranger: Any
) -> None:
    client = Client()
    client.force_login(stranger)
    for label, url, data in director_writes(running):
        before = db_state()
        response = client.post(url, data)
        assert response.status_code == 403, label
        assert db_state() == before, label


def test_a_director_of_another_club_is_refused(running: Session) -> None:
    from tests.factories import ClubFactory

    other = UserFactory(username="other-director")
    ClubFactory().directors.add(other)
    client = Client()
    client.force_login(other)
    before = db_state()
    response = client.post(reverse("tournaments:start", args=[running.pk]))
    assert response.status_code == 403
    assert db_state() == before
    assert client.get(reverse("tournaments:manage", args=[running.pk])).status_code == 403


def test_the_director_can_run_the_session_from_the_pages(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(9, start=False)
    client = Client()
    client.force_login(director)
    response = client.post(reverse("tournaments:start", args=[session.pk]), follow=True)
    assert response.status_code == 200
    assert "Tables drawn" in response.content.decode()
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    response = client.post(
        reverse("tournaments:settings", args=[session.pk]), {"games_per_sitting": 3}
    )
    session.refresh_from_db()
    assert session.games_per_sitting == 3


def result_writes(game: Game) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        ("enter", reverse("scoring:round_enter", args=[game.pk]), {"number": 1, "dealer": "x"}),
        ("correct", reverse("scoring:round_edit", args=[game.pk, 1]), {"number": 1}),
        ("delete", reverse("scoring:round_delete", args=[game.pk, 1]), {}),
    ]


def test_anonymous_visitors_cannot_enter_or_change_results(running: Session) -> None:
    game = Game.objects.filter(table__sitting__session=running).first()
    play_game(game, seed=1, rounds=1)
    client = Client()
    for label, url, data in result_writes(game):
        before = db_state()
        response = client.post(url, data)
        assert response.status_code == 403, label
        assert db_state() == before, label


def scorer_client(game: Game, director: Any) -> Client:
    """A browser that opened the table's scorer link: no account."""
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    client = Client()
    response = client.get(reverse("tournaments:scorer_open", args=[link.token]))
    assert response.status_code == 302
    return client


def test_a_refused_round_comes_back_with_the_message_and_the_numbers(
    running: Session, director: Any
) -> None:
    game = Game.objects.filter(table__sitting__session=running, table__rank=1).get()
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    client = scorer_client(game, director)
    data = {"number": 1, "dealer": game.first_dealer.name}
    for i, _ in enumerate(names, start=1):
        data[f"tricks_{i}"] = 2  # 8 tricks in a five-trick round
    response = client.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "8 tricks" in page or "add up" in page
    assert 'value="2"' in page
    assert not Round.objects.filter(game=game).exists()


def test_a_scorer_with_the_table_link_enters_a_round(running: Session, director: Any) -> None:
    game = Game.objects.filter(table__sitting__session=running, table__rank=1).get()
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    client = scorer_client(game, director)
    data: dict[str, Any] = {"number": 1, "dealer": game.first_dealer.name}
    data[f"tricks_{names.index(game.first_dealer.name) + 1}"] = 5
    response = client.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert response.status_code == 302
    stored = Round.objects.get(game=game)
    assert stored.data["tricks"][game.first_dealer.name] == 5
    change = RoundChange.objects.get(game=game)
    assert change.user is None
    assert change.scorer_link is not None
    assert change.scorer_link.table_id == game.table_id


@pytest.mark.parametrize("players", [8, 40])
def test_public_pages_render_with_a_fixed_number_of_queries(
    make_session: Callable[..., Session], players: int, django_assert_max_num_queries: Any
) -> None:
    session = make_session(players)
    name = session.entries.first().player.name
    client = Client()
    # A session's public pages read its generation first (one query without a shared
    # cache: tests/tournaments/test_pagecache.py pins the stored path).
    for url, limit in [
        (reverse("tournaments:session", args=[session.pk]), 7),
        (reverse("tournaments:session", args=[session.pk]) + f"?name={name}", 10),
        (reverse("tournaments:standings", args=[session.pk]), 10),
        # One of them names the season's standings rows, which keys the ladder's cache;
        # one reads the ratings for the season's "most improved" award; one the season's
        # sessions that pay prizes (a column when any did).
        (reverse("tournaments:club", args=[session.club.slug]), 9),
        (reverse("tournaments:home"), 2),
    ]:
        with django_assert_max_num_queries(limit):
            response = client.get(url)
        assert response.status_code == 200, url


def test_find_my_table_shows_table_seat_and_companions(running: Session) -> None:
    seating = (
        Seating.objects.filter(sitting__session=running).select_related("player", "table").first()
    )
    others = Seating.objects.filter(table=seating.table).exclude(pk=seating.pk)
    response = Client().get(
        reverse("tournaments:session", args=[running.pk]), {"name": seating.player.name}
    )
    page = response.content.decode()
    assert f"table <strong>{seating.table.rank}</strong>" in page
    assert f"seat <strong>{seating.seat}</strong>" in page
    for other in others:
        assert other.player.name in page


@pytest.mark.parametrize("rounds", [1, 6])
def test_the_score_sheet_has_a_fixed_number_of_queries(
    running: Session, director: Any, rounds: int, django_assert_max_num_queries: Any
) -> None:
    game = Game.objects.filter(table__sitting__session=running, table__rank=1).get()
    play_game(game, seed=3, rounds=rounds)
    client = Client()
    client.force_login(director)
    # One of them: whether the table has called the director (its open call).
    with django_assert_max_num_queries(11):
        response = client.get(reverse("scoring:table", args=[game.table_id]))
    assert response.status_code == 200


@pytest.mark.parametrize("players", [8, 40])
def test_director_pages_have_a_fixed_number_of_queries(
    make_session: Callable[..., Session],
    director: Any,
    players: int,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(players)
    fake_results(session.sittings.get(), random.Random(1))
    client = Client()
    client.force_login(director)
    # The first request builds the parts kept per generation (tournaments/pagecache.py);
    # the next one reads them back. The table cards are one query, however many tables;
    # so are the players who do not move (the roster to choose one from).
    for url, limit, again in [
        # One of them lists the calls for the director (open or handled: never kept, its
        # forms carry the director's CSRF token); one the tables' Online / Paper switches
        # (never kept: a robot's move changes them, not the generation).
        (reverse("tournaments:manage", args=[session.pk]), 20, 13),
        (reverse("tournaments:movement", args=[session.pk]), 11, 6),
        (reverse("tournaments:movement", args=[session.pk]), 12, 6),
        (reverse("tournaments:standings", args=[session.pk]), 12, 5),
    ]:
        with django_assert_max_num_queries(limit):
            response = client.get(url)
        assert response.status_code == 200, url
        with django_assert_max_num_queries(again):
            assert client.get(url).status_code == 200


def test_bad_ids_in_a_form_get_a_clear_400_not_a_500(running: Session, director: Any) -> None:
    client = Client()
    client.force_login(director)
    response = client.post(reverse("tournaments:check_in", args=[running.pk]), {"player": "abc"})
    assert response.status_code == 400
    assert "reload the page" in response.content.decode()


def test_finishing_asks_for_confirmation_first(running: Session, director: Any) -> None:
    client = Client()
    client.force_login(director)
    response = client.get(reverse("tournaments:finish", args=[running.pk]))
    assert response.status_code == 200
    assert "End the session early?" in response.content.decode()
    running.refresh_from_db()
    assert running.status == Session.Status.RUNNING
    client.post(reverse("tournaments:finish", args=[running.pk]), {"early": "1"})
    running.refresh_from_db()
    assert running.status == Session.Status.FINISHED


def test_the_movement_preview_shows_every_reason(running: Session, director: Any) -> None:
    fake_results(running.sittings.get(), random.Random(9))
    preview = movements.movement_preview(sitting=running.sittings.get())
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:movement", args=[running.pk])).content.decode()
    for _table, placings in preview.tables:
        for placing in placings:
            assert placing.reason.split(";")[0] in page.replace("&#x27;", "'")


def test_the_cached_board_follows_withdrawals_and_finished_games(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(9)
    url = reverse("tournaments:session", args=[session.pk])
    client = Client()
    leaver = Seating.objects.filter(sitting__session=session, table__rank=1).first()
    assert leaver.player.name in client.get(url).content.decode()
    withdrawals.session_withdraw(session_id=session.pk, player_id=leaver.player_id, user=SYSTEM)
    page = client.get(url).content.decode()
    assert f"Seat {leaver.seat}: {leaver.player.name}<" not in page
    game = Game.objects.get(table__sitting__session=session, table__rank=2, number=1)
    play_game(game, seed=5)
    assert "1 of 2 games finished" in client.get(url).content.decode()
