"""Shared helpers of the scoring tests: a game at a table of four, rounds named from the
first dealer's seat on, and games played to a known end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client
from django.urls import reverse

from scoring import records, services
from scoring.models import Game
from tournaments.models import Session
from tournaments.permissions import SYSTEM, Actor
from workflow.tables import links as table_links

MakeSession = Callable[..., Session]

# Four rounds in which the first dealer (a) reaches 11 in round 4 with b on 9; c and d
# take no trick and are hooked, floored at 0.
A_WINS = [(3, 2), (3, 2), (2, 3), (3, 2)]
# Round 4 instead gives b the game, 11 to 9.
B_WINS_ROUND_4 = (1, 4)
# Round 4 instead leaves a on 10 and b on 10: nobody has won yet.
NOBODY_WINS_ROUND_4 = (2, 3)


def top_game(session: Session, *, number: int = 1, sitting: int = 1) -> Game:
    return Game.objects.get(
        table__sitting__session=session,
        table__sitting__number=sitting,
        table__rank=1,
        number=number,
    )


def dealer_order(game: Game) -> list[str]:
    """Seats from the first dealer, clockwise: the dealers of rounds 1, 2, 3, ..."""
    record = records.game_record(game)
    seated: list[str] = record["players"]
    start = seated.index(record["first_dealer"])
    return seated[start:] + seated[:start]


def split(game: Game, first: int, second: int) -> dict[str, Any]:
    """A round where the first dealer takes `first` tricks and the next player `second`."""
    a, b, _, _ = dealer_order(game)
    return {"tricks": {a: first, b: second}}


def play(game: Game, rounds: list[tuple[int, int]], actor: Any = SYSTEM) -> None:
    for number, (first, second) in enumerate(rounds, start=1):
        services.round_submit(
            game_id=game.pk, number=number, data=split(game, first, second), actor=actor
        )


def scorer(game: Game, director: Any, device: str = "browser:one") -> Actor:
    """Whoever holds a fresh scorer link to the game's table, on one device."""
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    return Actor(scorer_tokens=frozenset([link.token]), device=device)


def link_client(table_id: int, director: Any) -> Client:
    """A browser that opened a fresh scorer link to the table."""
    link = table_links.scorer_link_create(table_id=table_id, user=director)
    client = Client()
    client.get(reverse("tournaments:scorer_open", args=[link.token]))
    return client


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client
