"""The long lists of a session's pages (web/views/lists.py): the standings a page
of 100 rows and the movement preview a page of 25 tables, each searchable by name, with
a player's rank and a table's number those of the whole session; any page value answered
without a 500; the public's copy of each page stored apart and rebuilt after a change;
the movement confirmed from any page moves everyone."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Game
from tests.factories import ClubFactory, UserFactory
from tests.rows import build_session, make_club, make_director, make_season, rows_for_the_module
from tournaments import pagecache
from tournaments.models import Placing, Seating, Session
from workflow.session import movements, selectors
from workflow.session.simulation import finish_sitting_unplayed, play_game

pytestmark = pytest.mark.django_db

PLAYERS = 220  # 55 tables: standings on 3 pages of 100, the movement on 3 pages of 25

ROW = re.compile(
    r'<tr class="standing"><td class="num">(\d+)</td><td class="name"><a href="[^"]*">([^<]*)</a>'
)
TABLE = re.compile(r'<h2 id="move-table-(\d+)">')
# A standings row's rank, name and points.
POINTS = re.compile(
    r'<tr class="standing"><td class="num">(\d+)</td>'
    r'<td class="name"><a href="[^"]*">([^<]*)</a>.*?</td>\s*'
    r'<td class="num">[^<]*</td><td class="num">[^<]*</td>\s*<td class="num">(-?\d+)</td>',
    re.S,
)


@pytest.fixture(scope="module")
def _big_night(django_db_setup: None, django_db_blocker: Any) -> Iterator[int]:
    """Sitting 1 of 220 players with every game finished: standings to page through and a
    movement to preview. Made once for the module (4 s) and rolled back after it; each
    test starts from it as made, whatever an earlier test did (tests/rows.py)."""
    with rows_for_the_module(django_db_blocker):
        director = make_director()
        club = make_club(director)
        session = build_session(club, make_season(club), director, PLAYERS)
        finish_sitting_unplayed(session.sittings.get(), random.Random(3))
        yield session.pk


@pytest.fixture
def big(db: None, _big_night: int) -> Session:
    return Session.objects.get(pk=_big_night)


@pytest.fixture
def director(big: Session) -> Any:
    return big.club.directors.get(username="dee-director")


def standings_url(session: Session) -> str:
    return reverse("tournaments:standings", args=[session.pk])


def movement_url(session: Session) -> str:
    return reverse("tournaments:movement", args=[session.pk])


def rows_of(html: str) -> list[tuple[int, str]]:
    return [(int(position), name) for position, name in ROW.findall(html)]


def tables_of(html: str) -> list[int]:
    return [int(rank) for rank in TABLE.findall(html)]


@pytest.mark.parametrize("who", ["public", "director"])
def test_standings_page_2_shows_places_101_to_200(
    big: Session, directing: Client, who: str
) -> None:
    client = directing if who == "director" else Client()
    expected = [(r.position, r.name) for r in selectors.session_standings(big)]
    response = client.get(standings_url(big), {"page": 2})
    assert response.status_code == 200
    html = response.content.decode()
    assert rows_of(html) == expected[100:200]
    assert [p for p, _ in rows_of(html)] == list(range(101, 201))
    assert "page 2 of 3" in html
    assert 'href="?page=1"' in html
    assert 'href="?page=3"' in html
    last = client.get(standings_url(big), {"page": 3}).content.decode()
    assert rows_of(last) == expected[200:]


def test_a_search_finds_a_player_with_their_rank_in_the_whole_session(
    big: Session, directing: Client
) -> None:
    row = selectors.session_standings(big)[150]
    for client in (directing, Client()):
        html = client.get(standings_url(big), {"q": f"  {row.name.upper()} "}).content.decode()
        found = rows_of(html)
        assert (151, row.name) in found
        assert all(row.name.casefold() in name.casefold() for _, name in found)
        assert "with their place in the whole session" in html
    nobody = Client().get(standings_url(big), {"q": "Nobody Of That Name"})
    assert nobody.status_code == 200
    assert "Nobody matches “Nobody Of That Name”." in nobody.content.decode()


@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        ("0", 3),
        ("-1", 3),
        ("4", 3),
        (str(10**100), 3),
        ("x", 1),
        ("2.0", 1),
        ("", 1),
        ("1", 1),
        ("3", 3),
    ],
)
def test_any_page_value_shows_a_page_that_exists_at_its_own_address(
    big: Session, directing: Client, asked: str, shown: int
) -> None:
    """As Django's `Paginator.get_page` (not a number: the first page; below 1 or beyond
    the last: the last), redirected to that page's own address; never a 500."""
    expected = [(r.position, r.name) for r in selectors.session_standings(big)]
    for client in (Client(), directing):
        response = client.get(standings_url(big), {"page": asked}, follow=True)
        assert response.status_code == 200
        assert rows_of(response.content.decode()) == expected[(shown - 1) * 100 : shown * 100]
        exact = asked in ("", "1", "3")
        final = f"page={asked}" if exact else ("" if shown == 1 else f"page={shown}")
        assert response.request["QUERY_STRING"] == final
        assert len(response.redirect_chain) == (0 if exact else 1)
    moves = directing.get(movement_url(big), {"page": asked}, follow=True)
    assert moves.status_code == 200
    assert tables_of(moves.content.decode()) == list(range(1, 56))[(shown - 1) * 25 : shown * 25]


