"""Two nodes (issue 21, "Done means"): a phone connected over a real WebSocket to node A
sees a card played through node B, on PostgreSQL and the real Redis channel layer.

Node A and node B are ASGI servers as deploy/huckley-ws@.service and the venue run them
(gunicorn with uvicorn workers on huckley/asgi.py); node C is the deployment's HTTP
server (deploy/huckley-web.service: gunicorn's sync workers on the WSGI application),
whose moves must reach the sockets of the ASGI nodes too. Skipped with its reason under
`make test` (SQLite, no Redis); a failure under HUCKLEY_STRICT_SKIPS (.ci/run).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scoring.models import Game
from tests.huckley.test_proxy import SHIPPED, block
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body
from tests.play.sockets import a_view, received, socket_to
from tests.servers import (
    Node,
    free_ports,
    gunicorn_nodes,
    needs_gunicorn,
    server_errors,
    wait_until_up,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


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
    needs_gunicorn()
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
    needs_gunicorn()
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


def shipped_proxy(tmp: Path, port: int, web: Node, ws: Node) -> Path:
    """deploy/nginx/huckley.conf's two upstreams and two locations as shipped, with the
    nodes' ports for the machines and plain HTTP for TLS."""
    shipped = SHIPPED.read_text()

    def upstream(name: str, node: Node) -> str:
        text = block(shipped, f"upstream {name}")
        line = f"    server 127.0.0.1:{node.port} max_fails=3 fail_timeout=10s;\n"
        return re.sub(r"(\n\s*server [^;]+;)+\n", "\n" + line, text)

    config = tmp / "nginx.conf"
    config.write_text(
        f"error_log {tmp}/error.log warn;\npid {tmp}/nginx.pid;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp}/body;\n"
        f"  proxy_temp_path {tmp}/proxy;\n"
        f"{upstream('huckley_web', web)}\n{upstream('huckley_ws', ws)}\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n"
        f"    {block(shipped, 'location /ws/')}\n    {block(shipped, 'location /')}\n  }}\n}}\n"
    )
    return config


def test_the_shipped_proxy_carries_the_websocket_to_the_asgi_node(
    tmp_path: Path, online_session: Any, director: Any
) -> None:
    needs_gunicorn()
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("needs nginx (Debian's package; .ci/run installs it)")
    session = online_session(4)
    tokens = tokens_of(session, director)
    with (
        gunicorn_nodes(1, tmp_path, asgi=True) as (ws,),
        gunicorn_nodes(1, tmp_path, HUCKLEY_TRUSTED_PROXIES="127.0.0.1") as (web,),
    ):
        (port,) = free_ports(1)
        config = shipped_proxy(tmp_path, port, web, ws)
        check = subprocess.run([nginx, "-t", "-c", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        process = subprocess.Popen([nginx, "-c", str(config), "-g", "daemon off;"])
        proxy = Node(port=port, process=process, log=tmp_path / "error.log")
        try:
            wait_until_up(proxy, timeout=20)
            with socket_to(proxy, f"/ws/play/{next(iter(tokens.values()))}/") as phone:
                first = a_view(phone)
                _, made = play_one(proxy, tokens, random.Random(3))
                assert made == first["move"] + 1
                assert a_view(phone)["move"] == made
        finally:
            process.terminate()
            process.wait(timeout=10)
