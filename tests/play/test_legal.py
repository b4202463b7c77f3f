"""Every entry of a view's `legal`, sent exactly as it is with the view's `move`, answers
200 (docs/api.md, "Online play"): before play the entry is the body, in play the card
code is sent as ``{"action": "play", "card": code}``. For each game a table is played
through the API by phones choosing at random; in a few of its states, one of every kind
of choice the game offers, each entry is sent in a savepoint that is then rolled back, so
that every entry is tried on the same state."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

import engine
from engine.online import PLAY
from play import rounds as play_rounds
from tests.play.conftest import tokens_of
from tests.play.helpers import send, view_of

pytestmark = pytest.mark.django_db

#: Each game, the players at its one table, and the kinds of choice before play tried at
#: least once: each phase (the IHBA dealer's "keep the upcard" as a kind of its own).
GAMES: dict[str, tuple[int, set[str]]] = {
    "huckley-buck": (5, {"announce", "draw", "draw take_upcard"}),
    "hucklebuck": (5, {"announce", "draw"}),
    "buck-euchre": (4, {"order", "name", "discard", "drop"}),
    "bluke": (4, {"bid"}),
    "bluke-nj": (4, {"bid"}),
    "ten-point-buck": (3, {"bid"}),
}
#: The play states tried in each game, besides the phases before play.
PLAY_STATES = 3
#: The choice the phones make more often than the others, so that a few rounds reach
#: every phase: staying in (the dealer then draws), passing (the second bidding round).
LIKELY = {"announce": {"action": "in"}, "order": {"action": "pass"}}


def test_every_game_is_tried() -> None:
    assert set(GAMES) == set(engine.RULES)


def kind(view: dict[str, Any]) -> str:
    """The kind of choice a view offers: its phase, and ``take_upcard`` when the dealer
    may keep the upcard."""
    upcard = any(isinstance(e, dict) and e.get("take_upcard") for e in view["legal"])
    return f"{view['phase']} take_upcard" if upcard else view["phase"]


def body_of(view: dict[str, Any], entry: Any) -> dict[str, Any]:
    """The POST body of `entry`, sent as it is."""
    if view["phase"] == PLAY:
        return {"move": view["move"], "action": "play", "card": entry}
    return {"move": view["move"], **entry}


#: The most entries of one state sent through the API: Ten-Point Buck's bids are 221, every
#: one of which the engine's property (tests/engine/test_online_legal.py) applies; here
#: the first, the last and a seeded sample of the rest go through the whole stack.
MOST_SENT = 24


def every_entry_answers_200(phone: APIClient, token: str, view: dict[str, Any]) -> None:
    """Send each entry of the view's `legal` (at most `MOST_SENT`) in a savepoint rolled
    back after it: each answers 200 and moves the table on."""
    entries = list(view["legal"])
    if len(entries) > MOST_SENT:
        middle = random.Random(view["move"]).sample(entries[1:-1], MOST_SENT - 2)
        entries = [entries[0], *middle, entries[-1]]
    for entry in entries:
        body = body_of(view, entry)
        with transaction.atomic():
            answer = send(phone, token, body)
            transaction.set_rollback(True)
        assert answer.status_code == 200, (view["phase"], json.dumps(body), answer.content)
        assert answer.json()["move"] > view["move"]
    assert view_of(phone, token) == view  # every try was rolled back


@pytest.mark.parametrize("rules_id", sorted(GAMES))
def test_every_entry_of_legal_sent_as_offered_answers_200(
    rules_id: str, online_session: Any, director: Any, phone: APIClient, monkeypatch: Any
) -> None:
    """The phones play at random (each move one of `legal` as offered); in the first
    state of each kind before play, and in three play states, every entry is sent."""
    deals = random.Random(rules_id)
    monkeypatch.setattr(play_rounds.secrets, "SystemRandom", lambda: deals)
    players, kinds = GAMES[rules_id]
    tokens = tokens_of(online_session(players, rules_id=rules_id), director)
    rng = random.Random(5)
    tried: set[str] = set()
    plays = 0
    view = view_of(phone, next(iter(tokens.values())))
    for _ in range(500):
        if tried >= kinds and plays >= PLAY_STATES:
            break
        assert view["status"] == "playing", (rules_id, tried, plays)
        token = tokens[view["to_act"]]
        mine = view_of(phone, token)
        now = kind(mine)
        if now == PLAY and plays < PLAY_STATES and rng.random() < 0.3:
            plays += 1
            every_entry_answers_200(phone, token, mine)
        elif now != PLAY and now not in tried:
            tried.add(now)
            every_entry_answers_200(phone, token, mine)
        entry = rng.choice(mine["legal"])
        likely = LIKELY.get(mine["phase"])
        if likely in mine["legal"] and rng.random() < 0.8:
            entry = likely
        answer = send(phone, token, body_of(mine, entry))
        assert answer.status_code == 200, answer.content
        view = answer.json()
    assert tried >= kinds
    assert plays == PLAY_STATES
