"""Find my table: a name is found however it is typed (case, accents, punctuation and
spaces do not count), a player sitting out is told so, a seat at an online table says so
(and never holds a seat link), and a name asked for the first time is answered from the
session's index, kept once per generation, with no query and before the costly
middleware."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from play import services as play_services
from tournaments import pagecache
from tournaments.models import Player, Seating, Session
from workflow.session import movements
from workflow.session.simulation import play_sitting

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["row", "shared"])
def mode(request: pytest.FixtureRequest, settings: Any) -> str:
    settings.HUCKLEY_SHARED_CACHE = request.param == "shared"
    return str(request.param)


def rename(session: Session, index: int, name: str) -> Seating:
    seating = (
        Seating.objects.filter(sitting__session=session)
        .select_related("player", "table")
        .order_by("table__rank", "seat")[index]
    )
    Player.objects.filter(pk=seating.player_id).update(name=name)
    return seating


def find(client: Client, session: Session, name: str) -> str:
    response = client.get(reverse("tournaments:session", args=[session.pk]), {"name": name})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ("Rosa Díaz", "rosa diaz"),
        ("Pete O'Brien", "Pete OBrien"),
        ("Pete O'Brien", "pete o brien"),
        ("Pete O'Brien", "Pete O\u2019Brien"),
        ("Anne-Marie Ng", "  anne marie   NG "),
        ("Anne-Marie Ng", "annemarie ng"),
        ("Anne-Marie Costello", "ANNE MARIE COSTELLO"),
        ("Pádraig McGettigan", "padraig mc gettigan"),
        ("Ewan MacDonald", "ewan mac donald"),
        ("Max", "MAX"),
    ],
)
def test_a_name_is_found_whatever_its_case_accents_punctuation_or_spaces(
    mode: str, make_session: Callable[..., Session], client: Client, stored: str, typed: str
) -> None:
    session = make_session(8, start=False)
    seating_player = session.entries.select_related("player").first()
    assert seating_player is not None
    Player.objects.filter(pk=seating_player.player_id).update(name=stored)
    from workflow.session import start_finish

    start_finish.session_start(session_id=session.pk, user=session.club.directors.get())
    seating = Seating.objects.select_related("table").get(
        sitting__session=session, player_id=seating_player.player_id
    )
    page = find(client, session, typed)
    assert "Nobody named" not in page
    assert (
        f"table <strong>{seating.table.rank}</strong>, seat <strong>{seating.seat}</strong>" in page
    )


def test_a_part_of_a_name_finds_everyone_whose_name_contains_it(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    rename(session, 0, "Rosa Díaz")
    rename(session, 5, "Rosa Ortiz")
    page = find(client, session, "ROSA")
    assert "Rosa Díaz</strong>" in page
    assert "Rosa Ortiz</strong>" in page
    assert "plays on" not in page  # a paper night: neither online nor "on paper" is said


def test_the_same_name_is_found_alone_not_with_every_longer_name(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    rename(session, 0, "Max")
    rename(session, 5, "Maxine Hall")
    page = find(client, session, "max")
    assert "<strong>Max</strong>" in page
    assert "Maxine Hall</strong>" not in page


def test_a_player_sitting_out_is_told_so_not_that_nobody_has_that_name(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(9, rules_id="buck-euchre")  # tables of four: one sits out
    sitting = session.sittings.get()
    out = sitting.sit_outs.select_related("player").get()
    Player.objects.filter(pk=out.player_id).update(name="Max")
    page = find(client, session, "max")
    assert "Nobody named" not in page
    assert "<strong>Max</strong> sits out sitting 1" in page


def test_a_name_nobody_has_says_so(make_session: Callable[..., Session], client: Client) -> None:
    session = make_session(8)
    page = find(client, session, "Zed Nobody")
    assert "Nobody named “Zed Nobody” is seated in this session.</p>" in page
    assert "Did you mean" not in page


def test_mc_and_mac_are_different_names_a_near_miss_asked_about(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    rename(session, 0, "Ewan McDonald")
    page = find(client, session, "Ewan MacDonald")
    assert "Nobody named “Ewan MacDonald” is seated" in page
    assert ">Ewan McDonald</a>?" in page


def test_a_near_miss_asks_did_you_mean_with_every_close_name_as_a_link(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    rename(session, 0, "Rosa Díaz")
    rename(session, 5, "Rosa Diez")
    rename(session, 6, "Rosa Ortiz")
    url = reverse("tournaments:session", args=[session.pk])
    page = find(client, session, "rosa dias")
    assert "Nobody named “rosa dias” is seated in this session. Did you mean " in page
    assert f'<a href="{url}?name=Rosa%20D%C3%ADaz">Rosa Díaz</a> or ' in page
    assert f'<a href="{url}?name=Rosa%20Diez">Rosa Diez</a>?' in page
    assert "Rosa Ortiz" not in page
    # The link finds the name it offers.
    assert "Rosa Díaz</strong>: table" in find(client, session, "Rosa Díaz")
    # The poll's fragment answers the same.
    found = client.get(
        reverse("tournaments:session_found", args=[session.pk]), {"name": "Rosa Dias"}
    )
    assert "Did you mean" in found.content.decode()


def _early(response: Any) -> bool:
    """Whether `StoredPageMiddleware` answered before the session middleware ran."""
    return not hasattr(response.wsgi_request, "session")


@pytest.mark.parametrize(("view", "rule"), [("session", "session"), ("session_found", "found")])
def test_a_name_asked_for_the_first_time_is_answered_early_with_no_query_and_the_full_paths_bytes(
    view: str,
    rule: str,
    mode: str,
    make_session: Callable[..., Session],
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(13)
    names = list(
        Seating.objects.filter(sitting__session=session)
        .order_by("table__rank", "seat")
        .values_list("player__name", flat=True)
    )
    board = reverse(f"tournaments:{view}", args=[session.pk])
    first = client.get(board, {"name": names[0]})  # the full path: the index is kept
    assert not _early(first)
    for name in names[1:]:
        # The generation, read from the row on a laptop; nothing with a shared cache.
        with django_assert_max_num_queries(0 if mode == "shared" else 1):
            early = client.get(board, {"name": name}, HTTP_ACCEPT_ENCODING="gzip")
        assert _early(early), name
        # Without what lets the early path answer a new name (the full path's headers,
        # kept for this view and session), the same name goes the full way.
        pagecache.LOCAL.clear()
        cache.delete(f"page:{rule}:shape:{session.pk}")
        full = client.get(board, {"name": name}, HTTP_ACCEPT_ENCODING="gzip")
        assert not _early(full), name
        assert early.content == full.content
        assert dict(early.headers) == dict(full.headers)


def test_a_private_session_is_never_answered_early_even_once_its_index_is_kept(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(8, is_public=False)
    name = Seating.objects.filter(sitting__session=session).first().player.name  # type: ignore[union-attr]
    board = reverse("tournaments:session", args=[session.pk])
    signed_in = Client()
    signed_in.force_login(director)
    assert name in signed_in.get(board, {"name": name}).content.decode()
    assert client.get(board, {"name": name}).status_code == 404
    assert client.get(board, {"name": "someone else"}).status_code == 404


def test_a_name_composed_early_shows_the_new_table_after_a_movement(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    names = list(
        Seating.objects.filter(sitting__session=session).values_list("player__name", flat=True)
    )
    find(client, session, names[0])
    before = client.get(reverse("tournaments:session", args=[session.pk]), {"name": names[1]})
    assert _early(before)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    find(client, session, names[0])  # the full path, once, at the new generation
    seat = Seating.objects.select_related("table").get(
        sitting__session=session, sitting__number=2, player__name=names[1]
    )
    after = client.get(reverse("tournaments:session", args=[session.pk]), {"name": names[1]})
    assert _early(after)
    html = after.content.decode()
    assert "Sitting 2" in html
    assert f"table <strong>{seat.table.rank}</strong>, seat <strong>{seat.seat}</strong>" in html


def test_a_session_named_like_the_pages_markers_shows_its_name_and_one_answer(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    Session.objects.filter(pk=session.pk).update(name="Night <@found@> <@query@>")
    name = Seating.objects.filter(sitting__session=session).first().player.name  # type: ignore[union-attr]
    page = find(client, session, name)
    assert "Night &lt;@found@&gt; &lt;@query@&gt;" in page
    assert page.count('class="card found"') == 1


def test_each_seat_says_whether_its_table_plays_online_and_no_answer_holds_a_seat_link(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(8)  # two tables of four
    online = session.sittings.get().tables.get(rank=2)
    play_services.table_online_set(table_id=online.pk, online=True, user=director)
    # Every seated player has a link now; none may show on a page anyone can open.
    rows = play_services.seat_links_ensure(session_id=session.pk, user=director)
    tokens = [row["token"] for row in rows]
    assert len(tokens) == 8
    found = reverse("tournaments:session_found", args=[session.pk])
    seatings = Seating.objects.filter(sitting__session=session).select_related("player", "table")
    for seating in seatings:
        name, number = seating.player.name, seating.table.number
        for html in [
            find(client, session, name),
            client.get(found, {"name": name}).content.decode(),
        ]:
            slot = f'data-seat-for="{session.pk}:{seating.player_id}"'
            if seating.table_id == online.pk:
                assert f"Table {number} plays online" in html
                assert slot in html
            else:
                assert f"Table {number} plays on paper" in html
                assert "plays online" not in html
                assert "data-seat-for" not in html
            assert "/play/" not in html
            assert not [token for token in tokens if token in html]