def test_a_search_keeps_its_query_across_pages_and_bad_page_values(
    big: Session, directing: Client
) -> None:
    response = directing.get(standings_url(big), {"q": "a", "page": "99"})
    assert response.status_code == 302
    found = [r for r in selectors.session_standings(big) if "a" in r.name.casefold()]
    last = (len(found) - 1) // 100 + 1
    assert response["Location"] == f"{standings_url(big)}?q=a" + (
        f"&page={last}" if last > 1 else ""
    )


def test_movement_page_3_shows_tables_51_to_55_and_the_whole_sessions_summary(
    big: Session, directing: Client
) -> None:
    preview = movements.movement_preview(sitting=big.sittings.get())
    up = sum(m.direction == "up" for m in preview.moves)
    down = sum(m.direction == "down" for m in preview.moves)
    html = directing.get(movement_url(big), {"page": 3}).content.decode()
    assert tables_of(html) == [51, 52, 53, 54, 55]
    assert "Tables 51\N{EN DASH}55 of 55 · page 3 of 3" in html
    assert f"220 players at 55 tables</strong>:\n  {up} move up, {down} down" in html
    assert "Confirm the movement: all 220 players at 55 tables" in html
    # Every player of those tables, and no one else's table.
    names = {preview.names[p.player] for table, placings in preview.tables[50:] for p in placings}
    assert all(f"<strong>{name}</strong>" in html for name in names)
    first = directing.get(movement_url(big)).content.decode()
    assert tables_of(first) == list(range(1, 26))


def test_the_movement_is_searched_by_player_name(big: Session, directing: Client) -> None:
    seating = Seating.objects.select_related("player", "table").get(
        sitting__session=big, table__rank=40, seat=2
    )
    html = directing.get(movement_url(big), {"q": seating.player.name}).content.decode()
    assert 40 in tables_of(html)
    assert all(
        Seating.objects.filter(
            sitting__session=big, table__rank=rank, player__name__icontains=seating.player.name
        ).exists()
        for rank in tables_of(html)
    )
    assert "Confirm the movement: all 220 players at 55 tables" in html
    none = directing.get(movement_url(big), {"q": "Nobody Of That Name"}).content.decode()
    assert tables_of(none) == []
    assert "No table has a player matching “Nobody Of That Name”." in none


def test_confirming_from_page_3_moves_every_player(big: Session, directing: Client) -> None:
    html = directing.get(movement_url(big), {"page": 3}).content.decode()
    forms = re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
    [(action, sitting)] = [
        (action, found.group(1))
        for action, body in forms
        if (found := re.search(r'name="sitting" value="(\d+)"', body))
    ]
    response = directing.post(action, {"sitting": sitting})
    assert response.status_code == 302
    assert Placing.objects.filter(sitting__session=big).count() == PLAYERS
    new = big.sittings.get(number=2)
    assert Seating.objects.filter(sitting=new).count() == PLAYERS
    assert new.tables.count() == 55


