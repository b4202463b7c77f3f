"""The faults of issue 13, each with the test that failed before its fix: Redis down, a
worker killed mid-task, a dropped database connection, a forged X-Forwarded-For, a round
carrying junk, names hiding characters (docs/operations.md, Faults)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from rest_framework.settings import api_settings

from common.errors import UserError
from huckley.proxies import parse_networks, resolve
from scoring.models import Game, Round, RoundChange
from tests.api.conftest import first_round, token_client
from tests.factories import UserFactory
from tournaments.models import Player, Session
from tournaments.permissions import SYSTEM
from workflow.club import selectors as club_selectors
from workflow.session import services, start_finish

REPO = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("redis_down_probe.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_probe(redis_url: str, tmp_path: Path, **env: str) -> tuple[dict[str, Any], str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, str(PROBE)],
        env={
            **clean,
            **env,
            "REDIS_URL": redis_url,
            "SQLITE_PATH": str(tmp_path / "probe.sqlite3"),
            "DJANGO_SETTINGS_MODULE": "huckley.settings",
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def assert_everything_worked(out: dict[str, Any], log: str) -> None:
    assert out["session_page"] == 200
    assert out["club_page"] == 200
    assert out["token"] == 200
    assert out["token_type"] == "application/json"
    assert out["finish"] == 302  # to the standings, not an error page
    assert out["finished"] is True
    assert out["ladder_rows"] == 8
    assert out["club_page_after"] == 200
    # No request waits on Redis: refused connections give up at once, not after retries.
    assert out["finish_s"] < 3, out
    assert out["club_page_after_s"] < 3, out
    # Cache errors are logged, and the refresh the broker could not take ran in the request.
    assert "ConnectionError" in log
    assert "running it in the request" in log
    # The outage is one line (a minute), not a traceback per cache call: about 20 requests.
    assert out["requests"] == 20
    assert log.count("Redis cache unreachable") == 1, log[-3000:]
    assert "Exception ignored" not in log
    assert "Traceback" not in log, log[-3000:]


# 1. Redis down -------------------------------------------------------------------------


def test_with_redis_unreachable_pages_sign_in_and_finishing_a_session_work(
    tmp_path: Path,
) -> None:
    # A port where nothing listens: every cache read, throttle count and task queued
    # meets a refused connection, as when Redis has stopped.
    out, log = run_probe(f"redis://127.0.0.1:{free_port()}/0", tmp_path)
    assert_everything_worked(out, log)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[int]:
    """A redis-server of the test's own on port 6391 (or a free one), stopped at the end."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs redis-server on PATH to start and stop a Redis of its own")
    port = 6391
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", port)) == 0:
            port = free_port()
    subprocess.run(
        [
            server,
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            "--dir",
            str(tmp_path),
            "--pidfile",
            str(tmp_path / "redis.pid"),
        ],
        check=True,
        capture_output=True,
    )
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    # No retries: once the test has stopped this Redis, the default retries with backoff
    # took four seconds to give up on the SHUTDOWN below.
    client = redis.Redis(port=port, retry=Retry(NoBackoff(), 0))
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    yield port
    with contextlib.suppress(redis.ConnectionError):  # already stopped by the test
        client.shutdown(nosave=True)


