"""Running the club without /admin/: seasons, players (add, rename, merge, deactivate),
cancelling and deleting sessions, directors, long lists and the club's time zone. Each
action's success, each refusal with the database unchanged, and every role that may not
make the write."""

from __future__ import annotations

import random
import zoneinfo
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from common.errors import UserError
from scoring.models import GamePlayer
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, SessionFactory, UserFactory
from tests.snapshots import db_snapshot
from tournaments.models import (
    BigLoserAward,
    Club,
    Player,
    Season,
    Session,
    SessionPlayer,
    SitOut,
)
from web.forms import AddPlayersForm, SessionForm
from workflow.club import directors as club_directors
from workflow.club import services as club_services
from workflow.session import movements, selectors, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def player_links() -> list[tuple[type[Model], str]]:
    """Every foreign key to Player, read from the models independently of the service."""
    return [
        (f.related_model, f.field.name)
        for f in Player._meta.get_fields(include_hidden=True)
        if f.auto_created and not f.concrete and not f.many_to_many
    ]


def club_state() -> tuple[Any, ...]:
    """Every row of the project's tables and the accounts, to prove that a refused write
    changed nothing."""
    accounts = get_user_model().objects.order_by("pk").values_list("pk", "username", "password")
    return db_snapshot(), list(accounts)


def refused(code: str, action: Callable[[], Any]) -> UserError:
    before = club_state()
    with pytest.raises(UserError) as e:
        action()
    assert e.value.code == code
    assert club_state() == before
    return e.value


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, *args: object) -> str:
    return reverse(f"tournaments:{name}", args=args)


# Seasons


def test_a_director_opens_a_season(club: Club, director: Any) -> None:
    season = club_services.season_open(
        club_id=club.pk,
        name=" 2027 ",
        starts_on=date(2027, 1, 1),
        ends_on=date(2027, 12, 31),
        user=director,
    )
    assert (season.club, season.name, season.closed_at) == (club, "2027", None)


@pytest.mark.parametrize(
    ("name", "starts", "ends", "code"),
    [
        ("", date(2027, 1, 1), date(2027, 2, 1), "name_required"),
        ("x" * 61, date(2027, 1, 1), date(2027, 2, 1), "name_too_long"),
        ("2027", date(2027, 2, 1), date(2027, 1, 1), "season_dates"),
    ],
)
def test_a_season_with_bad_input_is_refused(
    club: Club, director: Any, name: str, starts: date, ends: date, code: str
) -> None:
    refused(
        code,
        lambda: club_services.season_open(
            club_id=club.pk, name=name, starts_on=starts, ends_on=ends, user=director
        ),
    )


def test_a_second_season_of_the_same_name_is_refused(season: Season, director: Any) -> None:
    refused(
        "season_name_taken",
        lambda: club_services.season_open(
            club_id=season.club_id,
            name=season.name.lower(),
            starts_on=date(2030, 1, 1),
            ends_on=date(2030, 2, 1),
            user=director,
        ),
    )


def test_closing_a_season_takes_it_off_new_sessions(
    season: Season, club: Club, director: Any
) -> None:
    club_services.season_close(season_id=season.pk, user=director)
    season.refresh_from_db()
    assert season.closed_at is not None
    assert season not in SessionForm(club=club).fields["season"].queryset
    refused(
        "season_closed",
        lambda: services.session_create(
            club=club,
            season=season,
            name="Late",
            date=season.starts_on,
            rules_id="huckley-buck",
            games_per_sitting=2,
            user=director,
        ),
    )
    refused("season_closed", lambda: club_services.season_close(season_id=season.pk, user=director))


