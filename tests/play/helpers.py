"""Scripted phones for the online play tests: each reads its seat's view through the API
and, when it is its turn, sends one of the moves `legal` offers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from rest_framework.test import APIClient

from engine.online import PLAY


def view_of(client: APIClient, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/play/{token}/")
    assert answer.status_code == 200, answer.content
    return answer.json()  # type: ignore[no-any-return]


def send(client: APIClient, token: str, body: Any) -> Any:
    return client.post(f"/api/play/{token}/moves/", body, format="json")


def choice_body(
    view: dict[str, Any], choice: Any, rng: random.Random | None = None
) -> dict[str, Any]:
    """The body of one of `legal`; a draw's template gets a discard between its
    `min_discard` and `max_discard` cards from the hand (docs/engine.md)."""
    if view["phase"] == PLAY:
        return {"move": view["move"], "action": "play", "card": choice}
    body = {"move": view["move"], **choice}
    if choice.get("action") == "draw" and rng is not None:
        low = choice.get("min_discard", 0)
        high = min(choice.get("max_discard", 0), len(view["hand"]))
        body["discard"] = rng.sample(view["hand"], rng.randint(low, high))
    return body


def play_until(
    client: APIClient,
    tokens: Iterable[str],
    *,
    rng: random.Random,
    done: Any,
    limit: int = 5000,
) -> int:
    """Every phone plays a legal move when it is its turn, until `done()`; the moves
    made. Each view and each answer is checked for the moves it offers."""
    tokens = list(tokens)
    made = 0
    for _ in range(limit):
        if done():
            return made
        moved = False
        for token in tokens:
            view = view_of(client, token)
            if view["status"] != "playing" or view["to_act"] != view["player"]:
                assert view["legal"] == [] or view["status"] == "playing"
                continue
            assert view["legal"], view
            answer = send(client, token, choice_body(view, rng.choice(view["legal"]), rng))
            assert answer.status_code == 200, answer.content
            made += 1
            moved = True
        if not moved and done():
            return made
        if not moved:
            raise AssertionError("nobody could move: " + json.dumps(view_of(client, tokens[0])))
    raise AssertionError("the play did not end")