@pytest.mark.services
def test_a_redis_stopped_mid_session_leaves_pages_sign_in_and_finishing_working(
    own_redis: int, tmp_path: Path
) -> None:
    # The probe warms the cache on the running Redis, stops it (SHUTDOWN), then works on.
    out, log = run_probe(f"redis://127.0.0.1:{own_redis}/0", tmp_path, PROBE_SHUTDOWN_REDIS="1")
    assert out["warm_session_page"] == 200
    assert out["redis_stopped"] is True
    assert_everything_worked(out, log)


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_a_bug_behind_the_api_answers_json_not_an_html_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from api.views import misc

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    # Keep the endpoint's declared permission (anyone), so the bug is what answers.
    broken.need = misc.ObtainToken.post.need  # type: ignore[attr-defined]
    monkeypatch.setattr(misc.ObtainToken, "post", broken)
    response = Client(raise_request_exception=False).post(
        "/api/auth/token/", {}, content_type="application/json"
    )
    assert response.status_code == 500
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_a_bug_behind_a_page_still_answers_the_html_error_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.template import loader

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(loader, "render_to_string", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert response.headers["Content-Type"].startswith("text/html")


def test_the_redis_settings_ignore_cache_errors_and_never_wait_long() -> None:
    from tests.huckley.test_settings import run_settings

    result = run_settings(
        {"REDIS_URL": "redis://r:6379/2"},
        "from django.conf import settings as s; import json; o = s.CACHES['default']['OPTIONS']; "
        "print(json.dumps([o['IGNORE_EXCEPTIONS'], o['SOCKET_CONNECT_TIMEOUT'], "
        "o['SOCKET_TIMEOUT'], s.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS, s.CELERY_RESULT_BACKEND, "
        "s.CELERY_TASK_PUBLISH_RETRY, s.CELERY_BROKER_TRANSPORT_OPTIONS]))",
    )
    assert result.returncode == 0, result.stderr
    ignore, connect, read, logged, backend, publish_retry, transport = json.loads(result.stdout)
    assert ignore is True
    assert logged is True
    assert connect <= 1
    assert read <= 1
    assert backend is None  # nothing reads results; no result backend to retry for seconds
    assert publish_retry is False
    assert transport["socket_connect_timeout"] <= 1


# 2. A worker killed mid-task -----------------------------------------------------------


def test_a_task_a_killed_worker_left_unacknowledged_is_handed_out_again_within_a_minute() -> None:
    from tests.huckley.test_settings import run_settings

    result = run_settings(
        {"REDIS_URL": "redis://r:6379/2"},
        "from huckley.celery import app; "
        "print(app.conf.task_acks_late, app.conf.broker_transport_options['visibility_timeout'])",
    )
    assert result.returncode == 0, result.stderr
    acks_late, visibility = result.stdout.split()
    assert acks_late == "True"  # a killed task is not lost...
    assert int(visibility) <= 60  # ...and goes out again within a minute, not an hour


@pytest.mark.django_db
def test_the_season_ladder_is_current_even_if_the_refresh_task_never_ran(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8)
    before = club_selectors.season_standings_cached(
        session.season_id
    )  # cached, as the club page does
    assert before == []
    # Finished with its on-commit refresh never run (this test's transaction never
    # commits): what a worker killed mid-task, or a lost task, leaves behind.
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    rows = club_selectors.season_standings_cached(session.season_id)
    assert [r.player.pk for r in rows] == [
        r.player.pk for r in club_selectors.season_standings(session.season_id)
    ]
    assert len(rows) == 8


# 3. A dropped database connection ------------------------------------------------------


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_database_connection_postgresql_dropped_is_reopened_by_the_next_request(
    make_session: Callable[..., Session],
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) to terminate a backend; .ci/run sets it")
    assert connection.settings_dict["CONN_MAX_AGE"] > 0, "kept connections are what can go stale"
    session = make_session(8)
    handler = WSGIHandler()  # the real request cycle, with its connection bookkeeping

    def get(path: str) -> str:
        statuses: list[str] = []
        environ = RequestFactory().get(path).environ
        body = handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
        b"".join(body)
        body.close()  # request_finished: the connection is kept (CONN_MAX_AGE)
        return statuses[0]

    assert get(f"/sessions/{session.pk}/").startswith("200")
    kept = connection.connection
    assert kept is not None
    assert not kept.closed
    import psycopg

    params = connection.get_connection_params()
    with psycopg.connect(
        **{k: v for k, v in params.items() if k not in {"cursor_factory", "context"}},
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [kept.info.backend_pid])
    time.sleep(0.2)
    assert get(f"/sessions/{session.pk}/").startswith("200")
    assert get(f"/api/sessions/{session.pk}/").startswith("200")


# 4. X-Forwarded-For --------------------------------------------------------------------

NO_PROXY = parse_networks([])
LOCAL_PROXY = parse_networks(["10.0.0.1", "fd00::/8"])


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored() -> None:
    assert resolve("203.0.113.5", "198.51.100.1", NO_PROXY) == "203.0.113.5"


def test_x_forwarded_for_from_an_untrusted_address_is_ignored() -> None:
    assert resolve("203.0.113.5", "198.51.100.1", LOCAL_PROXY) == "203.0.113.5"


def test_behind_the_trusted_proxy_the_address_it_saw_is_the_client() -> None:
    # The client sent a forged header; the proxy appended the address it really saw.
    assert resolve("10.0.0.1", "198.51.100.1, 203.0.113.5", LOCAL_PROXY) == "203.0.113.5"


def test_a_chain_of_trusted_proxies_is_walked_back_to_the_first_untrusted_hop() -> None:
    assert resolve("10.0.0.1", "203.0.113.5, fd00::7", LOCAL_PROXY) == "203.0.113.5"


def test_a_malformed_forwarded_entry_leaves_the_proxy_as_the_client() -> None:
    assert resolve("10.0.0.1", "junk", LOCAL_PROXY) == "10.0.0.1"


@pytest.fixture
def production_https(settings: Any) -> Any:
    """The HTTPS settings of HUCKLEY_PRODUCTION: plain HTTP is redirected, and a request
    the proxy says came over HTTPS (X-Forwarded-Proto) is not."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    return settings


@pytest.mark.parametrize("proxies", [[], ["10.0.0.1"]], ids=["no proxy", "another proxy"])
def test_x_forwarded_proto_from_a_client_that_is_not_a_trusted_proxy_is_ignored(
    production_https: Any, proxies: list[str]
) -> None:
    production_https.HUCKLEY_TRUSTED_PROXIES = proxies
    response = Client(REMOTE_ADDR="203.0.113.5").get("/api/rules/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301, "plain HTTP, whatever the client says"
    assert response["Location"].startswith("https://")


def test_x_forwarded_proto_from_the_trusted_proxy_is_believed(production_https: Any) -> None:
    production_https.HUCKLEY_TRUSTED_PROXIES = ["10.0.0.1"]
    response = Client(REMOTE_ADDR="10.0.0.1").get(
        "/api/rules/", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="203.0.113.5"
    )
    assert response.status_code == 200


def token_rate() -> int:
    rate = api_settings.DEFAULT_THROTTLE_RATES["token"]
    return int(rate.split("/")[0])


@pytest.fixture
def signer(settings: Any) -> str:
    """A user whose right password the token endpoint accepts (so that only the rate
    limit, not the sign-in lock, can refuse), with a fast hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="hal")
    return "hal"


