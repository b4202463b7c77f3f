"""The director's side of online play: creating an online session, the online settings,
the seats page, the Online / Paper switch, watching a table and the projector's tricks;
each refused to an anonymous visitor and to another club's director. Robots at a short
table, and what the director is told of a robot's moves, are in test_director_robots.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from play import director
from play.models import SeatLink
from tests.factories import ClubFactory, UserFactory
from tests.play.director_sessions import online_session
from tests.play.rounds import store_online_round
from tournaments.models import AuditEntry, Player, Session, Table
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger() -> Client:
    """A director of another club."""
    other = UserFactory.create(username="elsewhere")
    ClubFactory.create(slug="elsewhere").directors.add(other)
    client = Client()
    client.force_login(other)
    return client


def new_session(season: Any, **fields: Any) -> dict[str, Any]:
    return {
        "season": season.pk,
        "name": "Snowed-in night",
        "date": str(season.starts_on),
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
    } | fields


# -- Creating a session ----------------------------------------------------------------


def test_the_new_session_form_makes_an_online_session(
    dclient: Client, club: Any, season: Any
) -> None:
    page = dclient.get(reverse("tournaments:session_new", args=[club.slug])).content.decode()
    assert "Online: every table plays online" in page
    response = dclient.post(
        reverse("tournaments:session_new", args=[club.slug]),
        new_session(season, online="on", online_grace_seconds="45", move_clock_seconds="20"),
    )
    assert response.status_code == 302
    session = Session.objects.get(name="Snowed-in night")
    assert (session.online, session.online_grace_seconds, session.move_clock_seconds) == (
        True,
        45,
        20,
    )


def test_an_empty_grace_time_is_a_minute_and_an_empty_clock_is_none(
    dclient: Client, club: Any, season: Any
) -> None:
    dclient.post(reverse("tournaments:session_new", args=[club.slug]), new_session(season))
    session = Session.objects.get(name="Snowed-in night")
    assert (session.online, session.online_grace_seconds, session.move_clock_seconds) == (
        False,
        60,
        None,
    )


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("a minute", "“a minute” is not a number of seconds"),
        ("1", "from 5 to 3600 seconds; 1 is out of range"),
        ("١٢", "“١٢” is not a number of seconds"),
    ],
)
def test_a_grace_time_that_is_not_seconds_is_refused_in_words_and_kept_as_typed(
    dclient: Client, club: Any, season: Any, typed: str, words: str
) -> None:
    response = dclient.post(
        reverse("tournaments:session_new", args=[club.slug]),
        new_session(season, online="on", online_grace_seconds=typed),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert words in html
    assert f'value="{typed}"' in html  # the form keeps what was typed
    assert not Session.objects.filter(name="Snowed-in night").exists()


def test_the_online_settings_change_on_the_manage_page(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    page = dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'id="online"' in page
    assert 'name="online_grace_seconds" value="60"' in page
    url = reverse("tournaments:online_settings", args=[session.pk])
    dclient.post(url, {"online_grace_seconds": "120", "move_clock_seconds": "30"})
    session.refresh_from_db()
    assert (session.online_grace_seconds, session.move_clock_seconds) == (120, 30)
    response = dclient.post(url, {"online_grace_seconds": "soon", "move_clock_seconds": ""})
    assert response.status_code == 302
    page = dclient.get(response["Location"]).content.decode()
    assert "“soon” is not a number of seconds" in page
    session.refresh_from_db()
    assert (session.online_grace_seconds, session.move_clock_seconds) == (120, 30)


# -- The seats page --------------------------------------------------------------------


def test_the_seats_page_lists_every_seated_player_with_a_link_and_a_qr_code(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    manage = dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    seats_url = reverse("tournaments:online_seats", args=[session.pk])
    assert seats_url in manage
    page = dclient.get(seats_url).content.decode()
    links = SeatLink.objects.filter(session=session)
    assert links.count() == 8
    for link in links:
        assert f"/play/{link.token}/" in page
        assert link.player.name in page
    assert page.count("<svg") == 8
    assert "Email the links" in page


def test_only_players_with_an_email_get_their_link(
    dclient: Client,
    make_session: Callable[..., Session],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = online_session(make_session)
    seated = list(Player.objects.filter(seatings__sitting__session=session).order_by("name")[:2])
    for i, player in enumerate(seated):
        player.email = f"p{i}@example.org"
        player.save()
    # The task the write queues after commit, run here rather than by a worker: on the
    # strict run a real worker would send it from its own process and database.
    queued: list[tuple[Any, tuple[Any, ...]]] = []
    monkeypatch.setattr(director, "enqueue_on_commit", lambda t, *a: queued.append((t, a)))
    with django_capture_on_commit_callbacks(execute=True):
        response = dclient.post(reverse("tournaments:online_seats_email", args=[session.pk]))
    assert response.status_code == 302
    assert len(queued) == 1
    for task, args in queued:
        task(*args)
    assert sorted(m.to[0] for m in mail.outbox) == ["p0@example.org", "p1@example.org"]
    for message, player in zip(sorted(mail.outbox, key=lambda m: m.to[0]), seated, strict=True):
        token = SeatLink.objects.get(session=session, player=player).token
        assert f"/play/{token}/" in message.body
        others = SeatLink.objects.filter(session=session).exclude(player=player)
        assert not any(o.token in message.body for o in others)


def test_emailing_the_links_when_nobody_has_an_address_says_so(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    response = dclient.post(
        reverse("tournaments:online_seats_email", args=[session.pk]), follow=True
    )
    assert "None of the seated players has an email address" in response.content.decode()
    assert mail.outbox == []


# -- Online / Paper, per table ---------------------------------------------------------


def test_a_table_switches_online_and_back_after_a_question(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    assert not table.online
    url = reverse("tournaments:online_table", args=[table.pk])
    assert (
        f"{url}?online=1"
        in dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    )
    question = dclient.get(url, {"online": "1"})
    assert question.status_code == 200
    assert "Play online" in question.content.decode()
    table.refresh_from_db()
    assert not table.online  # asking changes nothing
    dclient.post(url, {"online": "1", "confirmed": "1"})
    table.refresh_from_db()
    assert table.online
    assert AuditEntry.objects.filter(action="play.table_online").exists()
    dclient.post(url, {"online": "0", "confirmed": "1"})
    table.refresh_from_db()
    assert not table.online


def test_switching_a_table_with_rounds_on_paper_online_asks_first(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(8)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    from scoring import services as scoring
    from tests.scoring.helpers import split

    game = table.games.get(number=1)
    scoring.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM)
    response = dclient.post(reverse("tournaments:online_table", args=[table.pk]), {"online": "1"})
    assert response.status_code == 200
    assert "1 round entered on paper; the phones carry on from round 2" in response.content.decode()
    table.refresh_from_db()
    assert not table.online


# -- Watching --------------------------------------------------------------------------


def test_a_director_watches_an_online_table_and_sees_no_hand(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    page = dclient.get(reverse("tournaments:online_watch", args=[table.pk]))
    assert page.status_code == 200
    live = dclient.get(reverse("tournaments:online_watch_live", args=[table.pk]))
    assert live.status_code == 200
    view = live.json()
    assert view.get("hand") is None
    again = dclient.get(
        reverse("tournaments:online_watch_live", args=[table.pk]),
        HTTP_IF_NONE_MATCH=live["ETag"],
    )
    assert again.status_code == 304


def test_the_projector_asks_for_the_online_tricks(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    page = client.get(reverse("tournaments:screen", args=[session.pk])).content.decode()
    tricks_url = reverse("tournaments:screen_tricks", args=[session.pk])
    assert f'data-tricks-url="{tricks_url}"' in page
    answer = client.get(tricks_url)
    tables = answer.json()["tables"]
    assert len(tables) == 2
    assert all("hand" not in t and "hands" not in t for t in tables)
    assert client.get(tricks_url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


def test_a_finished_online_round_with_robot_moves_says_so_in_its_replay(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    game = table.games.get(number=1)
    name = game.game_players.order_by("seat").first().name
    store_online_round(game, seed=4, robots=[name])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"A robot played 5 moves for {name}." in page


# -- Who may --------------------------------------------------------------------------


def director_urls(session: Session, table: Table) -> list[tuple[str, str]]:
    return [
        ("get", reverse("tournaments:online_seats", args=[session.pk])),
        ("post", reverse("tournaments:online_seats_email", args=[session.pk])),
        ("post", reverse("tournaments:online_settings", args=[session.pk])),
        ("get", reverse("tournaments:online_table", args=[table.pk]) + "?online=0"),
        ("post", reverse("tournaments:online_table", args=[table.pk])),
        ("get", reverse("tournaments:online_robots", args=[table.pk])),
        ("post", reverse("tournaments:online_robots", args=[table.pk])),
        ("get", reverse("tournaments:online_watch", args=[table.pk])),
        ("get", reverse("tournaments:online_watch_live", args=[table.pk])),
    ]


def test_anonymous_visitors_are_sent_to_sign_in(make_session: Callable[..., Session]) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).first()
    assert table is not None
    anonymous = Client()
    for method, url in director_urls(session, table):
        response = getattr(anonymous, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    assert not SeatLink.objects.exists()


def test_another_clubs_director_is_refused(
    stranger: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).first()
    assert table is not None
    for method, url in director_urls(session, table):
        assert getattr(stranger, method)(url).status_code == 403, url
    assert not SeatLink.objects.exists()
    assert not Player.objects.filter(is_robot=True).exists()
