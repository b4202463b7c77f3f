"""The projector page (/sessions/N/screen/) and its live part: never stale, cheap when
nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Game
from tournaments.models import Seating, Session
from workflow.session import movements
from workflow.session.simulation import play_game, play_sitting

pytestmark = pytest.mark.django_db


def live(client: Client, session: Session, etag: str | None = None) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("tournaments:screen_live", args=[session.pk]), **headers)


def test_the_projector_shows_each_table_in_seat_order_and_the_standings(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(13)
    response = client.get(reverse("tournaments:screen", args=[session.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    sitting = session.sittings.get()
    for table in sitting.tables.order_by("rank"):
        names = list(
            Seating.objects.filter(table=table)
            .order_by("seat")
            .values_list("player__name", flat=True)
        )
        seats = "".join(f"<li>{name}</li>" for name in names)
        assert f"<h3>Table {table.rank}</h3>" in html
        assert seats in html
    assert "Standings" in html
    assert 'src="/static/live.js"' in html


def test_an_unchanged_screen_costs_a_304_in_one_query(
    client: Client,
    make_session: Callable[..., Session],
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(13)
    first = live(client, session)
    assert first.status_code == 200
    with django_assert_max_num_queries(1):
        again = live(client, session, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_a_round_entered_changes_the_screen_with_its_leader(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(13)
    before = live(client, session)
    game = Game.objects.filter(table__sitting__session=session, table__rank=1).get()
    play_game(game, seed=3, rounds=1)
    after = live(client, session, before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    html = after.content.decode()
    leader = max(game.game_players.all(), key=lambda gp: gp.score)
    assert "round 1 · leads:" in html
    assert leader.name in html.split("<h3>Table 1</h3>")[1].split("</article>")[0]


def test_a_finished_sitting_shows_who_moves_next(
    client: Client, make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(13)
    before = live(client, session)
    assert "who moves" not in before.content.decode()
    play_sitting(session.sittings.get(), seed=5)
    html = live(client, session, before["ETag"]).content.decode()
    assert "Next sitting: who moves" in html
    preview = movements.movement_preview(sitting=session.sittings.get())
    movers = [m for m in preview.moves if m.direction != "stay"]
    assert movers
    for move in movers:
        arrow = "↑" if move.direction == "up" else "↓"
        name = preview.names[move.player]
        assert f'{name} <span class="{move.direction}">{arrow} table {move.to_rank}</span>' in html


def test_a_movement_confirmed_changes_the_tables_on_the_screen(
    client: Client, make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    before = live(client, session)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    after = live(client, session, before["ETag"])
    assert after.status_code == 200
    assert "Sitting 2" in after.content.decode()


def test_a_private_session_screen_is_a_404_to_outsiders(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8, is_public=False)
    assert client.get(reverse("tournaments:screen", args=[session.pk])).status_code == 404
    assert live(client, session).status_code == 404
    assert live(client, session, '"anything"').status_code == 404


def test_the_live_part_costs_the_same_queries_at_any_size(
    client: Client, make_session: Callable[..., Session]
) -> None:
    counts = []
    for players in (8, 40):
        session = make_session(players)
        with CaptureQueriesContext(connection) as queries:
            assert live(client, session).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    # One of them reads the session's generation (tournaments/pagecache.py), one which
    # tables have a result in the sitting (the ladder's order before a table's first
    # result, workflow.session.selectors.ladder_order).
    assert counts[1] <= 17


def test_find_my_table_follows_the_player_after_a_movement(
    client: Client, make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    mover = (
        Seating.objects.filter(sitting__session=session, table__rank=1)
        .order_by("seat")
        .select_related("player")
        .first()
    )
    assert mover is not None
    url = reverse("tournaments:session_found", args=[session.pk])
    before = client.get(url, {"name": mover.player.name})
    assert before.status_code == 200
    assert "Sitting 1" in before.content.decode()
    assert (
        client.get(url, {"name": mover.player.name}, HTTP_IF_NONE_MATCH=before["ETag"]).status_code
        == 304
    )
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    after = client.get(url, {"name": mover.player.name}, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    seat = Seating.objects.get(sitting__session=session, sitting__number=2, player=mover.player)
    html = after.content.decode()
    assert "Sitting 2" in html
    assert f"table <strong>{seat.table.rank}</strong>, seat <strong>{seat.seat}</strong>" in html


def test_find_my_table_of_a_private_session_is_a_404_to_outsiders(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8, is_public=False)
    url = reverse("tournaments:session_found", args=[session.pk])
    assert client.get(url, {"name": "Ann"}).status_code == 404


def test_the_standings_say_which_tie_break_decided_each_place(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    html = client.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    html = html.replace("&#x27;", "'")
    preview = movements.movement_preview(sitting=session.sittings.get())
    for table, placings in preview.tables:
        for placing in placings:
            assert f"table {table.rank}, {placing.reason}" in html
