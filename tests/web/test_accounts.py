"""Starting a club without the admin: signing up, creating the club, and a player
claiming their record through a director's invitation. Each page's success, each refusal
in plain words with nothing written, and who may not."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from common.errors import UserError
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.limits import forget_limits
from tests.snapshots import db_snapshot
from tournaments.models import Club, Player, Season
from workflow.club import accounts

pytestmark = pytest.mark.django_db

PASSWORD = "Gold-Buck-4711"


@pytest.fixture(autouse=True)
def _no_counts_left() -> Iterator[None]:
    forget_limits()
    yield
    forget_limits()


def state() -> tuple[Any, ...]:
    """Every row of the project's tables and the accounts: a refusal changes none."""
    users = get_user_model().objects.order_by("pk").values_list("pk", "username", "email")
    return db_snapshot(), list(users)


def refused(code: str, action: Callable[[], Any]) -> UserError:
    before = state()
    with pytest.raises(UserError) as e:
        action()
    assert e.value.code == code
    assert state() == before
    return e.value


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def sign_up(client: Client, username: str = "nell", **extra: str) -> Any:
    data = {
        "username": username,
        "email": f"{username}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(reverse("signup"), data)


# Signing up


def test_signing_up_makes_an_account_signs_it_in_and_leads_to_creating_a_club() -> None:
    client = Client()
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:club_new")
    nell = get_user_model().objects.get(username="nell")
    assert nell.email == "nell@example.org"
    assert nell.check_password(PASSWORD)
    assert client.get(reverse("tournaments:my_games")).status_code == 200


def test_signing_up_from_a_claim_link_goes_back_to_it() -> None:
    response = sign_up(Client(), next="/accounts/claim/abc/")
    assert response["Location"] == "/accounts/claim/abc/"


def test_signing_up_never_sends_anyone_to_another_site() -> None:
    response = sign_up(Client(), next="https://evil.example/")
    assert response["Location"] == reverse("tournaments:club_new")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"password2": "Another-Pass-1"}, "two password fields didn"),
        ({"password1": "12345678", "password2": "12345678"}, "entirely numeric"),
        (
            {"password1": "nell-buck", "password2": "nell-buck", "username": "nellbuck"},
            "too similar",
        ),
        ({"email": "not an address"}, "valid email address"),
    ],
)
def test_sign_up_refuses_what_djangos_validators_refuse(extra: dict[str, str], words: str) -> None:
    response = sign_up(Client(), **extra)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not get_user_model().objects.exists()


def test_sign_up_refuses_a_username_taken_in_another_case() -> None:
    UserFactory(username="Nell")
    response = sign_up(Client(), "nell")
    assert response.status_code == 400
    assert "already exists" in response.content.decode()


def test_sign_up_refuses_an_email_another_account_has() -> None:
    UserFactory(username="old-nell", email="NELL@example.org")
    response = sign_up(Client(), "nell")
    assert response.status_code == 400
    assert "An account uses this email already" in response.content.decode()
    assert not get_user_model().objects.filter(username="nell").exists()


def test_the_service_refuses_a_taken_email_with_its_code() -> None:
    UserFactory(username="old-nell", email="nell@example.org")
    refused(
        "email_taken",
        lambda: accounts.account_create(username="nell", email="Nell@example.org", password="x"),
    )


@override_settings(HUCKLEY_SIGNUPS_PER_HOUR=2)
def test_sign_up_closes_for_an_address_after_the_hourly_limit() -> None:
    for name in ("ann", "bob"):
        assert sign_up(Client(), name).status_code == 302
    response = sign_up(Client(), "cat")
    assert response.status_code == 429
    assert "Too many accounts were made from here" in response.content.decode()
    assert not get_user_model().objects.filter(username="cat").exists()
    # Another address may still sign up.
    assert sign_up(Client(REMOTE_ADDR="10.9.8.7"), "cat").status_code == 302