def test_a_season_with_a_session_still_open_cannot_be_closed(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    error = refused(
        "season_has_open_sessions",
        lambda: club_services.season_close(season_id=session.season_id, user=director),
    )
    assert session.name in error.message


def test_the_seasons_page_links_each_season_to_its_big_loser_award(
    season: Season, club: Club, director: Any
) -> None:
    page = signed_in(director).get(url("club_seasons", club.slug)).content.decode()
    assert f"{url('club', club.slug)}?season={season.pk}#big-loser" in page
    club_page = signed_in(director).get(f"{url('club', club.slug)}?season={season.pk}")
    assert 'id="big-loser"' in club_page.content.decode()


def test_the_seasons_page_opens_a_season_and_says_why_it_refuses(club: Club, director: Any) -> None:
    client = signed_in(director)
    data = {"name": "Spring", "starts_on": "2027-03-01", "ends_on": "2027-02-01"}
    before = club_state()
    response = client.post(url("club_seasons", club.slug), data)
    assert response.status_code == 400
    assert "ends on or after" in response.content.decode()
    assert club_state() == before
    data["ends_on"] = "2027-05-31"
    response = client.post(url("club_seasons", club.slug), data, follow=True)
    assert "Season Spring opened." in response.content.decode()
    assert club.seasons.filter(name="Spring").exists()


# Players


def test_a_director_adds_and_renames_a_player(club: Club, director: Any) -> None:
    player = club_services.player_add(club_id=club.pk, name="  Ada   Lovelace ", user=director)
    assert player.name == "Ada Lovelace"
    club_services.player_rename(player_id=player.pk, name="Ada King", user=director)
    player.refresh_from_db()
    assert player.name == "Ada King"


def test_a_name_the_club_already_has_is_refused_whatever_its_case(
    club: Club, director: Any
) -> None:
    ada = PlayerFactory(club=club, name="Ada")
    bob = PlayerFactory(club=club, name="Bob")
    refused(
        "player_name_taken",
        lambda: club_services.player_add(club_id=club.pk, name="ADA", user=director),
    )
    refused(
        "player_name_taken",
        lambda: club_services.player_rename(player_id=bob.pk, name="ada", user=director),
    )
    refused(
        "name_required", lambda: club_services.player_add(club_id=club.pk, name=" ", user=director)
    )
    refused(
        "name_too_long",
        lambda: club_services.player_rename(player_id=ada.pk, name="y" * 61, user=director),
    )


def test_a_rename_keeps_the_name_each_game_was_played_under(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    played = GamePlayer.objects.filter(game__table__sitting__session=session).first()
    assert played is not None
    old = played.name
    version = session.board_version
    club_services.player_rename(player_id=played.player_id, name="Someone Else", user=director)
    played.refresh_from_db()
    assert played.name == old
    session.refresh_from_db()
    assert session.board_version > version  # the cached board shows the new name
    assert Player.objects.get(pk=played.player_id).name == "Someone Else"


def test_an_inactive_player_is_left_off_new_rosters_and_keeps_their_history(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(8, start=False)
    player = session.entries.first().player
    club_services.player_set_active(player_id=player.pk, active=False, user=director)
    assert player not in SessionForm(club=club).fields["players"].queryset
    assert player not in AddPlayersForm(club=club).fields["players"].queryset
    assert session.entries.filter(player=player).exists()
    refused(
        "player_unchanged",
        lambda: club_services.player_set_active(player_id=player.pk, active=False, user=director),
    )
    club_services.player_set_active(player_id=player.pk, active=True, user=director)
    assert player in SessionForm(club=club).fields["players"].queryset


def test_typing_the_name_of_an_inactive_player_brings_the_same_record_back(
    club: Club, director: Any
) -> None:
    gone = PlayerFactory(club=club, name="Old Timer", active=False)
    (back,) = services.players_get_or_create(club=club, names=["old timer"])
    assert back.pk == gone.pk
    gone.refresh_from_db()
    assert gone.active


def _finished_night(make_session: Callable[..., Session], director: Any) -> tuple[Session, Player]:
    """A finished Buck Euchre session of 9 (one sits out each sitting, in turn), and a
    player who sat at a table in sitting 1 and sat out sitting 2."""
    session = make_session(9, rules_id="buck-euchre")
    first = session.sittings.get(number=1)
    finish_sitting_unplayed(first, random.Random(3))
    second = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    finish_sitting_unplayed(second, random.Random(4))
    start_finish.session_finish(session_id=session.pk, user=director)
    out = SitOut.objects.get(sitting=second).player
    assert out.seatings.filter(sitting=first).exists()
    return session, out


def test_merging_two_records_re_points_every_row_and_keeps_all_history(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session, merged = _finished_night(make_session, director)
    account = UserFactory(username="merged-account")
    Player.objects.filter(pk=merged.pk).update(user=account)
    BigLoserAward.objects.create(season=session.season, player=merged)
    Session.objects.filter(pk=session.pk).update(big_loser=merged)
    kept = PlayerFactory(club=club, name="Kept Record")
    other = SessionFactory(club=club, season=session.season, name="Another night")
    SessionPlayer.objects.create(session=other, player=kept)
    standings = [(r.player_id, r.position) for r in selectors.session_standings(session)]

    def counts(player: Player) -> dict[str, int]:
        return {
            f"{m._meta.label}.{f}": m._default_manager.filter(**{f: player.pk}).count()
            for m, f in player_links()
        }

    before_kept, before_merged = counts(kept), counts(merged)
    held = {k for k, n in before_merged.items() if n}
    assert {
        "tournaments.Seating.player",
        "tournaments.SitOut.player",
        "tournaments.Placing.player",
        "tournaments.SessionStanding.player",
        "tournaments.SessionPlayer.player",
        "tournaments.BigLoserAward.player",
        "tournaments.Session.big_loser",
        "scoring.GamePlayer.player",
    } <= held

    club_services.player_merge(kept_id=kept.pk, merged_id=merged.pk, user=director)

    assert not Player.objects.filter(pk=merged.pk).exists()
    assert counts(kept) == {k: before_kept[k] + before_merged[k] for k in before_kept}
    kept.refresh_from_db()
    assert kept.user == account
    moved = [(kept.pk if p == merged.pk else p, pos) for p, pos in standings]
    assert [(r.player_id, r.position) for r in selectors.session_standings(session)] == moved


def test_two_records_who_sat_at_one_game_are_not_merged_and_the_refusal_says_where(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    a, b = GamePlayer.objects.filter(game__table__sitting__session=session, game__number=1)[:2]
    error = refused(
        "merge_same_game",
        lambda: club_services.player_merge(
            kept_id=a.player_id, merged_id=b.player_id, user=director
        ),
    )
    assert session.name in error.message


def test_two_records_on_one_session_roster_are_not_merged(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    a, b = session.entries.all()[:2]
    error = refused(
        "merge_same_session",
        lambda: club_services.player_merge(
            kept_id=a.player_id, merged_id=b.player_id, user=director
        ),
    )
    assert session.name in error.message


def test_a_merge_across_clubs_of_one_record_or_of_two_accounts_is_refused(
    club: Club, director: Any
) -> None:
    a = PlayerFactory(club=club, user=UserFactory())
    b = PlayerFactory(club=club, user=UserFactory())
    elsewhere = PlayerFactory()
    merge = club_services.player_merge
    refused("merge_two_accounts", lambda: merge(kept_id=a.pk, merged_id=b.pk, user=director))
    refused("merge_other_club", lambda: merge(kept_id=a.pk, merged_id=elsewhere.pk, user=director))
    refused("merge_same_player", lambda: merge(kept_id=a.pk, merged_id=a.pk, user=director))


def test_the_merge_page_asks_first_then_merges(club: Club, director: Any) -> None:
    kept = PlayerFactory(club=club, name="Bob Smith")
    dup = PlayerFactory(club=club, name="Bobby Smith")
    client = signed_in(director)
    page = client.get(url("club_player_merge", club.slug, kept.pk), {"duplicate": "bobby smith"})
    assert "Merge “Bobby Smith” into “Bob Smith”?" in page.content.decode()
    assert Player.objects.filter(pk=dup.pk).exists()
    client.post(url("club_player_merge", club.slug, kept.pk), {"merged": dup.pk})
    assert not Player.objects.filter(pk=dup.pk).exists()


# Sessions


def test_an_unstarted_session_is_cancelled_then_deleted(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    club_services.session_cancel(session_id=session.pk, user=director)
    session.refresh_from_db()
    assert session.status == Session.Status.CANCELLED
    refused(
        "session_cancelled",
        lambda: club_services.session_cancel(session_id=session.pk, user=director),
    )
    refused(
        "session_cancelled",
        lambda: start_finish.session_start(session_id=session.pk, user=director),
    )
    refused(
        "session_cancelled",
        lambda: services.session_add_players(
            session_id=session.pk, new_names=["Late"], user=director
        ),
    )
    players = set(session.entries.values_list("player_id", flat=True))
    club_services.session_delete(session_id=session.pk, user=director)
    assert not Session.objects.filter(pk=session.pk).exists()
    assert set(Player.objects.filter(pk__in=players).values_list("pk", flat=True)) == players


def test_an_empty_session_is_deleted_without_cancelling(club: Club, director: Any) -> None:
    session = SessionFactory(club=club)
    club_services.session_delete(session_id=session.pk, user=director)
    assert not Session.objects.filter(pk=session.pk).exists()


def test_a_started_or_finished_session_is_never_cancelled_or_deleted(
    make_session: Callable[..., Session], director: Any
) -> None:
    running = make_session(8)
    finished, _ = _finished_night(make_session, director)
    for session in (running, finished):
        refused(
            "session_started",
            lambda s=session: club_services.session_cancel(session_id=s.pk, user=director),
        )
        refused(
            "session_not_empty",
            lambda s=session: club_services.session_delete(session_id=s.pk, user=director),
        )


# Directors


def test_a_director_invites_an_existing_account_by_username_or_email(
    club: Club, director: Any
) -> None:
    ann = UserFactory(username="ann", email="ann@example.org")
    bea = UserFactory(username="bea", email="bea@example.org")
    club_directors.director_invite(club_id=club.pk, login="ANN", user=director)
    club_directors.director_invite(club_id=club.pk, login="Bea@Example.org", user=director)
    assert set(club.directors.all()) == {director, ann, bea}
    refused(
        "already_director",
        lambda: club_directors.director_invite(club_id=club.pk, login="ann", user=director),
    )
    refused(
        "unknown_account",
        lambda: club_directors.director_invite(club_id=club.pk, login="nobody", user=director),
    )
    refused(
        "login_required",
        lambda: club_directors.director_invite(club_id=club.pk, login=" ", user=director),
    )


def test_an_invited_new_account_chooses_its_password_once_through_the_link(
    club: Club, director: Any
) -> None:
    page = signed_in(director).post(
        url("club_directors", club.slug), {"login": "cleo@example.org", "create": "on"}
    )
    link = page.context["link"]
    cleo = get_user_model().objects.get(email="cleo@example.org")
    assert club.directors.filter(pk=cleo.pk).exists()
    assert not cleo.has_usable_password()
    client = Client()
    form = client.get(link, follow=True)
    password = "a-long-new-password-31"
    client.post(form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password})
    cleo.refresh_from_db()
    assert cleo.check_password(password)
    assert "has been used" in Client().get(link, follow=True).content.decode()


def test_a_director_is_removed_but_never_the_last_one(club: Club, director: Any) -> None:
    other = UserFactory(username="other")
    club.directors.add(other)
    club_directors.director_remove(club_id=club.pk, user_id=other.pk, user=director)
    assert list(club.directors.all()) == [director]
    refused(
        "last_director",
        lambda: club_directors.director_remove(club_id=club.pk, user_id=director.pk, user=director),
    )
    refused(
        "not_a_director",
        lambda: club_directors.director_remove(club_id=club.pk, user_id=other.pk, user=director),
    )


# Long lists


def test_a_club_of_a_thousand_players_lists_fifty_a_page_in_a_constant_number_of_queries(
    club: Club, director: Any, django_assert_max_num_queries: Any
) -> None:
    Player.objects.bulk_create(Player(club=club, name=f"Player {n:04}") for n in range(60))
    client = signed_in(director)
    client.get(url("club_players", club.slug))  # the session and the user, cached after

    def queries(**params: str) -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            response = client.get(url("club_players", club.slug), params)
        assert response.status_code == 200
        return len(captured)

    small = queries()
    Player.objects.bulk_create(Player(club=club, name=f"Player {n:04}") for n in range(60, 1000))
    with django_assert_max_num_queries(small):
        page = client.get(url("club_players", club.slug), {"page": "20"})
    names = [p.name for p in page.context["page"]]
    assert names == [f"Player {n:04}" for n in range(950, 1000)]
    found = client.get(url("club_players", club.slug), {"q": "player 012"}).context["page"]
    assert [p.name for p in found] == [f"Player {n:04}" for n in range(120, 130)]
    assert queries(q="player 9") <= small


# The club's time zone


def test_times_on_the_club_pages_are_in_its_time_zone_and_say_so(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    club_services.club_set_time_zone(club_id=club.pk, time_zone="America/Chicago", user=director)
    session = make_session(8)
    assert session.started_at is not None
    local = session.started_at.astimezone(zoneinfo.ZoneInfo("America/Chicago"))
    shown = f"{local:%H:%M} (America/Chicago)"
    client = signed_in(director)
    assert shown in client.get(url("club_sessions", club.slug)).content.decode()
    assert shown in client.get(url("manage", session.pk)).content.decode()
    # The club's zone is for its own pages only: it does not outlive the request.
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_time_zone_that_does_not_exist_is_refused(club: Club, director: Any) -> None:
    for bad in ("Mars/Olympus", "", "../etc/passwd"):
        refused(
            "bad_time_zone",
            lambda bad=bad: club_services.club_set_time_zone(
                club_id=club.pk, time_zone=bad, user=director
            ),
        )


# Who may make each write


def club_writes(club: Club, director: Any) -> list[tuple[str, str, dict[str, Any]]]:
    season = SeasonFactory(club=club, name="2031")
    player = PlayerFactory(club=club, name="Target")
    dup = PlayerFactory(club=club, name="Duplicate")
    session = SessionFactory(club=club, season=season)
    slug = club.slug
    return [
        ("time zone", url("club_time_zone", slug), {"time_zone": "Europe/London"}),
        ("open season", url("club_seasons", slug),
            {"name": "X", "starts_on": "2032-01-01", "ends_on": "2032-02-01"}),
        ("close season", url("club_season_close", slug, season.pk), {}),
        ("add player", url("club_players", slug), {"name": "New"}),
        ("rename", url("club_player", slug, player.pk), {"name": "Renamed"}),
        ("deactivate", url("club_player_active", slug, player.pk), {"active": "0"}),
        ("merge", url("club_player_merge", slug, player.pk), {"merged": dup.pk}),
        ("cancel session", url("club_session_cancel", slug, session.pk), {}),
        ("delete session", url("club_session_delete", slug, session.pk), {}),
        ("invite", url("club_directors", slug), {"login": "fresh", "create": "on"}),
        ("remove director", url("club_director_remove", slug, director.pk), {}),
    ]  # fmt: skip


def club_pages(club: Club, director: Any) -> list[str]:
    return [
        url("club_home", club.slug),
        url("club_seasons", club.slug),
        url("club_players", club.slug),
        url("club_sessions", club.slug),
        url("club_directors", club.slug),
    ]


def test_anonymous_visitors_are_sent_to_sign_in_and_change_nothing(
    club: Club, director: Any
) -> None:
    club.directors.add(UserFactory(username="second"))  # removing one would be allowed
    client = Client()
    for label, address, data in club_writes(club, director):
        before = club_state()
        response = client.post(address, data)
        assert response.status_code == 302, label
        assert response["Location"].startswith(reverse("login")), label
        assert club_state() == before, label


@pytest.mark.parametrize("who", ["player", "director of another club"])
def test_players_and_other_clubs_directors_are_refused_every_club_write_and_page(
    club: Club, director: Any, who: str
) -> None:
    club.directors.add(UserFactory(username="second"))
    user = UserFactory(username="someone")
    if who == "player":
        PlayerFactory(club=club, name="Their record", user=user)
    else:
        ClubFactory().directors.add(user)
    client = signed_in(user)
    for label, address, data in club_writes(club, director):
        before = club_state()
        assert client.post(address, data).status_code == 403, label
        assert club_state() == before, label
    for address in club_pages(club, director):
        assert client.get(address).status_code == 403, address


def test_the_club_page_links_its_directors_to_running_the_club(club: Club, director: Any) -> None:
    running = url("club_home", club.slug)
    assert running in signed_in(director).get(url("club", club.slug)).content.decode()
    assert running not in Client().get(url("club", club.slug)).content.decode()
    for address in club_pages(club, director):
        assert signed_in(director).get(address).status_code == 200, address


def test_each_refusal_on_the_pages_is_said_in_plain_words_and_changes_nothing(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    running = make_session(8)
    a, b = running.entries.all()[:2]
    slug = club.slug
    cases = [
        (url("club_time_zone", slug), {"time_zone": "Mars/Olympus"}, "is not a time zone"),
        (url("club_season_close", slug, running.season_id), {}, "Finish or cancel"),
        (url("club_players", slug), {"name": a.player.name.upper()}, "already has a player"),
        (url("club_player", slug, a.player_id), {"name": b.player.name}, "merge the two"),
        (url("club_player_merge", slug, a.player_id), {"merged": b.player_id}, "two people"),
        (url("club_session_cancel", slug, running.pk), {}, "has started"),
        (url("club_session_delete", slug, running.pk), {}, "never started"),
        (url("club_directors", slug), {"login": "nobody"}, "No account is called"),
        (url("club_director_remove", slug, director.pk), {}, "only director"),
    ]
    client = signed_in(director)
    for address, data, words in cases:
        before = club_state()
        response = client.post(address, data, follow=True)
        assert words in response.content.decode(), address
        assert club_state() == before, address
