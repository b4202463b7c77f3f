"""A whole club file brought in on a page: upload, a preview of what it creates (the
import run and rolled back), the import on confirmation, and every refusal in the
import's words with nothing written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from exchange.clubfile import club_export
from scoring.models import Game, Round
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory
from tests.snapshots import db_snapshot
from tournaments.models import Club, Player, Season, Session, SessionPlayer
from workflow.session.simulation import PlayOptions, generated_names, play_session

pytestmark = pytest.mark.django_db

URL = reverse("exchange:club_import")


def exported_and_gone(club: Club, season: Season) -> bytes:
    """The club's file, after which the club is deleted: the file fits this database."""
    for name in ("Ann Lee", "Bob Ray"):
        player = PlayerFactory(club=club, name=name)
    night = SessionFactory(club=club, season=season, name="First night")
    SessionPlayer.objects.create(session=night, player=player)
    content = json.dumps(club_export(club)).encode()
    Session.objects.filter(club=club).delete()
    club.delete()
    return content


def upload(client: Client, content: bytes) -> Any:
    return client.post(URL, {"file": SimpleUploadedFile("club.json", content)})


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def state() -> tuple[Any, ...]:
    users = get_user_model().objects.order_by("pk").values_list("pk", "username")
    return db_snapshot(), list(users)


def test_a_club_file_is_previewed_then_imported_and_its_importer_directs_it(
    club: Club, season: Season, director: Any
) -> None:
    content = exported_and_gone(club, season)
    client = signed_in(director)
    before = state()
    preview = upload(client, content)
    assert preview.status_code == 200
    assert state() == before  # the preview wrote nothing
    shown = preview.content.decode()
    assert "The club <strong>Tuesday Club</strong>, at /clubs/tuesday/" in shown
    assert "1 season, 2 players, 1 session, 0 games, 0 rounds" in shown
    assert "Import Tuesday Club" in shown
    response = client.post(URL, {"token": preview.context["token"]})
    assert response["Location"] == reverse("tournaments:club_home", args=["tuesday"])
    imported = Club.objects.get(slug="tuesday")
    assert sorted(imported.players.values_list("name", flat=True)) == ["Ann Lee", "Bob Ray"]
    assert list(imported.directors.all()) == [director]


def test_a_new_account_imports_a_club_and_becomes_one_of_its_directors(
    club: Club, season: Season, director: Any
) -> None:
    # The file's director "dee-director" is not on this site: the import creates it.
    content = exported_and_gone(club, season)
    director.delete()
    newcomer = UserFactory(username="newcomer")
    client = signed_in(newcomer)
    preview = upload(client, content)
    assert "New accounts, made without a password or email" in preview.content.decode()
    client.post(URL, {"token": preview.context["token"]})
    imported = Club.objects.get(slug="tuesday")
    assert sorted(imported.directors.values_list("username", flat=True)) == [
        "dee-director",
        "newcomer",
    ]
    assert not get_user_model().objects.get(username="dee-director").has_usable_password()


def test_a_file_naming_someone_elses_account_is_left_to_the_operator(
    club: Club, season: Season, director: Any
) -> None:
    content = exported_and_gone(club, season)
    client = signed_in(UserFactory(username="stranger"))
    before = state()
    response = upload(client, content)
    assert response.status_code == 400
    assert "names accounts this site has already (dee-director)" in response.content.decode()
    assert "manage.py import_club" in response.content.decode()
    assert state() == before


def test_a_club_that_exists_is_refused_in_the_imports_words(
    club: Club, season: Season, director: Any
) -> None:
    content = json.dumps(club_export(club)).encode()
    before = state()
    response = upload(signed_in(director), content)
    assert response.status_code == 400
    assert "A club with the slug &#x27;tuesday&#x27; exists already" in response.content.decode()
    assert state() == before


def test_a_file_whose_ids_are_taken_is_refused(club: Club, season: Season, director: Any) -> None:
    data = club_export(club)
    data["club"]["slug"] = "elsewhere"
    response = upload(signed_in(director), json.dumps(data).encode())
    assert "import the club into an empty database" in response.content.decode()
    assert not Club.objects.filter(slug="elsewhere").exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json", "it is not JSON"),
        (b"[1, 2]", "This is not a club file"),
        (b'{"format": "something-else"}', "This is not a club file"),
        (b'{"format": "huckley-club/1", "club": {}}', "The club file cannot be read"),
    ],
)
def test_a_file_that_is_not_a_club_file_is_refused(content: bytes, words: str) -> None:
    response = upload(signed_in(UserFactory()), content)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Club.objects.exists()


def test_a_file_too_large_is_refused_by_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("exchange.club_upload.MAX_BYTES", 10)
    response = upload(signed_in(UserFactory()), b'{"format": "huckley-club/1"}')
    assert response.status_code == 400
    assert "The file is 28 bytes; a club file here has at most 10 bytes" in (
        response.content.decode()
    )


def test_a_forged_or_anothers_preview_token_imports_nothing(
    club: Club, season: Season, director: Any
) -> None:
    content = exported_and_gone(club, season)
    token = upload(signed_in(director), content).context["token"]
    for client, sent in (
        (signed_in(director), token[:-2] + "xx"),
        (signed_in(UserFactory(username="someone")), token),
    ):
        response = client.post(URL, {"token": sent})
        assert response.status_code == 400
        assert "This preview has expired or is not yours" in response.content.decode()
    assert not Club.objects.exists()


def test_an_anonymous_visitor_is_sent_to_sign_in(club: Club, season: Season) -> None:
    response = Client().post(URL, {"file": SimpleUploadedFile("club.json", b"{}")})
    assert response["Location"].startswith(reverse("login"))


def test_the_create_club_page_links_the_import() -> None:
    page = signed_in(UserFactory()).get(reverse("tournaments:club_new")).content.decode()
    assert URL in page


def test_a_club_with_an_account_linked_player_travels_with_the_link_for_its_owner(
    season: Season, director: Any
) -> None:
    club = season.club
    ann = PlayerFactory(club=club, name="Ann Lee", user=director)
    content = json.dumps(club_export(club)).encode()
    ann.delete()
    Season.objects.filter(club=club).delete()
    club.delete()
    other = ClubFactory(slug="unrelated")
    client = signed_in(director)
    client.post(URL, {"token": upload(client, content).context["token"]})
    assert Player.objects.get(name="Ann Lee").user == director
    assert Club.objects.filter(pk=other.pk).exists()


# Emptied with `flush`, as tests/exchange/test_club_file.py does: outside a test
# transaction, so that PostgreSQL's TRUNCATE behaves as it would for an operator.
@pytest.mark.django_db(transaction=True)
def test_the_preview_counts_the_games_and_rounds_a_played_club_brings(
    club: Club, season: Season, director: Any
) -> None:
    play_session(
        club=club,
        season=season,
        name="Played night",
        day=season.starts_on,
        players=generated_names(8),
        options=PlayOptions(sittings=1, seed=3, user=director),
    )
    games, rounds = Game.objects.count(), Round.objects.count()
    assert games > 0
    assert rounds > 0
    content = json.dumps(club_export(club)).encode()
    call_command("flush", interactive=False, verbosity=0)
    client = signed_in(UserFactory(username="dee-director"))
    shown = upload(client, content).content.decode()
    assert f"1 season, 8 players, 1 session, {games} games, {rounds} rounds" in shown
    client.post(URL, {"token": upload(client, content).context["token"]})
    assert (Game.objects.count(), Round.objects.count()) == (games, rounds)