def test_only_a_director_of_the_club_sees_the_movement_preview(big: Session) -> None:
    outsider = ClubFactory(slug="elsewhere")
    other_director = UserFactory(username="other-director")
    outsider.directors.add(other_director)
    stranger = UserFactory(username="stranger")
    for params in ({}, {"page": 2}, {"q": "a"}):
        anonymous = Client().get(movement_url(big), params)
        assert anonymous.status_code == 302
        assert anonymous["Location"].startswith(reverse("login"))
        for user in (stranger, other_director):
            client = Client()
            client.force_login(user)
            response = client.get(movement_url(big), params)
            assert response.status_code == 403
            assert "Confirm the movement" not in response.content.decode()


@pytest.mark.parametrize("params", [{"page": 2}, {"page": 3}, {"q": "a"}])
def test_later_pages_and_searches_cost_the_queries_of_the_first_page(
    big: Session, directing: Client, params: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    # The limits of tests/web/test_pages.py's first pages; the rows are built on
    # the first request of each list, and every other page reads them back.
    for url, limit, again in [
        (movement_url(big), 12, 6),  # 12: the preview asks whether a player does not move
        (standings_url(big), 12, 5),
    ]:
        with django_assert_max_num_queries(limit):
            assert directing.get(url).status_code == 200
        with django_assert_max_num_queries(again):
            assert directing.get(url, params).status_code == 200
    public = Client()
    public.get(standings_url(big), params)
    with django_assert_max_num_queries(1):  # the generation, read from the session's row
        assert public.get(standings_url(big), params).status_code == 200


def test_each_public_page_is_stored_apart_and_rebuilt_after_a_finished_game(
    big: Session, director: Any, django_assert_max_num_queries: Any
) -> None:
    session = big
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    client = Client()
    page_1 = client.get(standings_url(session)).content
    page_2 = client.get(standings_url(session), {"page": 2}).content
    assert page_1 != page_2
    assert rows_of(page_2.decode())[0][0] == 101
    with django_assert_max_num_queries(1):  # stored: the generation only
        assert client.get(standings_url(session), {"page": 2}).content == page_2
    # A game at a table whose players are on page 2 (tables 26-50) finishes.
    game = Game.objects.get(
        table__sitting__session=session, table__sitting__number=2, table__rank=30, number=1
    )
    play_game(game, seed=4)
    after = client.get(standings_url(session), {"page": 2}).content.decode()
    assert after != page_2.decode()
    expected = [(r.position, r.name, r.points) for r in selectors.session_standings(session)]
    shown = [(int(p), name, int(points)) for p, name, points in POINTS.findall(after)]
    assert shown == expected[100:200]
    assert any(points for _, _, points in shown)


def test_pages_are_shared_between_processes_and_searches_are_not(
    big: Session, settings: Any
) -> None:
    settings.HUCKLEY_SHARED_CACHE = True
    client = Client()
    name = selectors.session_standings(big)[150].name
    for params in ({"page": 2}, {"q": name}, *({"page": n} for n in range(4, 40))):
        client.get(standings_url(big), params)
    stored = [key for key in pagecache.LOCAL.pages if key.startswith("page:standings:")]
    # Page 2 and the search: the page values that do not exist were redirected, not kept.
    assert len(stored) == 2
    pagecache.LOCAL.clear()  # as another process would start: only the shared cache
    with CaptureQueriesContext(connection) as shared:
        assert client.get(standings_url(big), {"page": 2}).status_code == 200
    assert len(shared) == 0
    with CaptureQueriesContext(connection) as rebuilt:
        assert client.get(standings_url(big), {"q": name}).status_code == 200
    assert len(rebuilt) > 0  # rendered again: a searched page is never in the shared cache
    assert cache.get(f"kept:standings-and-robots:en-us:{big.pk}") is not None
