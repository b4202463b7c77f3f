"""Follow my table: a player who found themselves follows their own page, whose poll
answers their table and seat (a 304 while nothing changed) and the new ones after a
movement, a withdrawal or a rebalance, and whether the table plays online (never the
seat link, but to the player signed in); private sessions stay private."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from play import services as play_services
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Player, Seating, Session
from tournaments.permissions import SYSTEM
from workflow.session import movements, withdrawals
from workflow.session.simulation import finish_sitting_unplayed as fake_results

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["row", "shared"])
def mode(request: pytest.FixtureRequest, settings: Any) -> str:
    settings.HUCKLEY_SHARED_CACHE = request.param == "shared"
    return str(request.param)


def seat_of(session: Session, rank: int, seat: int) -> Seating:
    return Seating.objects.select_related("player", "table").get(
        sitting__session=session,
        sitting__number=session.sittings.count(),
        table__rank=rank,
        seat=seat,
        left_at__isnull=True,
    )


def live(client: Client, session: Session, player_id: int, etag: str = "") -> Any:
    url = reverse("tournaments:follow_live", args=[session.pk, player_id])
    return client.get(url, HTTP_IF_NONE_MATCH=etag) if etag else client.get(url)


def test_find_my_table_offers_to_follow_the_player_found(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(9)  # Huckley Buck: one sits out
    seated = seat_of(session, 1, 1)
    page = client.get(
        reverse("tournaments:session", args=[session.pk]), {"name": seated.player.name}
    ).content.decode()
    url = reverse("tournaments:follow", args=[session.pk, seated.player_id])
    assert f'href="{url}"' in page
    resting = session.sittings.get().sit_outs.select_related("player").first()
    if resting is not None:
        page = client.get(
            reverse("tournaments:session", args=[session.pk]), {"name": resting.player.name}
        ).content.decode()
        assert reverse("tournaments:follow", args=[session.pk, resting.player_id]) in page


def test_the_page_shows_the_table_and_seat_large_and_the_poll_follows_a_movement(
    mode: str, make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    seating = seat_of(session, 2, 1)
    player = seating.player
    page = client.get(reverse("tournaments:follow", args=[session.pk, player.pk]))
    html = page.content.decode()
    assert '<strong id="follow-table">2</strong>' in html
    assert f'<strong id="follow-seat">{seating.seat}</strong>' in html
    assert 'aria-live="assertive"' in html
    assert 'src="/static/follow.js"' in html

    first = live(client, session, player.pk)
    assert first.status_code == 200
    body = first.json()
    assert (body["state"], body["sitting"], body["table"], body["seat"]) == ("seated", 1, 2, 1)
    assert len(body["with"]) == 3
    assert live(client, session, player.pk, first["ETag"]).status_code == 304

    fake_results(session.sittings.get(), random.Random(4))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    moved = live(client, session, player.pk, first["ETag"])
    assert moved.status_code == 200
    now = seat_of_player(session, player.pk)
    body = moved.json()
    assert (body["sitting"], body["table"], body["seat"]) == (2, now.table.rank, now.seat)
    assert (
        body["text"]
        == f"Sitting 2: {player.name} plays at table {now.table.rank}, seat {now.seat}."
    )


def seat_of_player(session: Session, player_id: int) -> Seating:
    return Seating.objects.select_related("table").get(
        sitting__session=session, sitting__number=2, player_id=player_id, left_at__isnull=True
    )


def test_a_withdrawal_shows_on_the_players_page(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(9)
    player_id = seat_of(session, 1, 2).player_id
    before = live(client, session, player_id)
    withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    after = live(client, session, player_id, before["ETag"])
    assert after.status_code == 200
    assert after.json()["state"] == "withdrawn"
    assert after.json()["table"] is None


def test_a_player_not_on_the_roster_is_a_404(
    make_session: Callable[..., Session], client: Client
) -> None:
    session = make_session(8)
    stranger = PlayerFactory.create(club=session.club).pk
    assert client.get(reverse("tournaments:follow", args=[session.pk, stranger])).status_code == 404
    assert live(client, session, stranger).status_code == 404


def test_a_private_session_is_followed_only_by_who_may_see_it(
    make_session: Callable[..., Session], director: Any, client: Client
) -> None:
    session = make_session(8, is_public=False)
    player_id = seat_of(session, 1, 1).player_id
    assert (
        client.get(reverse("tournaments:follow", args=[session.pk, player_id])).status_code == 404
    )
    assert live(client, session, player_id).status_code == 404
    client.force_login(director)
    assert (
        client.get(reverse("tournaments:follow", args=[session.pk, player_id])).status_code == 200
    )
    assert live(client, session, player_id).status_code == 200


def test_a_following_phone_costs_at_most_one_query_a_poll(
    mode: str,
    make_session: Callable[..., Session],
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(40)
    ids = [seat_of(session, rank, 1).player_id for rank in (1, 5, 10)]
    first = live(client, session, ids[0])  # builds everyone's place once
    assert first.status_code == 200
    for player_id in ids[1:]:
        # Another player's first poll: a lookup in what is kept, whatever the size.
        with django_assert_max_num_queries(2):
            assert live(client, session, player_id).status_code == 200
    with django_assert_max_num_queries(1):
        assert live(client, session, ids[0], first["ETag"]).status_code == 304


def test_the_page_and_its_poll_say_whether_the_table_plays_online_and_hold_no_seat_link(
    mode: str, make_session: Callable[..., Session], client: Client, director: Any
) -> None:
    session = make_session(8)  # two tables of four
    online = session.sittings.get().tables.get(rank=2)
    play_services.table_online_set(table_id=online.pk, online=True, user=director)
    tokens = [
        r["token"] for r in play_services.seat_links_ensure(session_id=session.pk, user=director)
    ]
    seatings = Seating.objects.filter(sitting__session=session).select_related("player", "table")
    for seating in seatings:
        plays_online = seating.table_id == online.pk
        answer = live(client, session, seating.player_id)
        assert answer.json()["online"] is plays_online
        said = "The table plays online: play on your phone."
        assert answer.json()["text"].endswith(said) is plays_online
        html = client.get(
            reverse("tournaments:follow", args=[session.pk, seating.player_id])
        ).content.decode()
        assert f'data-seat-for="{session.pk}:{seating.player_id}"' in html
        assert (f'data-seat-for="{session.pk}:{seating.player_id}" data-online="1"' in html) is (
            plays_online
        )
        assert ('id="follow-online" hidden' in html) is not plays_online
        assert "/play/" not in html + answer.content.decode()
        assert not [t for t in tokens if t in html + answer.content.decode()]


def test_only_the_player_signed_in_sees_their_own_seat_link_on_the_page(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    table = session.sittings.get().tables.get(rank=1)
    play_services.table_online_set(table_id=table.pk, online=True, user=director)
    rows = play_services.seat_links_ensure(session_id=session.pk, user=director)
    ann, bob = seat_of(session, 1, 1), seat_of(session, 1, 2)
    Player.objects.filter(pk=ann.player_id).update(user=UserFactory(username="ann"))
    phone = Client()
    phone.force_login(Player.objects.get(pk=ann.player_id).user)
    token = {r["player"]: r["token"] for r in rows}
    own = phone.get(reverse("tournaments:follow", args=[session.pk, ann.player_id]))
    assert f'href="/play/{token[ann.player.name]}/"' in own.content.decode()
    other = phone.get(reverse("tournaments:follow", args=[session.pk, bob.player_id]))
    assert "/play/" not in other.content.decode()
