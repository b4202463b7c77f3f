"""Venue mode: one laptop serves the hall (`make venue`, docs/operations.md)."""

from __future__ import annotations

import io
import re
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from common import backups
from huckley import venue
from tests.factories import UserFactory
from tests.huckley.test_settings import run_settings
from tests.servers import Venue, run_venue

ROOT = Path(__file__).resolve().parents[2]


def test_venue_mode_turns_debug_off_and_makes_a_secret_key_once(tmp_path: Path) -> None:
    env = {"HUCKLEY_VENUE": "1", "HUCKLEY_VAR_DIR": str(tmp_path)}
    code = (
        "from django.conf import settings as s; "
        "print(s.DEBUG, s.ALLOWED_HOSTS, s.SECRET_KEY, "
        "'whitenoise.middleware.WhiteNoiseMiddleware' in s.MIDDLEWARE)"
    )
    first = run_settings(env, code)
    second = run_settings(env, code)
    assert first.returncode == 0, first.stderr
    debug, hosts, key, whitenoise = first.stdout.split()
    assert (debug, hosts, whitenoise) == ("False", "['*']", "True")
    assert key == (tmp_path / "secret_key").read_text()
    assert len(key) > 40
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert second.stdout.split()[2] == key


def test_venue_and_production_together_are_refused() -> None:
    result = run_settings({"HUCKLEY_VENUE": "1", "HUCKLEY_PRODUCTION": "1"}, "pass")
    assert result.returncode != 0
    assert "cannot both be on" in result.stderr


def test_a_sqlite_file_database_runs_in_wal_mode(tmp_path: Path) -> None:
    result = run_settings(
        {"SQLITE_PATH": str(tmp_path / "night.sqlite3")},
        "from django.db import connection; c = connection.cursor(); "
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_the_venue_address_is_never_a_loopback_address() -> None:
    for address in venue.lan_addresses():
        assert not address.startswith("127.")
        assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address)


def test_the_venue_address_can_be_set_by_the_director(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUCKLEY_VENUE_URL", "http://huckley.hall:8080")
    assert venue.venue_url() == "http://huckley.hall:8080/"


def test_the_lobby_shows_the_address_as_text_and_qr_code(
    client: Client, monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    # The lobby asks which session takes check-in at the door (tests/workflow/front/test_door.py).
    monkeypatch.setenv("HUCKLEY_VENUE_URL", "http://192.168.1.20:8000/")
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "http://192.168.1.20:8000/" in html
    assert "<svg" in html


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"href", "src", "action", "srcset", "data", "poster"} and value:
                self.urls.append(value)


EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def _external(urls: list[str]) -> list[str]:
    return [u for u in urls if EXTERNAL.match(u) and not u.startswith("http://testserver")]


@pytest.mark.django_db
def test_no_page_of_the_demo_needs_the_internet(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Crawl every page reachable from home as the demo director: no script, style, font,
    image or link leaves the machine, and the stylesheet loads nothing from outside."""
    # The lobby links to the venue's own address, which is this server.
    monkeypatch.setenv("HUCKLEY_VENUE_URL", "http://testserver/")
    call_command("load_demo", verbosity=0)
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="director"))
    seen: set[str] = set()
    queue = [reverse("tournaments:home"), reverse("lobby"), "/api/docs/"]
    offenders: dict[str, list[str]] = {}
    while queue and len(seen) < 120:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _Links()
        parser.feed(response.content.decode())
        bad = _external(parser.urls)
        if bad:
            offenders[url] = bad
        for link in parser.urls:
            path = link.split("#")[0]
            if path.startswith("/") and not path.startswith(("/static/", "/accounts/logout")):
                queue.append(path)
    assert len(seen) > 15, seen
    assert offenders == {}
    css = (ROOT / "static" / "huckley.css").read_text()
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", css)
    assert "@import" not in css


# One venue for the module: starting one (migrate, collectstatic, gunicorn) takes ten
# seconds on a busy 2-core machine. The backup test, last, stops it.
@pytest.fixture(scope="module")
def venue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    home = tmp_path_factory.mktemp("venue")
    with run_venue(home, WEB_CONCURRENCY="1", HUCKLEY_BACKUP_INTERVAL="1") as served:
        yield served


def _get(url: str) -> tuple[int, Any, str]:
    """Status, headers (looked up in any case: uvicorn sends them in lower case), body."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_make_venue_serves_the_app_with_its_static_files_and_debug_off(
    venue_server: Venue,
) -> None:
    base, process = venue_server.url, venue_server.process
    status, _, lobby = _get(base + "/lobby/")
    assert status == 200
    assert f"{base}/" in lobby
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', lobby)
    assert stylesheet, lobby
    # collectstatic's hashed name, served by WhiteNoise from the production server.
    assert re.search(r"huckley\.[0-9a-f]{12}\.css", stylesheet.group(1))
    status, headers, css = _get(base + stylesheet.group(1))
    assert status == 200
    assert ".qr svg" in css
    # Hashed names are cached by the phones for good: one download per night.
    assert "max-age" in headers.get("Cache-Control", "")
    status, _, missing = _get(base + "/no-such-page/")
    assert status == 404
    assert "Traceback" not in missing
    assert "DEBUG = True" not in missing
    assert process.poll() is None


def test_the_venues_sockets_are_not_compressed(venue_server: Venue) -> None:
    """The ASGI server's sockets keep no zlib state (`huckley.workers.AsgiWorker`, about
    44 KiB a phone): a client that offers permessage-deflate, as every browser does, is
    answered without it."""
    base = venue_server.url
    path = "/ws/play/no-such-seat/"
    with connect("ws" + base.removeprefix("http") + path, origin=base) as socket:
        assert "permessage-deflate" in str(socket.request.headers["Sec-WebSocket-Extensions"])
        assert "Sec-WebSocket-Extensions" not in socket.response.headers
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4404


def test_the_venue_backs_up_as_it_starts_after_a_change_and_as_it_stops(
    venue_server: Venue,
) -> None:
    """`make venue` with HUCKLEY_BACKUP_INTERVAL=1: the launcher's own timer, the real
    server and a write from another connection while it serves."""
    folder = venue_server.home / "var" / "backups"

    def reasons() -> list[str]:
        return [p.name.split("_")[3].split(".")[0] for p in backups.backups(folder)]

    assert reasons() == ["venue-start"]
    with sqlite3.connect(venue_server.database) as db:
        db.execute("INSERT INTO auth_group (name) VALUES ('scorers')")
    deadline = time.monotonic() + 20
    while len(reasons()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    output = venue_server.stop()
    assert venue_server.process.returncode == 0
    assert f"every 1 s, into {folder} (the last 12 kept)" in output
    assert "manage.py restore FILE" in output
    # Nothing changed after the timer's copy, but the last one is taken whatever happened.
    assert reasons() == ["venue-start", "timer", "venue-stop"]
    assert backups.inspect_backup(backups.backups(folder)[-1]).kind == "sqlite"


@pytest.mark.django_db
def test_venue_mode_asks_for_no_account_when_one_exists(
    capsys: pytest.CaptureFixture[str],
) -> None:
    UserFactory()

    venue.ensure_a_director(["manage.py"])

    assert "No account yet" not in capsys.readouterr().out


@pytest.mark.django_db
def test_venue_mode_says_how_to_make_the_first_account(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: nothing to ask

    venue.ensure_a_director(["manage.py"])

    assert "No account yet: run `.venv/bin/python manage.py createsuperuser`" in (
        capsys.readouterr().out
    )