def token_call(client: Client, username: str, forwarded: str) -> int:
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": "pw-for-tests-only"},
        content_type="application/json",
        HTTP_X_FORWARDED_FOR=forwarded,
    ).status_code


@pytest.fixture
def throttle_keys() -> Iterator[list[str]]:
    """Addresses used by a test, whose throttle counts are dropped afterwards (with Redis
    they would outlive the test)."""
    used: list[str] = []
    yield used
    for address in used:
        cache.delete(f"throttle_token_{address}")


@pytest.mark.django_db
def test_a_new_x_forwarded_for_on_every_call_does_not_lift_the_token_rate_limit(
    signer: str, throttle_keys: list[str]
) -> None:
    client = Client(REMOTE_ADDR="192.0.2.77")
    throttle_keys.extend(["192.0.2.77"] + [f"198.51.100.{i}" for i in range(token_rate() + 1)])
    answers = [token_call(client, signer, f"198.51.100.{i}") for i in range(token_rate() + 1)]
    assert answers[:-1] == [200] * token_rate()
    assert answers[-1] == 429


@override_settings(HUCKLEY_TRUSTED_PROXIES=["10.0.0.1"])
@pytest.mark.django_db
def test_behind_the_trusted_proxy_each_client_has_its_own_token_rate_limit(
    signer: str, throttle_keys: list[str]
) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    throttle_keys.extend(["10.0.0.1", "203.0.113.10", "203.0.113.11"])

    def call(client_address: str, forged: int) -> int:
        # What a client forged, then what the proxy appended.
        return token_call(client, signer, f"198.51.100.{forged}, {client_address}")

    assert [call("203.0.113.10", i) for i in range(token_rate())] == [200] * token_rate()
    assert call("203.0.113.10", 99) == 429
    assert call("203.0.113.11", 99) == 200  # another player behind the same proxy