@override_settings(HUCKLEY_SIGNUPS_PER_HOUR=0)
def test_sign_up_can_be_closed_altogether() -> None:
    assert "Sign-up is closed" in Client().get(reverse("signup")).content.decode()
    assert sign_up(Client()).status_code == 429
    assert not get_user_model().objects.exists()


def test_the_sign_in_page_offers_the_password_reset_and_sign_up() -> None:
    page = Client().get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}">Forgot your password?' in page
    assert f'href="{reverse("signup")}"' in page


# Creating a club


def test_a_signed_in_user_without_a_club_is_led_to_create_one_from_the_home_page() -> None:
    page = signed_in(UserFactory()).get("/").content.decode()
    assert reverse("tournaments:club_new") in page
    assert "You direct no club yet" in page


def test_a_director_is_not_asked_to_create_a_club(club: Club, director: Any) -> None:
    page = signed_in(director).get("/").content.decode()
    assert "You direct no club yet" not in page


def test_creating_a_club_makes_its_creator_the_director_and_opens_a_season() -> None:
    nell = UserFactory(username="nell")
    response = signed_in(nell).post(
        reverse("tournaments:club_new"),
        {"name": "  Thursday   Bucks ", "slug": "", "time_zone": "America/Chicago"},
    )
    club = Club.objects.get()
    assert response["Location"] == reverse("tournaments:club_home", args=[club.slug])
    assert (club.name, club.slug, club.time_zone) == (
        "Thursday Bucks",
        "thursday-bucks",
        "America/Chicago",
    )
    assert list(club.directors.all()) == [nell]
    season = Season.objects.get(club=club)
    assert (season.starts_on.month, season.starts_on.day) == (1, 1)
    assert (season.ends_on.month, season.ends_on.day) == (12, 31)


def test_the_new_clubs_page_says_the_next_steps() -> None:
    client = signed_in(UserFactory())
    response = client.post(
        reverse("tournaments:club_new"),
        {"name": "Thursday Bucks", "slug": "thursdays", "time_zone": "UTC"},
        follow=True,
    )
    page = response.content.decode()
    assert "Next steps" in page
    assert reverse("exchange:roster_import", args=["thursdays"]) in page
    assert reverse("tournaments:session_new", args=["thursdays"]) in page
    # The first season is there, so the session form offers it at once.
    form = client.get(reverse("tournaments:session_new", args=["thursdays"])).content.decode()
    assert f">{timezone.localdate().year}</option>" in form


def test_a_typed_web_address_is_kept() -> None:
    club = accounts.club_create(
        name="Thursday Bucks", slug="thu", time_zone="UTC", user=UserFactory()
    )
    assert club.slug == "thu"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": "   "}, "club_name_required"),
        ({"name": "x" * 121}, "club_name_too_long"),
        ({"name": "Bucks\u202e"}, "name_hidden_character"),
        ({"name": "Bucks\nClub"}, "name_hidden_character"),
        ({"slug": "Thu Bucks"}, "club_slug_invalid"),
        ({"name": "♠♥♦♣", "slug": ""}, "club_slug_required"),
        ({"time_zone": "Mars/Olympus"}, "time_zone_unknown"),
        ({"slug": "tuesday"}, "club_slug_taken"),
    ],
)
def test_creating_a_club_refuses_in_plain_words(
    club: Club, fields: dict[str, str], code: str
) -> None:
    kwargs = {"name": "Thursday Bucks", "slug": "", "time_zone": "UTC", **fields}
    nell = UserFactory(username="nell")
    refused(code, lambda: accounts.club_create(user=nell, **kwargs))


def test_the_club_form_shows_the_refusal_beside_the_field(club: Club) -> None:
    response = signed_in(UserFactory()).post(
        reverse("tournaments:club_new"),
        {"name": "Another Tuesday", "slug": "tuesday", "time_zone": "UTC"},
    )
    assert response.status_code == 400
    assert "Another club has the address /clubs/tuesday/" in response.content.decode()


