"""What gunicorn answers before Django (huckley/gunicorn_conf.py): a request line over
4 KiB, or one that is not HTTP, is refused as JSON like every API error, not as
gunicorn's HTML page; and every way Huckley runs gunicorn uses that configuration."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from huckley import venue
from tests.servers import REPO, gunicorn_nodes, needs_gunicorn


def raw(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    return status, headers, body


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_request_line_over_4_kib_and_a_line_that_is_not_http_are_answered_as_json(
    tmp_path: Path,
) -> None:
    needs_gunicorn()
    with gunicorn_nodes(1, tmp_path) as (node,):
        long_line = b"GET /api/sessions/?q=" + b"x" * 5000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        status, headers, body = raw(node.port, long_line)
        assert status.startswith("HTTP/1.1 414")
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["code"] == "uri_too_long"
        assert "longer than 4,094 characters" in json.loads(body)["message"]

        status, headers, body = raw(node.port, b"NOT HTTP AT ALL\r\n\r\n")
        assert status.startswith("HTTP/1.1 400")
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["code"] == "bad_request"

        # A long legal call still reaches Django: its own JSON answer.
        fine = raw(
            node.port,
            b"GET /api/sessions/?q="
            + b"x" * 3000
            + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        )
        assert fine[0].startswith("HTTP/1.1 200"), fine


def test_the_venue_and_the_deployed_unit_run_gunicorn_with_that_configuration() -> None:
    command = venue._server_command(8000, 3)
    if "gunicorn" in command[0]:
        assert "--config=python:huckley.gunicorn_conf" in command
    unit = (REPO / "deploy" / "huckley-web.service").read_text()
    assert "--config python:huckley.gunicorn_conf" in unit
