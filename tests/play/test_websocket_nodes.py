"""Two nodes (issue 21, "Done means"): a phone connected over a real WebSocket to node A
sees a card played through node B, on PostgreSQL and the real Redis channel layer.

Node A and node B are ASGI servers as deploy/huckley-ws.service and the venue run them
(gunicorn with uvicorn workers on huckley/asgi.py); node C is the deployment's HTTP
server (deploy/huckley-web.service: gunicorn's sync workers on the WSGI application),
whose moves must reach the sockets of the ASGI nodes too. Skipped with its reason under
`make test` (SQLite, no Redis); a failure under HUCKLEY_STRICT_SKIPS (.ci/run).
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body
from tests.servers import Node, gunicorn_nodes, needs_postgres_and_redis, server_errors

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TIMEOUT = 15


def socket_to(node: Node, path: str) -> ClientConnection:
    # The Origin a browser sends for a page of the node: the server checks it.
    return connect(f"ws://127.0.0.1:{node.port}{path}", origin=node.url, open_timeout=TIMEOUT)


def received(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=TIMEOUT))
    return message


def a_view(socket: ClientConnection) -> dict[str, Any]:
    message = received(socket)
    assert message["type"] == "view", message
    view: dict[str, Any] = message["view"]
    return view


def play_one(node: Node, tokens: dict[str, str], rng: random.Random) -> tuple[str, int]:
    """Through `node`'s HTTP API: the seat to act makes a legal move; its token and the
    state number the move made."""
    for token in tokens.values():
        view = node.get(f"/api/play/{token}/").json()
        if view["to_act"] == view["player"] and view["legal"]:
            body = choice_body(view, rng.choice(view["legal"]), rng)
            answer = node.post(f"/api/play/{token}/moves/", body)
            assert answer.status == 200, answer.body
            return token, int(answer.json()["move"])
    raise AssertionError("nobody could move")


def test_a_phone_on_node_a_sees_a_card_played_on_node_b(
    tmp_path: Path, online_session: Any, director: Any
) -> None:
    needs_postgres_and_redis()
    session = online_session(4)
    tokens = tokens_of(session, director)
    rng = random.Random(5)
    with (
        gunicorn_nodes(2, tmp_path, asgi=True) as (a, b),
        gunicorn_nodes(1, tmp_path) as (c,),
    ):
        with contextlib.ExitStack() as sockets:
            phones = {
                token: sockets.enter_context(socket_to(a, f"/ws/play/{token}/"))
                for token in tokens.values()
            }
            first = {token: a_view(socket) for token, socket in phones.items()}
            assert {view["status"] for view in first.values()} == {"playing"}
            moves = {view["move"] for view in first.values()}
            assert len(moves) == 1
            move = moves.pop()
            # Through node B (ASGI), then through node C (sync HTTP): every phone on node A
            # gets the change, its own seat's view, with no request of its own.
            for node in (b, c, b):
                _, made = play_one(node, tokens, rng)
                assert made == move + 1
                for token, socket in phones.items():
                    view = a_view(socket)
                    assert view["move"] == made, (token, view)
                    assert view == node.get(f"/api/play/{token}/").json()
                move = made
            # The ping is answered by node A too.
            socket = next(iter(phones.values()))
            socket.send(json.dumps({"type": "ping"}))
            assert received(socket) == {"type": "pong"}
        for node in (a, b, c):
            assert not server_errors(node), server_errors(node)


def test_a_watcher_on_node_a_sees_a_card_played_on_node_b(
    tmp_path: Path, online_session: Any, director: Any
) -> None:
    needs_postgres_and_redis()
    session = online_session(4)
    tokens = tokens_of(session, director)
    table_id = Game.objects.get(table__sitting__session=session, number=1).table_id
    with (
        gunicorn_nodes(2, tmp_path, asgi=True) as (a, b),
        socket_to(a, f"/ws/watch/{table_id}/") as watch,
    ):
        first = a_view(watch)
        assert first["hand"] is None
        _, made = play_one(b, tokens, random.Random(2))
        view = a_view(watch)
        assert view["move"] == made
        assert view["hand"] is None
