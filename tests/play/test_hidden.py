"""Hidden information beyond the seat's own view: a watcher sees no hand at all, the push
sends each seat only its own view, and a token opens only its own seat. (Every view, 409
and 400 of a whole game is checked in test_games.py and test_moves.py.)"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from play import bus, push, selectors
from play.models import LiveRound
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, hidden_from, leaked, send, view_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(online_session: Any, director: Any, phone: Any) -> dict[str, Any]:
    session = online_session(4)
    tokens = tokens_of(session, director)
    view = view_of(phone, next(iter(tokens.values())))
    table = session.sittings.get().tables.get()
    return {"tokens": tokens, "view": view, "table": table}


def test_a_watcher_sees_the_trick_and_no_hand(table: dict[str, Any], phone: Any) -> None:
    watched = selectors.watch_view(table["table"].pk)
    assert watched["hand"] is None
    assert watched["legal"] == []
    assert watched["player"] is None
    live = LiveRound.objects.get(game_id=watched["game"])
    every_hand = {c for cards in live.state["state"]["hands"].values() for c in cards}
    assert every_hand
    assert every_hand <= hidden_from(watched)
    assert leaked(watched) == set()


def test_the_push_sends_each_seat_its_own_view_and_the_watchers_theirs(
    table: dict[str, Any], phone: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    published: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(
        bus, "publish", lambda table_id, message: published.append((table_id, message))
    )
    token = table["tokens"][table["view"]["to_act"]]
    mine = view_of(phone, token)

    with django_capture_on_commit_callbacks(execute=True):
        answer = send(phone, token, choice_body(mine, mine["legal"][0], random.Random(1)))
    assert answer.status_code == 200

    # One message on the table's channel, carrying each seat's own view and the watchers'.
    ((table_id, message),) = published
    assert table_id == table["table"].pk
    assert message["kind"] == "views"
    assert set(message["views"]) == set(table["tokens"].values())
    for seat_token, text in message["views"].items():
        sent = json.loads(text)
        assert sent["type"] == "view"
        now = view_of(phone, seat_token)  # this read marks the seat seen: `away` changes
        assert {**sent["view"], "players": None} == {**now, "players": None}
        assert leaked(sent["view"]) == set()
    watched = json.loads(message["watch"])["view"]
    assert watched["hand"] is None
    assert watched["move"] == answer.json()["move"]


def test_without_a_channel_layer_the_push_does_nothing(
    table: dict[str, Any], settings: Any
) -> None:
    settings.CHANNEL_LAYERS = {}
    table_id = table["table"].pk
    push.send(table_id, selectors.table_now(table_id))  # no error, nothing sent


def test_a_token_opens_its_own_seat_only(table: dict[str, Any], phone: Any) -> None:
    for name, token in table["tokens"].items():
        view = view_of(phone, token)
        assert view["player"] == name
        others = [t for n, t in table["tokens"].items() if n != name]
        for other in others:
            assert not set(view_of(phone, other)["hand"]) & set(view["hand"])
