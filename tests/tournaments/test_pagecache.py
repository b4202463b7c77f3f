"""The public's stored copies of a session's pages (tournaments/pagecache.py): served with
no rendering, never stale, never a signed-in visitor's page, and still served from the
database when Redis is down. Each test runs with the generation read from the session's
row ("row", a laptop's per-process cache) and kept in the shared cache ("shared", Redis
in production; the test's own memory cache stands in for it, or a Redis of the test's own
where Redis itself is the point)."""

from __future__ import annotations

import contextlib
import gzip
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from scoring.models import Game
from tests.huckley.test_faults import own_redis  # noqa: F401 (a fixture)
from tournaments import pagecache
from tournaments.models import Seating, Session
from workflow.session import movements, start_finish, withdrawals
from workflow.session.simulation import finish_sitting_unplayed, play_game, play_sitting

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["row", "shared"])
def mode(request: pytest.FixtureRequest, settings: Any) -> str:
    settings.HUCKLEY_SHARED_CACHE = request.param == "shared"
    return str(request.param)


def public_urls(session: Session, name: str) -> list[str]:
    sitting = session.sittings.order_by("-number").first()
    assert sitting is not None
    board = reverse("tournaments:session", args=[session.pk])
    return [
        board,
        f"{board}?name={name}",
        reverse("tournaments:session_found", args=[session.pk]) + f"?name={name}",
        reverse("tournaments:standings", args=[session.pk]),
        reverse("api:sitting", args=[sitting.pk]),
    ]


