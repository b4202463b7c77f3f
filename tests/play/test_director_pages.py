"""The director's side of online play: creating an online session, the online settings,
the seats page, the Online / Paper switch, robots at a short table, watching a table and
the projector's tricks; each refused to an anonymous visitor and to another club's
director."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from play import director
from play.models import SeatLink
from ratings import services as ratings
from ratings.models import Rating
from tests.factories import ClubFactory, UserFactory
from tests.play.rounds import store_online_round
from tournaments.models import AuditEntry, Player, Seating, Session, Table
from tournaments.permissions import SYSTEM
from workflow.session import selectors
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


@pytest.fixture
def stranger() -> Client:
    """A director of another club."""
    other = UserFactory.create(username="elsewhere")
    ClubFactory.create(slug="elsewhere").directors.add(other)
    client = Client()
    client.force_login(other)
    return client


def online_session(make_session: Callable[..., Session], players: int = 8, **kw: Any) -> Session:
    session = make_session(players, **kw)
    Session.objects.filter(pk=session.pk).update(online=True)
    Table.objects.filter(sitting__session=session).update(online=True)
    session.refresh_from_db()
    return session


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


# -- Robots ----------------------------------------------------------------------------


def short_table(session: Session) -> Table:
    return min(
        Table.objects.filter(sitting__session=session),
        key=lambda t: t.seatings.filter(left_at__isnull=True).count(),
    )


def test_a_robot_fills_a_short_online_table_and_is_marked_on_the_standings(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session, 3)
    table = short_table(session)
    assert table.seatings.count() == 3
    url = reverse("tournaments:online_robots", args=[table.pk])
    assert url in dclient.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert dclient.get(url).status_code == 200  # the question
    dclient.post(url)
    robot = Seating.objects.get(table=table, seat=4).player
    assert (robot.name, robot.is_robot) == ("Robot 1", True)
    assert sorted(table.games.get(number=1).game_players.values_list("name", flat=True)) == sorted(
        Seating.objects.filter(table=table).values_list("player__name", flat=True)
    )
    rows = {r.name: r for r in selectors.session_standings(session)}
    assert rows["Robot 1"].robot
    assert not any(r.robot for name, r in rows.items() if name != "Robot 1")
    page = dclient.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert 'Robot 1</a> <span class="muted">(robot)</span>' in page


def test_a_robot_is_refused_at_a_paper_table_and_at_a_full_one(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    session = make_session(3)
    table = short_table(session)
    response = dclient.post(reverse("tournaments:online_robots", args=[table.pk]), follow=True)
    assert "plays on paper: a robot can only fill an online table" in response.content.decode()
    full = short_table(online_session(make_session, 4, seed=5))
    response = dclient.post(reverse("tournaments:online_robots", args=[full.pk]), follow=True)
    assert "is not short" in response.content.decode()
    assert not Player.objects.filter(is_robot=True).exists()


def test_a_second_robot_of_the_club_is_robot_2_and_a_robot_is_seated_again_next_night(
    make_session: Callable[..., Session], director: Any
) -> None:
    from play import director as play_director

    first = online_session(make_session, 6, rules_id="bluke")  # tables of three and three
    tables = list(Table.objects.filter(sitting__session=first).order_by("rank"))
    assert [t.seatings.count() for t in tables] == [3, 3]
    assert play_director.table_robot_seat(table_id=tables[0].pk, user=director) == ["Robot 1"]
    assert play_director.table_robot_seat(table_id=tables[1].pk, user=director) == ["Robot 2"]
    next_night = online_session(make_session, 3, seed=9)
    table = short_table(next_night)
    assert play_director.table_robot_seat(table_id=table.pk, user=director) == ["Robot 1"]
    assert Player.objects.filter(is_robot=True).count() == 2


def test_robots_get_no_rating_and_do_not_count(
    make_session: Callable[..., Session], director: Any, club: Any
) -> None:
    from play import director as play_director

    session = online_session(make_session, 3)
    table = short_table(session)
    play_director.table_robot_seat(table_id=table.pk, user=director)
    finish_sitting_unplayed(session.sittings.get(), __import__("random").Random(2))
    ratings.ratings_rebuild(club_id=club.pk, user=SYSTEM)
    rated = set(Rating.objects.filter(club=club).values_list("player__name", flat=True))
    assert "Robot 1" not in rated
    humans = set(
        Seating.objects.filter(table=table, player__is_robot=False).values_list(
            "player__name", flat=True
        )
    )
    assert humans <= rated
    # The humans of the robot's table ranked among themselves: three results a game.
    from ratings.models import RatingHistory

    game_ids = set(table.games.values_list("pk", flat=True))
    per_game = {g: RatingHistory.objects.filter(game_id=g).count() for g in game_ids}
    assert set(per_game.values()) == {3}


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


def test_the_director_sees_when_the_clock_ran_out_and_a_robot_played(
    dclient: Client, make_session: Callable[..., Session]
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from play import services as play_services
    from play.models import LiveRound

    session = online_session(make_session, 4)
    Session.objects.filter(pk=session.pk).update(move_clock_seconds=5, online_grace_seconds=600)
    table = Table.objects.get(sitting__session=session)
    play_services.seat_links_ensure(session_id=session.pk, user=SYSTEM)
    assert play_services.deal_if_needed(table_id=table.pk)
    live = LiveRound.objects.get(game__table=table)
    first = play_services.selectors.watch_view(table.pk)["to_act"]
    manage = reverse("tournaments:manage", args=[session.pk])
    assert "a robot played" not in dclient.get(manage).content.decode()
    LiveRound.objects.filter(pk=live.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=10)
    )
    assert play_services.tick(table_id=table.pk)
    line = f"Round 1 of game 1: the move clock ran out for {first}; a robot played 1 move for them"
    assert line in dclient.get(manage).content.decode()
    watch = dclient.get(reverse("tournaments:online_watch", args=[table.pk])).content.decode()
    assert line in watch


def test_the_standings_say_how_many_moves_a_robot_made_for_a_player(
    client: Client, make_session: Callable[..., Session]
) -> None:
    session = online_session(make_session)
    table = Table.objects.filter(sitting__session=session).order_by("rank").first()
    assert table is not None
    game = table.games.get(number=1)
    first, second = game.game_players.order_by("seat").values_list("name", flat=True)[:2]
    store_online_round(game, seed=4, robots=[first])
    store_online_round(game, seed=5, robots=[first, second])
    rows = {r.name: r for r in selectors.session_standings(session)}
    assert (rows[first].robot_moves, rows[second].robot_moves) == (10, 5)
    assert sum(r.robot_moves for r in rows.values()) == 15
    page = client.get(reverse("tournaments:standings", args=[session.pk])).content.decode()
    assert "(a robot played 10 moves for them)" in page
    assert "(a robot played 5 moves for them)" in page


def test_a_robot_seated_after_the_deal_but_before_the_first_card_is_dealt_in(
    make_session: Callable[..., Session], director: Any
) -> None:
    from play import director as play_director
    from play import selectors as play_selectors
    from play import services as play_services

    session = online_session(make_session, 3)
    table = short_table(session)
    assert play_services.deal_if_needed(table_id=table.pk)
    assert len(play_selectors.watch_view(table.pk)["counts"]) == 3
    play_director.table_robot_seat(table_id=table.pk, user=director)
    play_services.tick(table_id=table.pk)
    view = play_selectors.watch_view(table.pk)
    assert "Robot 1" in view["counts"]
    assert len(view["counts"]) == 4


def test_a_robot_is_refused_once_a_move_was_made_at_the_table(
    dclient: Client, make_session: Callable[..., Session], director: Any
) -> None:
    import random

    from rest_framework.test import APIClient

    from play.models import LiveRound
    from tests.play.conftest import tokens_of
    from tests.play.helpers import play_table

    session = online_session(make_session, 3)
    table = short_table(session)
    tokens = tokens_of(session, director)

    def moved() -> bool:
        return any(live.history for live in LiveRound.objects.filter(game__table=table))

    play_table(APIClient(), tokens, rng=random.Random(1), until=moved)
    response = dclient.post(reverse("tournaments:online_robots", args=[table.pk]), follow=True)
    assert "a robot can only fill a seat before the first card" in response.content.decode()
    assert not Player.objects.filter(is_robot=True).exists()
