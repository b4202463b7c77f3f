"""Ratings follow every change to a finished game, and always equal a rebuild."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from huckley.celery import app as celery_app
from ratings import services
from ratings.models import Rating, RatingHistory
from scoring import services as scoring
from scoring.models import Game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory
from tests.ratings.conftest import finished_game, new_session
from tournaments.models import Club, Session
from tournaments.permissions import SYSTEM
from workflow.session.simulation import play_game

Snapshot = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]


def snapshot(club: Club) -> Snapshot:
    ratings = list(
        Rating.objects.filter(club=club)
        .order_by("player_id", "rules_id")
        .values_list("player_id", "rules_id", "mu", "sigma", "ordinal", "games")
    )
    history = list(
        RatingHistory.objects.filter(club=club)
        .order_by("order_key", "player_id")
        .values_list("player_id", "game_id", "order_key", "rank", "ordinal_before", "mu", "sigma")
    )
    return ratings, history


def assert_equals_rebuild(club: Club) -> Snapshot:
    incremental = snapshot(club)
    services.ratings_rebuild(club_id=club.pk, user=SYSTEM)
    rebuilt = snapshot(club)
    assert incremental == rebuilt
    return rebuilt


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)


def test_finishing_a_game_through_scoring_rates_its_players_after_commit(
    make_session: Callable[..., Session],
    director: Any,
    django_capture_on_commit_callbacks: Any,
    eager: None,
) -> None:
    session = make_session(4)
    game = Game.objects.get(table__sitting__session=session, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        play_game(game, seed=3, user=director)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Rating.objects.filter(club=session.club, games=1).count() == 4
    _, history = assert_equals_rebuild(session.club)
    assert len(history) == 4

    # Deleting the last round reopens the game: its ratings go with it.
    with django_capture_on_commit_callbacks(execute=True):
        scoring.round_delete(game_id=game.pk, number=game.round_count, actor=director)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert not Rating.objects.filter(club=session.club).exists()
    assert not RatingHistory.objects.exists()


def test_correcting_a_finished_game_recomputes_the_games_after_it(
    rclub: Club, rseason: Any, people: list[Any], helpers: Any
) -> None:
    a, b, c = people[:3]
    first = helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)),
        [(a, 15, True), (b, 3, False), (c, 2, False)],
    )
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 8)),
        [(a, 15, True), (b, 3, False), (c, 2, False)],
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    before = snapshot(rclub)
    # The first game's winner changes: both games' updates must change.
    first.game_players.filter(player=a).update(won=False, score=1)
    first.game_players.filter(player=c).update(won=True, score=15)
    services.ratings_game_changed(
        club_id=rclub.pk, rules_id="huckley-buck", game_id=first.pk, user=SYSTEM
    )
    after = assert_equals_rebuild(rclub)
    assert after != before
    assert {row[1] for row in after[1]} == {row[1] for row in before[1]}


def test_running_the_recompute_twice_changes_nothing(
    rclub: Club, rseason: Any, people: list[Any], helpers: Any
) -> None:
    a, b, c = people[:3]
    game = helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)),
        [(a, 15, True), (b, 3, False), (c, 2, False)],
    )
    services.ratings_game_changed(
        club_id=rclub.pk, rules_id="huckley-buck", game_id=game.pk, user=SYSTEM
    )
    once = snapshot(rclub)
    services.ratings_game_changed(
        club_id=rclub.pk, rules_id="huckley-buck", game_id=game.pk, user=SYSTEM
    )
    assert snapshot(rclub) == once


def test_a_deleted_game_leads_to_a_rebuild_of_its_club(
    rclub: Club, rseason: Any, people: list[Any], helpers: Any
) -> None:
    a, b = people[:2]
    game = helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)), [(a, 15, True), (b, 3, False)]
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    game_id = game.pk
    game.delete()
    services.ratings_game_changed(
        club_id=rclub.pk, rules_id="huckley-buck", game_id=game_id, user=SYSTEM
    )
    assert not Rating.objects.filter(club=rclub).exists()


# A change: (game index, what happens). "reopen" un-finishes the game, "finish" finishes
# it again, "rescore" gives its players new scores and a new winner.
change = st.tuples(
    st.integers(min_value=0, max_value=7),
    st.sampled_from(["reopen", "finish", "rescore"]),
    st.lists(st.integers(min_value=-5, max_value=20), min_size=7, max_size=7),
    st.integers(min_value=0, max_value=6),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    tables=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=2),  # session
            st.integers(min_value=1, max_value=2),  # sitting
            st.integers(min_value=1, max_value=2),  # table rank
            st.integers(min_value=3, max_value=7),  # players
        ),
        min_size=1,
        max_size=8,
    ),
    changes=st.lists(change, min_size=1, max_size=8),
    rules_id=st.sampled_from(["huckley-buck", "buck-euchre"]),
)
def test_incremental_updates_equal_a_rebuild_after_random_corrections(
    db: None,
    tables: list[tuple[int, int, int, int]],
    changes: list[tuple[int, str, list[int], int]],
    rules_id: str,
) -> None:
    club = ClubFactory()
    season = SeasonFactory(club=club)
    players = [PlayerFactory(club=club) for _ in range(7)]
    sessions = [
        new_session(club, season, day=date(2026, 3, 1 + 7 * i), rules_id=rules_id) for i in range(3)
    ]
    games: list[Game] = []
    used: set[tuple[int, int, int]] = set()
    for n, (s, sitting, rank, size) in enumerate(tables):
        if (s, sitting, rank) in used:
            continue
        used.add((s, sitting, rank))
        seated = players[n % 3 :][:size] if size <= 7 - n % 3 else players[:size]
        rows = [(p, (7 * i + n) % 11, i == 0) for i, p in enumerate(seated)]
        game = finished_game(sessions[s], rows, sitting=sitting, table=rank)
        games.append(game)
        services.ratings_game_changed(
            club_id=club.pk, rules_id=rules_id, game_id=game.pk, user=SYSTEM
        )
    for index, action, scores, winner in changes:
        game = games[index % len(games)]
        if action == "reopen":
            Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
        elif action == "finish":
            Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        else:
            gps = list(game.game_players.order_by("seat"))
            for i, gp in enumerate(gps):
                gp.score = scores[i]
                gp.won = i == winner % len(gps)
                gp.save(update_fields=["score", "won"])
        services.ratings_game_changed(
            club_id=club.pk, rules_id=rules_id, game_id=game.pk, user=SYSTEM
        )
        assert_equals_rebuild(club)
