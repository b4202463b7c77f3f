"""Running the club without /admin/: seasons and players (add, rename, merge, deactivate).
Each action's success and each refusal with the database unchanged. Sessions, directors,
long lists, the time zone and who may not make a club write are in
test_club_sessions_directors.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from scoring.models import GamePlayer
from tests.factories import PlayerFactory, SessionFactory, UserFactory
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


def test_a_name_is_taken_whatever_the_case_of_its_accented_letters(
    club: Club, director: Any
) -> None:
    PlayerFactory(club=club, name="Émile Ó Súilleabháin")
    bob = PlayerFactory(club=club, name="Bob")
    refused(
        "player_name_taken",
        lambda: club_services.player_add(
            club_id=club.pk, name="ÉMILE  ó súilleabháin", user=director
        ),
    )
    refused(
        "player_name_taken",
        lambda: club_services.player_rename(
            player_id=bob.pk, name="émile ó súilleabháin", user=director
        ),
    )
    assert club.players.count() == 2


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
