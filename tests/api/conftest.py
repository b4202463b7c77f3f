"""Fixtures for the API tests: a running session, a client per role, and a snapshot of
everything a write could change (to prove that a refused write changed nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.models import IdempotencyRecord
from scoring import records
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tests.factories import ClubFactory, UserFactory
from tournaments.models import (
    ClubTableCard,
    KeepApart,
    Placing,
    Player,
    ScorerLink,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    Sitting,
    Table,
    TableCard,
)
from workflow.tables import links as table_links


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    # The token endpoint's rate limit counts in the cache, across tests. Only that key
    # goes: with Redis, clearing the cache would flush the Celery broker's database too.
    cache.delete("throttle_token_127.0.0.1")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    # Every role is a user with a password; the production hasher is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def db_state() -> tuple[Any, ...]:
    """Everything an API write could change."""
    return (
        list(
            Session.objects.order_by("pk").values_list(
                "pk", "status", "games_per_sitting", "is_public", "double_entry", "finished_at"
            )
        ),
        list(
            SessionPlayer.objects.order_by("pk").values_list(
                "pk", "checked_in", "arrived_late", "withdrawn_at", "fixed_table"
            )
        ),
        list(Sitting.objects.order_by("pk").values_list("pk", "moved_at")),
        list(Table.objects.order_by("pk").values_list("pk", "rank")),
        list(Seating.objects.order_by("pk").values_list("pk", "table_id", "seat", "left_at")),
        list(Game.objects.order_by("pk").values_list("pk", "status", "round_count")),
        list(GamePlayer.objects.order_by("pk").values_list("pk", "score", "hooks", "won")),
        list(Round.objects.order_by("pk").values_list("pk", "number", "data")),
        list(RoundChange.objects.order_by("pk").values_list("pk")),
        list(PendingRound.objects.order_by("pk").values_list("pk", "data")),
        list(ScorerLink.objects.order_by("pk").values_list("pk", "revoked_at")),
        list(TableCard.objects.order_by("pk").values_list("pk", "token", "replaced_at")),
        list(ClubTableCard.objects.order_by("pk").values_list("pk", "token", "replaced_at")),
        list(Player.objects.order_by("pk").values_list("pk", "name")),
        list(KeepApart.objects.order_by("pk").values_list("pk", "first_id", "second_id")),
        Placing.objects.count(),
        SessionStanding.objects.count(),
        IdempotencyRecord.objects.count(),
    )


def token_client(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def scorer_client(table_id: int, director: Any) -> APIClient:
    link = table_links.scorer_link_create(table_id=table_id, user=director)
    client = APIClient()
    client.credentials(HTTP_X_SCORER_TOKEN=link.token)
    return client


def first_round(game: Game, number: int = 1, *, taker: str | None = None) -> dict[str, Any]:
    """A valid next round: `taker` (by default the player left of the dealer) takes every
    trick."""
    record = records.game_record(game)
    output = records.game_check(game)
    players = record["players"]
    dealer = output["next_dealer"]
    taker = taker or players[(players.index(dealer) + 1) % len(players)]
    return {"number": number, "dealer": dealer, "tricks": {taker: 5}}


@pytest.fixture
def running(make_session: Callable[..., Session]) -> Session:
    """8 players: two tables of four, game 1 under way at each."""
    return make_session(8)


@pytest.fixture
def top(running: Session) -> Game:
    return Game.objects.get(table__sitting__session=running, table__rank=1, number=1)


@pytest.fixture
def bottom(running: Session) -> Game:
    return Game.objects.get(table__sitting__session=running, table__rank=2, number=1)


@pytest.fixture
def as_director(director: Any) -> APIClient:
    return token_client(director)


@pytest.fixture
def roles(running: Session, top: Game, bottom: Game, director: Any) -> dict[str, APIClient]:
    """Everyone who may not write to the top table or direct the session."""
    player = UserFactory(username="player")
    Player.objects.filter(pk=top.game_players.first().player_id).update(user=player)
    other_director = UserFactory(username="other-director")
    ClubFactory().directors.add(other_director)
    revoked = scorer_client(top.table_id, director)
    table_links.scorer_link_revoke(table_id=top.table_id, user=director)
    signed_in = APIClient()
    signed_in.force_login(UserFactory(username="signed-in-stranger"))
    return {
        "anonymous": APIClient(),
        "signed-in stranger (session)": signed_in,
        "stranger with a token": token_client(UserFactory(username="stranger")),
        "player at the table": token_client(player),
        "director of another club": token_client(other_director),
        "scorer of another table": scorer_client(bottom.table_id, director),
        "scorer with a revoked link": revoked,
    }


# Which status each refused role gets: 401 without (valid) credentials, 403 with them.
EXPECTED_REFUSAL = {
    "anonymous": 401,
    "signed-in stranger (session)": 403,
    "stranger with a token": 403,
    "player at the table": 403,
    "director of another club": 403,
    "scorer of another table": 403,
    "scorer with a revoked link": 401,
}


@pytest.fixture
def superuser(db: None) -> Any:
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw-root")