def test_an_anonymous_visitor_is_sent_to_sign_in_before_creating_a_club() -> None:
    response = Client().post(
        reverse("tournaments:club_new"), {"name": "X", "slug": "", "time_zone": "UTC"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Club.objects.exists()


def test_the_service_refuses_an_anonymous_club() -> None:
    refused(
        "sign_in_required",
        lambda: accounts.club_create(name="X", slug="", time_zone="UTC", user=None),
    )


# Claiming a player


@pytest.fixture
def theo(club: Club) -> Player:
    return PlayerFactory(club=club, name="Theo Marsh")


def invite(director: Any, club: Club, player: Player) -> str:
    """The invitation link's path, as the director's page shows it."""
    response = signed_in(director).post(
        reverse("tournaments:club_player_invite", args=[club.slug, player.pk])
    )
    assert response.status_code == 200
    token = response.context["url"].rsplit("/claim/", 1)[1].rstrip("/")
    assert response.context["qr"].startswith("<?xml") or "<svg" in response.context["qr"]
    return reverse("player_claim", args=[token])


def test_a_directors_player_page_offers_an_invitation(
    club: Club, director: Any, theo: Player
) -> None:
    page = signed_in(director).get(reverse("tournaments:club_player", args=[club.slug, theo.pk]))
    assert (
        reverse("tournaments:club_player_invite", args=[club.slug, theo.pk])
        in page.content.decode()
    )


def test_an_invited_player_claims_their_record(club: Club, director: Any, theo: Player) -> None:
    link = invite(director, club, theo)
    person = UserFactory(username="theo")
    client = signed_in(person)
    assert "I am Theo Marsh" in client.get(link).content.decode()
    response = client.post(link)
    assert response["Location"] == reverse("tournaments:my_games")
    theo.refresh_from_db()
    assert theo.user == person
    assert "Not seated in a running session" in client.get(response["Location"]).content.decode()


def test_an_anonymous_visitor_is_asked_to_sign_in_or_up_and_comes_back(
    club: Club, director: Any, theo: Player
) -> None:
    link = invite(director, club, theo)
    page = Client().get(link).content.decode()
    assert f"{reverse('login')}?next={link.replace(':', '%3A')}" in page
    assert f"{reverse('signup')}?next={link.replace(':', '%3A')}" in page
    response = Client().post(link)
    theo.refresh_from_db()
    assert theo.user is None
    assert response.status_code == 200


def test_a_claim_link_works_once(club: Club, director: Any, theo: Player) -> None:
    link = invite(director, club, theo)
    signed_in(UserFactory(username="theo")).post(link)
    response = signed_in(UserFactory(username="impostor")).post(link)
    assert response.status_code == 409
    assert "Theo Marsh is linked to another account already" in response.content.decode()
    theo.refresh_from_db()
    assert theo.user is not None
    assert theo.user.username == "theo"


def test_an_account_claims_one_player_of_a_club(club: Club, director: Any, theo: Player) -> None:
    person = UserFactory(username="theo")
    PlayerFactory(club=club, name="Theodore M.", user=person)
    link = invite(director, club, theo)
    response = signed_in(person).post(link)
    assert response.status_code == 409
    assert "Your account is Theodore M. at Tuesday Club already" in response.content.decode()
    theo.refresh_from_db()
    assert theo.user is None


def test_one_account_may_be_a_player_of_two_clubs(club: Club, director: Any, theo: Player) -> None:
    person = UserFactory(username="theo")
    PlayerFactory(club=ClubFactory(), name="Theo Marsh", user=person)
    signed_in(person).post(invite(director, club, theo))
    theo.refresh_from_db()
    assert theo.user == person


def test_an_expired_link_is_refused_in_plain_words(club: Club, director: Any, theo: Player) -> None:
    link = invite(director, club, theo)
    eight_days_on = time.time() + 8 * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=eight_days_on):
        response = signed_in(UserFactory()).post(link)
    assert response.status_code == 400
    assert "This link has expired" in response.content.decode()
    theo.refresh_from_db()
    assert theo.user is None


def test_a_damaged_link_is_refused_in_plain_words(club: Club, director: Any, theo: Player) -> None:
    link = invite(director, club, theo)
    response = signed_in(UserFactory()).post(link.replace(":", "x", 1))
    assert response.status_code == 400
    assert "This link is not valid" in response.content.decode()


def test_a_link_for_a_player_since_merged_away_is_refused(
    club: Club, director: Any, theo: Player
) -> None:
    link = invite(director, club, theo)
    theo.delete()
    response = signed_in(UserFactory()).get(link)
    assert "no longer in the club" in response.content.decode()


def test_a_linked_player_gets_no_invitation(club: Club, director: Any, theo: Player) -> None:
    theo.user = UserFactory(username="theo")
    theo.save()
    response = signed_in(director).post(
        reverse("tournaments:club_player_invite", args=[club.slug, theo.pk]), follow=True
    )
    assert "linked to an account already; no link needed" in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "another club's director", "a player"])