@pytest.mark.django_db
def test_a_new_x_forwarded_for_on_every_sign_in_does_not_lift_the_lock() -> None:
    UserFactory(username="fay")
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit):
        client.post(
            reverse("login"),
            {"username": "fay", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        )
    response = client.post(
        reverse("login"),
        {"username": "fay", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="198.51.100.200",
    )
    assert response.status_code == 429


@override_settings(HUCKLEY_TRUSTED_PROXIES=["10.0.0.1"])
@pytest.mark.django_db
def test_behind_the_trusted_proxy_a_locked_out_client_does_not_lock_out_another() -> None:
    UserFactory(username="gus")
    client = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"),
            {"username": "gus", "password": "wrong"},
            HTTP_X_FORWARDED_FOR="203.0.113.20",
        )
    locked = client.post(
        reverse("login"),
        {"username": "gus", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="203.0.113.20",
    )
    assert locked.status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.1").post(
        reverse("login"),
        {"username": "gus", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="203.0.113.21",
    )
    assert other.status_code == 302


# 5. Round fields -----------------------------------------------------------------------


@pytest.fixture
def game(make_session: Callable[..., Session]) -> Game:
    session = make_session(8)
    return Game.objects.get(table__sitting__session=session, table__rank=1)


@pytest.mark.django_db
def test_a_round_with_an_unknown_megabyte_field_is_refused_and_stores_nothing(
    game: Game, director: Any
) -> None:
    body = first_round(game) | {"notes": "x" * 1_000_000}
    response = token_client(director).post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_round_field"
    assert "notes" in response.json()["message"]
    assert not Round.objects.filter(game=game).exists()
    assert not RoundChange.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_round_of_only_known_fields_is_still_stored(game: Game, director: Any) -> None:
    response = token_client(director).post(
        f"/api/games/{game.pk}/rounds/", first_round(game), format="json"
    )
    assert response.status_code == 201, response.json()
    assert Round.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_round_whose_known_fields_are_huge_is_refused_before_the_engine_reads_it(
    game: Game, director: Any
) -> None:
    body = first_round(game)
    body["penalties"] = [{"player": body["dealer"], "kind": "x" * 100}] * 500
    response = token_client(director).post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "round_too_large"
    assert not Round.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_scorer_sending_an_unknown_field_is_refused_too(game: Game, director: Any) -> None:
    from tests.api.conftest import scorer_client

    client = scorer_client(game.table_id, director)
    body = first_round(game) | {"tricks_total": 5}
    response = client.post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_round_field"
    assert not Round.objects.filter(game=game).exists()


# 6. Names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["\u202eRLO", "Ann\u200b", "\u200b", "Bell\u0007", "Zoë\u2066", "\u200cAnn", "Ann \u200d"],
)
@pytest.mark.django_db
def test_a_name_with_a_control_bidi_or_zero_width_character_is_refused(
    club: Any, name: str
) -> None:
    with pytest.raises(UserError) as refused:
        services.players_get_or_create(club=club, names=["Ann Able", name])
    assert refused.value.code == "name_hidden_character"
    assert "Player names can't contain the invisible character U+" in refused.value.message
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_names_in_any_script_with_accents_and_punctuation_are_accepted(club: Any) -> None:
    names = [
        "Zoë O'Brien-Smith",
        "Łukasz Żak",
        "Ἀλέξανδρος",
        "山田 太郎",
        "Nguyễn Văn A",
        "نیلو\u200cفر",  # Persian spells with a zero-width non-joiner between letters
    ]
    assert [p.name for p in services.players_get_or_create(club=club, names=names)] == names


@pytest.mark.django_db
def test_the_api_refuses_a_new_session_with_a_hidden_character_in_a_name(
    club: Any, season: Any, director: Any
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "season": season.pk,
            "name": "Club night",
            "date": str(season.starts_on),
            "rules_id": "huckley-buck",
            "games_per_sitting": 2,
            "new_names": ["Ann Able", "Bo\u202eb", "Cy Cole", "Di Dee"],
        },
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "name_hidden_character"
    assert not Session.objects.exists()
    assert not Player.objects.filter(club=club).exists()


# 7. The schema states what the code enforces --------------------------------------------


@pytest.mark.django_db
def test_the_schema_says_a_sitting_is_two_or_three_games_wherever_it_is_set() -> None:
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    inputs = {
        name: component["properties"]["games_per_sitting"]
        for name, component in schema["components"]["schemas"].items()
        if "games_per_sitting" in component.get("properties", {}) and name.endswith("Request")
    }
    assert len(inputs) >= 2, "creating a session and changing its settings both take it"
    for name, field in inputs.items():
        assert (field.get("minimum"), field.get("maximum")) == (2, 3), name


@pytest.mark.parametrize("games", [1, 4, 0])
@pytest.mark.django_db
def test_a_session_of_other_than_two_or_three_games_a_sitting_is_refused(
    club: Any, season: Any, director: Any, games: int
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "season": season.pk,
            "name": "Club night",
            "date": str(season.starts_on),
            "games_per_sitting": games,
            "new_names": ["Ann Able", "Bo Bell", "Cy Cole", "Di Dee"],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "games_per_sitting"
    assert not Session.objects.exists()