def test_a_stored_page_is_served_without_rendering_or_more_than_one_query(
    mode: str,
    make_session: Callable[..., Session],
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(13)
    name = Seating.objects.filter(sitting__session=session).first().player.name  # type: ignore[union-attr]
    for url in public_urls(session, name):
        first = client.get(url)
        assert first.status_code == 200, url
        # The row's generation, and for the API which session the sitting is of; with a
        # shared cache, nothing but the cache.
        limit = 0 if mode == "shared" else (2 if url.startswith("/api/") else 1)
        with django_assert_max_num_queries(limit):
            again = client.get(url)
        assert again.status_code == 200, url
        assert again.content == first.content
        assert again["ETag"] == first["ETag"]
        assert again["Cache-Control"] == "no-cache"


def test_an_unchanged_page_is_a_304_and_a_withdrawal_shows_on_the_next_request(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    gone = Seating.objects.filter(sitting__session=session).select_related("player").last()
    assert gone is not None
    url = reverse("tournaments:session", args=[session.pk])
    before = client.get(url)
    assert gone.player.name in before.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304

    withdrawals.session_withdraw(session_id=session.pk, player_id=gone.player_id, user=director)

    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert f": {gone.player.name}</li>" not in after.content.decode()


def test_a_finished_game_and_a_movement_show_on_the_next_request(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    standings = reverse("tournaments:standings", args=[session.pk])
    sitting = session.sittings.get()
    api = reverse("api:sitting", args=[sitting.pk])
    game = Game.objects.filter(table__sitting=sitting, table__rank=1).get()
    played = '<td class="num">{}</td><td class="num">1</td>'
    assert played.format(0) not in client.get(standings).content.decode()
    assert client.get(api).json()["tables"][0]["games_finished"] == 0

    play_game(game, seed=3)

    page = client.get(standings).content.decode()
    for player in game.game_players.all():
        assert played.format(player.score) in page
    assert client.get(api).json()["tables"][0]["games_finished"] == 1


def test_a_movement_shows_on_the_next_request(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    sitting = session.sittings.get()
    assert (
        "Tables of sitting 1"
        in client.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    )
    play_sitting(sitting, seed=5)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    page = client.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert "Tables of sitting 2" in page


def test_a_session_made_private_is_a_404_to_the_public_at_once(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(13)
    urls = public_urls(session, "a")
    for url in urls:
        assert client.get(url).status_code == 200, url
    session.is_public = False
    session.save(update_fields=["is_public"])
    for url in urls:
        assert client.get(url).status_code == 404, url


def test_a_renamed_session_shows_its_new_name_at_once(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    url = reverse("tournaments:standings", args=[session.pk])
    assert "Club night" in client.get(url).content.decode()
    session.name = "Cup final"
    session.save(update_fields=["name"])
    assert "Cup final" in client.get(url).content.decode()


def test_a_director_gets_their_own_page_and_the_public_never_does(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    directing = Client()
    directing.force_login(director)
    mine = directing.get(url).content.decode()
    assert "Run this session" in mine
    assert "dee-director" in mine
    public = client.get(url).content.decode()
    assert "Run this session" not in public
    assert "dee-director" not in public
    assert "csrfmiddlewaretoken" not in public
    # The director's next request is rendered for them again, not the public's copy.
    assert "Run this session" in directing.get(url).content.decode()


def test_a_private_session_is_never_stored(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13, is_public=False)
    url = reverse("tournaments:standings", args=[session.pk])
    directing = Client()
    directing.force_login(director)
    assert directing.get(url).status_code == 200
    assert client.get(url).status_code == 404
    assert client.get(url).status_code == 404


@pytest.fixture
def redis_cache(own_redis: int) -> Iterator[int]:  # noqa: F811 (the imported fixture)
    caches = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{own_redis}/0",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }
    with override_settings(CACHES=caches, HUCKLEY_SHARED_CACHE=True):
        pagecache.forget()
        yield own_redis
    pagecache.forget()


def test_with_redis_stopped_the_pages_are_built_from_the_database_and_stay_current(
    redis_cache: int,
    make_session: Callable[..., Session],
    client: Client,
    director: Any,
    django_assert_max_num_queries: Any,
) -> None:
    import redis

    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    assert client.get(url).status_code == 200
    with django_assert_max_num_queries(0):
        assert client.get(url).status_code == 200  # stored in Redis and in the process

    with contextlib.suppress(redis.ConnectionError):  # SHUTDOWN drops its connection
        redis.Redis(port=redis_cache).shutdown(nosave=True)

    gone = Seating.objects.filter(sitting__session=session).select_related("player").last()
    assert gone is not None
    withdrawals.session_withdraw(session_id=session.pk, player_id=gone.player_id, user=director)
    page = client.get(url)
    assert page.status_code == 200
    assert f": {gone.player.name}</li>" not in page.content.decode()
    start_finish.session_finish(session_id=session.pk, user=director, early=True)
    assert "Finished" in client.get(url).content.decode()


def test_a_phone_that_asks_for_gzip_gets_the_same_page_gzipped(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(40)
    url = reverse("tournaments:standings", args=[session.pk])
    plain = client.get(url)
    squeezed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert squeezed["Content-Encoding"] == "gzip"
    assert gzip.decompress(squeezed.content) == plain.content
    assert len(squeezed.content) < len(plain.content) / 3
    assert "Accept-Encoding" in squeezed["Vary"]
    refused = client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert refused.content == plain.content


def test_a_directors_page_rendered_for_them_is_gzipped_when_the_browser_asks(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(40)
    directing = Client()
    directing.force_login(director)
    url = reverse("tournaments:manage", args=[session.pk])
    plain = directing.get(url)
    squeezed = directing.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    refused = directing.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in plain
    assert "Content-Encoding" not in refused
    assert squeezed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in squeezed["Vary"]
    # The same page (each carries its own CSRF token, so compare what is not per request).
    text = gzip.decompress(squeezed.content).decode()
    assert session.name in text
    assert "</html>" in text
    assert len(squeezed.content) < len(plain.content) / 3


def test_the_directors_pages_show_a_finished_game_on_the_next_request(
    mode: str, make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(13)
    directing = Client()
    directing.force_login(director)
    manage = reverse("tournaments:manage", args=[session.pk])
    standings = reverse("tournaments:standings", args=[session.pk])
    game = Game.objects.filter(table__sitting__session=session, table__rank=1).get()
    assert "0/2 games finished; game 1" in directing.get(manage).content.decode()
    directing.get(standings)

    play_game(game, seed=3)

    assert "1/2 games finished" in directing.get(manage).content.decode()
    page = directing.get(standings).content.decode()
    for player in game.game_players.all():
        assert f'<td class="num">{player.score}</td><td class="num">1</td>' in page


def test_another_process_change_shows_once_the_memory_of_the_generation_expires(
    make_session: Callable[..., Session],
    client: Client,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.HUCKLEY_SHARED_CACHE = True
    session = make_session(13)
    url = reverse("tournaments:standings", args=[session.pk])
    clock = [1000.0]
    monkeypatch.setattr(pagecache, "_now", lambda: clock[0])
    before = client.get(url)
    # Another web process renames the session: its bump reaches the shared counter only.
    Session.objects.filter(pk=session.pk).update(name="Cup final")
    cache.incr(f"generation:{session.pk}")
    clock[0] += pagecache.GENERATION_MEMO / 2
    assert client.get(url).content == before.content
    clock[0] += pagecache.GENERATION_MEMO
    assert "Cup final" in client.get(url).content.decode()


def test_a_renamed_player_shows_on_a_finished_sessions_standings(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    from workflow.club import services as club_services

    session = make_session(13)
    finish_sitting_unplayed(session.sittings.get(), random.Random(7))
    start_finish.session_finish(session_id=session.pk, user=director, early=True)
    player = session.entries.first().player  # type: ignore[union-attr]
    url = reverse("tournaments:standings", args=[session.pk])
    assert player.name in client.get(url).content.decode()
    club_services.player_rename(player_id=player.pk, name="Zed Renamed", user=director)
    assert "Zed Renamed" in client.get(url).content.decode()


def test_a_searched_names_page_stays_in_the_process_and_out_of_the_shared_cache(
    make_session: Callable[..., Session],
    client: Client,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.HUCKLEY_SHARED_CACHE = True
    session = make_session(13)
    board = reverse("tournaments:session", args=[session.pk])
    client.get(board)
    client.get(board, {"name": "anything at all"})  # the session's index is kept
    shared: list[str] = []
    real_set = cache.set
    monkeypatch.setattr(
        cache, "set", lambda key, *a, **kw: (shared.append(key), real_set(key, *a, **kw))
    )
    for typed in ("something else", "and more", "anything at all"):
        pagecache.LOCAL.clear()  # as another process would start: only the shared cache
        assert "Nobody named" in client.get(board, {"name": typed}).content.decode()
    assert shared == []  # nothing per typed name went to the shared cache


def test_a_large_rosters_withdrawals_are_found_by_name(
    make_session: Callable[..., Session], director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from web.views import manage as manage_view

    monkeypatch.setattr(manage_view, "ROSTER_ALL", 5)
    session = make_session(13)
    someone = session.entries.select_related("player").first()
    assert someone is not None
    withdraw = reverse("tournaments:withdraw", args=[session.pk, someone.player_id])
    directing = Client()
    directing.force_login(director)
    url = reverse("tournaments:manage", args=[session.pk])

    page = directing.get(url).content.decode()
    assert "Find a player to withdraw</strong> (13 on the roster)" in page
    assert withdraw not in page
    found = directing.get(url, {"player": someone.player.name}).content.decode()
    assert withdraw in found
    nobody = directing.get(url, {"player": "zzz"}).content.decode()
    assert "Nobody on the roster has “zzz” in their name." in nobody


def _early(response: Any) -> bool:
    """Whether `StoredPageMiddleware` answered before the session middleware ran."""
    return not hasattr(response.wsgi_request, "session")


def test_a_stored_page_is_answered_before_the_middleware_with_the_full_paths_bytes_and_headers(
    mode: str,
    make_session: Callable[..., Session],
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(13)
    name = Seating.objects.filter(sitting__session=session).first().player.name  # type: ignore[union-attr]
    for url in public_urls(session, name):
        for encoding in ("", "gzip"):
            # Nothing stored: the next answer goes the full path. The process's memory of
            # the generation goes with the cache's counter, else a slow request outlives
            # the memory and the hit meets a new counter that no stored page matches.
            pagecache.forget()
            cache.clear()
            full = client.get(url, HTTP_ACCEPT_ENCODING=encoding)
            assert not _early(full), url
            limit = 0 if mode == "shared" else (2 if url.startswith("/api/") else 1)
            with django_assert_max_num_queries(limit, info=url):
                hit = client.get(url, HTTP_ACCEPT_ENCODING=encoding)
            assert _early(hit), url
            assert hit.status_code == 200
            assert hit.content == full.content
            assert dict(hit.headers) == dict(full.headers), url
            for header in ("Content-Security-Policy", "X-Frame-Options", "Vary", "ETag"):
                assert hit[header], header
            if encoding and len(full.content) > 1024:
                assert hit["Content-Encoding"] == "gzip"
        same = client.get(url, HTTP_IF_NONE_MATCH=full["ETag"])
        assert _early(same)
        assert same.status_code == 304
        assert same["Content-Security-Policy"] == full["Content-Security-Policy"]
        assert same["X-Frame-Options"] == full["X-Frame-Options"]


def test_a_visitor_with_a_session_a_scorer_link_or_credentials_is_never_answered_early(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    client.get(url)
    assert _early(client.get(url))  # stored, with its headers
    signed_in = Client()
    signed_in.force_login(director)
    scorer = Client()
    browser = scorer.session
    browser["scorer_tokens"] = ["a-scorer-link"]
    browser.save()
    scorer.cookies["sessionid"] = browser.session_key  # type: ignore[assignment]
    for visitor, extra in (
        (signed_in, {}),
        (scorer, {}),
        (Client(), {"HTTP_AUTHORIZATION": "Token 0123456789abcdef"}),
        (Client(), {"HTTP_X_SCORER_TOKEN": "a-scorer-link"}),
    ):
        response = visitor.get(url, **extra)
        assert not _early(response), extra
    assert "Run this session" in signed_in.get(url).content.decode()


def test_a_change_shows_on_the_next_request_answered_early(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(13)
    url = reverse("tournaments:session", args=[session.pk])
    client.get(url)
    before = client.get(url)
    assert _early(before)
    session.name = "Renamed for the crowd"
    session.save(update_fields=["name"])  # its save moves the generation
    after = client.get(url)
    assert not _early(after)  # built again through the full path
    assert "Renamed for the crowd" in after.content.decode()
    assert after["ETag"] != before["ETag"]
    assert _early(client.get(url))


def test_with_https_required_a_plain_request_is_redirected_and_https_gets_its_own_headers(
    mode: str, make_session: Callable[..., Session], client: Client, settings: Any
) -> None:
    session = make_session(13)
    url = reverse("tournaments:standings", args=[session.pk])
    client.get(url)
    assert _early(client.get(url))  # stored with a plain request's headers
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    client = Client()  # SecurityMiddleware reads its settings when it is made
    assert client.get(url).status_code == 301  # SecurityMiddleware's, as without the store
    full = client.get(url, secure=True)
    assert not _early(full)  # the plain request's headers lack HSTS: the full way
    hit = client.get(url, secure=True)
    assert _early(hit)
    assert hit["Strict-Transport-Security"] == full["Strict-Transport-Security"]
    assert dict(hit.headers) == dict(full.headers)


def test_what_is_kept_for_a_session_is_kept_per_language(db: Any) -> None:
    """A part of a page kept once per generation is kept for each language apart: a
    Spanish reader is never served the English copy, nor the other way round."""
    from django.utils import translation

    from tests.factories import SessionFactory

    session = SessionFactory()
    with translation.override("en-us"):
        english = pagecache.fragment(session.pk, "words", lambda: "Table")
    with translation.override("es"):
        spanish = pagecache.fragment(session.pk, "words", lambda: "Mesa")
    with translation.override("en-us"):
        again = pagecache.fragment(session.pk, "words", lambda: "built again")
    assert (english, spanish, again) == ("Table", "Mesa", "Table")
