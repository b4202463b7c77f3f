"""deploy/nginx/huckley.conf in front of two gunicorn nodes (docs/operations.md, Several
machines): its upstream and its `location /`, taken from the file as shipped, with the
two nodes' ports for the web machines and plain HTTP instead of TLS. Requests go through
the proxy, and when one node dies the other answers them all."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scoring.models import Game, Round
from tests.api.conftest import first_round
from tests.servers import Node, free_ports, gunicorn_nodes, needs_gunicorn
from tournaments.models import Session
from workflow.tables import links as table_links

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "huckley.conf"


def block(text: str, head: str) -> str:
    """The `head { ... }` block of an nginx file (no nested braces in these blocks)."""
    match = re.search(re.escape(head) + r"\s*\{[^{}]*\}", text)
    assert match, f"{head} is missing from {SHIPPED}"
    return match.group(0)


def proxy_config(tmp: Path, port: int, nodes: list[Node]) -> Path:
    """The shipped upstreams and locations, the web's and the WebSocket's, both with the
    test's nodes as their servers; each request to /ws/ logged with the server that
    answered it (`routes`)."""
    shipped = SHIPPED.read_text()
    servers = "".join(
        f"    server 127.0.0.1:{n.port} max_fails=3 fail_timeout=10s;\n" for n in nodes
    )
    upstreams = "\n".join(
        re.sub(r"(\n\s*server [^;]+;)+\n", "\n" + servers, block(shipped, head))
        for head in ("upstream huckley_web", "upstream huckley_ws")
    )
    locations = "\n".join(block(shipped, head) for head in ("location /ws/", "location /"))
    config = tmp / "nginx.conf"
    config.write_text(
        f"error_log {tmp}/error.log warn;\npid {tmp}/nginx.pid;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp}/body;\n"
        f"  proxy_temp_path {tmp}/proxy;\n{upstreams}\n"
        "  log_format route '$uri|$arg_table|$upstream_addr|$status';\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    client_max_body_size 10m;\n"
        f"    access_log {tmp}/routes.log route;\n"
        f"    {locations}\n  }}\n}}\n"
    )
    return config


def routes(tmp: Path) -> list[tuple[str, str, str]]:
    """The table, the server that answered (its last, when nginx tried more than one)
    and the status of each request to /ws/ so far."""
    lines = (tmp / "routes.log").read_text().splitlines()
    found = [line.split("|") for line in lines if line.startswith("/ws/")]
    return [(table, server.split(", ")[-1], status) for _, table, server, status in found]


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, list[Node], Path]]:
    needs_gunicorn()
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("needs nginx (Debian's package; .ci/run installs it)")
    with gunicorn_nodes(2, tmp_path, HUCKLEY_TRUSTED_PROXIES="127.0.0.1") as nodes:
        (port,) = free_ports(1)
        config = proxy_config(tmp_path, port, nodes)
        check = subprocess.run([nginx, "-t", "-c", str(config)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        proxy = subprocess.Popen([nginx, "-c", str(config), "-g", "daemon off;"])
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 20
            while True:
                try:
                    urllib.request.urlopen(base + "/api/rules/", timeout=5)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            yield base, nodes, tmp_path
        finally:
            proxy.terminate()
            proxy.wait(timeout=10)


def call(base: str, path: str, body: bytes | None = None, **headers: str) -> int:
    request = urllib.request.Request(
        base + path, data=body, headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_the_shipped_proxy_serves_both_nodes_and_survives_one_dying(
    proxied: tuple[str, list[Node], Path], make_session: Callable[..., Session], director: Any
) -> None:
    base, nodes, _ = proxied
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    token = table_links.scorer_link_create(table_id=game.table_id, user=director).token
    pages = [f"/sessions/{session.pk}/", f"/api/sessions/{session.pk}/", f"/api/games/{game.pk}/"]
    assert [call(base, p) for p in pages * 2] == [200] * 6

    nodes[0].stop()  # a web machine dies
    assert [call(base, p) for p in pages * 3] == [200] * 9
    # A round entered through the proxy reaches the node that is left, once.
    body = json.dumps(first_round(game)).encode()
    assert call(base, f"/api/games/{game.pk}/rounds/", body, **{"X-Scorer-Token": token}) == 201
    assert Round.objects.filter(game=game).count() == 1


def test_the_shipped_proxy_sends_each_table_s_sockets_to_one_server(
    proxied: tuple[str, list[Node], Path],
) -> None:
    """Every socket of a table (`?table=`, as the seat and watch pages put it) reaches
    the same server, the tables are spread over the servers, and when one dies its
    tables go to the other. Plain GETs stand in for the sockets' upgrades: nginx routes
    them by the same address."""
    base, nodes, tmp = proxied
    tables = [f"7.1.{rank}" for rank in range(1, 25)]
    for table in tables:
        for seat in range(4):
            call(base, f"/ws/play/seat{seat}/?table={table}")
        call(base, f"/ws/watch/1/?table={table}")
    served: dict[str, set[str]] = {}
    for table, server, status in routes(tmp):
        assert status not in {"502", "504"}
        served.setdefault(table, set()).add(server)
    assert set(served) == set(tables)
    assert all(len(servers) == 1 for servers in served.values())
    assert {s for servers in served.values() for s in servers} == {
        f"127.0.0.1:{n.port}" for n in nodes
    }

    nodes[0].stop()  # a WebSocket server dies: its tables' sockets reconnect
    before = len(routes(tmp))
    for table in tables:
        call(base, f"/ws/play/seat0/?table={table}")
    after = routes(tmp)[before:]
    assert {server for _, server, _ in after} == {f"127.0.0.1:{nodes[1].port}"}
    assert all(status not in {"502", "504"} for _, _, status in after)