def test_only_the_clubs_director_may_invite(club: Club, theo: Player, who: str) -> None:
    other = ClubFactory(slug="other")
    stranger = UserFactory(username="stranger")
    other.directors.add(stranger)
    client = {
        "anonymous": Client(),
        "another club's director": signed_in(stranger),
        "a player": signed_in(PlayerFactory(club=club, user=UserFactory()).user),
    }[who]
    response = client.post(reverse("tournaments:club_player_invite", args=[club.slug, theo.pk]))
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        accounts.player_invitation(player_id=theo.pk, user=stranger)


def test_the_claim_service_refuses_an_anonymous_claim(
    club: Club, director: Any, theo: Player
) -> None:
    token = accounts.player_invitation(player_id=theo.pk, user=director).token
    refused("sign_in_required", lambda: accounts.player_claim(token=token, user=None))


def test_my_games_points_an_unlinked_account_to_the_claim_link() -> None:
    page = signed_in(UserFactory()).get(reverse("tournaments:my_games")).content.decode()
    assert "Ask your club's director to link it." not in page
    assert "Invite … to claim this record" in page


def test_a_director_unlinks_a_wrong_claim_after_a_confirmation(
    club: Club, director: Any, theo: Player
) -> None:
    theo.user = UserFactory(username="impostor")
    theo.save()
    client = signed_in(director)
    page = client.get(reverse("tournaments:club_player", args=[club.slug, theo.pk]))
    unlink = reverse("tournaments:club_player_unlink", args=[club.slug, theo.pk])
    assert unlink in page.content.decode()
    confirm = client.get(unlink).content.decode()
    assert "Unlink Theo Marsh from impostor?" in confirm
    theo.refresh_from_db()
    assert theo.user is not None
    client.post(unlink)
    theo.refresh_from_db()
    assert theo.user is None
    # The right person can be invited now.
    signed_in(UserFactory(username="theo")).post(invite(director, club, theo))
    theo.refresh_from_db()
    assert theo.user is not None
    assert theo.user.username == "theo"


def test_unlinking_a_player_linked_to_no_account_is_refused(
    club: Club, director: Any, theo: Player
) -> None:
    refused("player_not_linked", lambda: accounts.player_unlink(player_id=theo.pk, user=director))


def test_another_clubs_director_may_not_unlink(club: Club, theo: Player) -> None:
    theo.user = UserFactory(username="theo")
    theo.save()
    stranger = UserFactory(username="stranger")
    ClubFactory(slug="other").directors.add(stranger)
    unlink = reverse("tournaments:club_player_unlink", args=[club.slug, theo.pk])
    assert signed_in(stranger).post(unlink).status_code == 403
    assert Client().post(unlink)["Location"].startswith(reverse("login"))
    with pytest.raises(PermissionDenied):
        accounts.player_unlink(player_id=theo.pk, user=stranger)
    theo.refresh_from_db()
    assert theo.user is not None
