"""The faults of issue 13 in what a client sends, each with the test that failed before
its fix: a forged X-Forwarded-For (or X-Forwarded-Proto), a round carrying junk, names
hiding characters, and the schema's sitting size (docs/operations.md, Faults). The
faults of the services behind Huckley are in test_faults.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.settings import api_settings

from common.errors import UserError
from huckley.proxies import parse_networks, resolve
from scoring.models import Game, Round, RoundChange
from tests.api.conftest import first_round, token_client
from tests.factories import UserFactory
from tournaments.models import Player, Session
from workflow.session import services

# 4. X-Forwarded-For --------------------------------------------------------------------

NO_PROXY = parse_networks([])
LOCAL_PROXY = parse_networks(["10.0.0.1", "fd00::/8"])


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored() -> None:
    assert resolve("203.0.113.5", "198.51.100.1", NO_PROXY) == "203.0.113.5"


def test_x_forwarded_for_from_an_untrusted_address_is_ignored() -> None:
    assert resolve("203.0.113.5", "198.51.100.1", LOCAL_PROXY) == "203.0.113.5"


def test_behind_the_trusted_proxy_the_address_it_saw_is_the_client() -> None:
    # The client sent a forged header; the proxy appended the address it really saw.
    assert resolve("10.0.0.1", "198.51.100.1, 203.0.113.5", LOCAL_PROXY) == "203.0.113.5"


def test_a_chain_of_trusted_proxies_is_walked_back_to_the_first_untrusted_hop() -> None:
    assert resolve("10.0.0.1", "203.0.113.5, fd00::7", LOCAL_PROXY) == "203.0.113.5"


def test_a_malformed_forwarded_entry_leaves_the_proxy_as_the_client() -> None:
    assert resolve("10.0.0.1", "junk", LOCAL_PROXY) == "10.0.0.1"


@pytest.fixture
def production_https(settings: Any) -> Any:
    """The HTTPS settings of HUCKLEY_PRODUCTION: plain HTTP is redirected, and a request
    the proxy says came over HTTPS (X-Forwarded-Proto) is not."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    return settings


@pytest.mark.parametrize("proxies", [[], ["10.0.0.1"]], ids=["no proxy", "another proxy"])
def test_x_forwarded_proto_from_a_client_that_is_not_a_trusted_proxy_is_ignored(
    production_https: Any, proxies: list[str]
) -> None:
    production_https.HUCKLEY_TRUSTED_PROXIES = proxies
    response = Client(REMOTE_ADDR="203.0.113.5").get("/api/rules/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301, "plain HTTP, whatever the client says"
    assert response["Location"].startswith("https://")


def test_x_forwarded_proto_from_the_trusted_proxy_is_believed(production_https: Any) -> None:
    production_https.HUCKLEY_TRUSTED_PROXIES = ["10.0.0.1"]
    response = Client(REMOTE_ADDR="10.0.0.1").get(
        "/api/rules/", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="203.0.113.5"
    )
    assert response.status_code == 200


def token_rate() -> int:
    rate = api_settings.DEFAULT_THROTTLE_RATES["token"]
    return int(rate.split("/")[0])


@pytest.fixture
def signer(settings: Any) -> str:
    """A user whose right password the token endpoint accepts (so that only the rate
    limit, not the sign-in lock, can refuse), with a fast hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    UserFactory(username="hal")
    return "hal"


def token_call(client: Client, username: str, forwarded: str) -> int:
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": "pw-for-tests-only"},
        content_type="application/json",
        HTTP_X_FORWARDED_FOR=forwarded,
    ).status_code


@pytest.fixture
def throttle_keys() -> Iterator[list[str]]:
    """Addresses used by a test, whose throttle counts are dropped afterwards (with Redis
    they would outlive the test)."""
    used: list[str] = []
    yield used
    for address in used:
        cache.delete(f"throttle_token_{address}")


@pytest.mark.django_db
def test_a_new_x_forwarded_for_on_every_call_does_not_lift_the_token_rate_limit(
    signer: str, throttle_keys: list[str]
) -> None:
    client = Client(REMOTE_ADDR="192.0.2.77")
    throttle_keys.extend(["192.0.2.77"] + [f"198.51.100.{i}" for i in range(token_rate() + 1)])
    answers = [token_call(client, signer, f"198.51.100.{i}") for i in range(token_rate() + 1)]
    assert answers[:-1] == [200] * token_rate()
    assert answers[-1] == 429


@override_settings(HUCKLEY_TRUSTED_PROXIES=["10.0.0.1"])
@pytest.mark.django_db
def test_behind_the_trusted_proxy_each_client_has_its_own_token_rate_limit(
    signer: str, throttle_keys: list[str]
) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    throttle_keys.extend(["10.0.0.1", "203.0.113.10", "203.0.113.11"])

    def call(client_address: str, forged: int) -> int:
        # What a client forged, then what the proxy appended.
        return token_call(client, signer, f"198.51.100.{forged}, {client_address}")

    assert [call("203.0.113.10", i) for i in range(token_rate())] == [200] * token_rate()
    assert call("203.0.113.10", 99) == 429
    assert call("203.0.113.11", 99) == 200  # another player behind the same proxy


@pytest.mark.django_db
def test_a_new_x_forwarded_for_on_every_sign_in_does_not_lift_the_lock() -> None:
    UserFactory(username="fay")
    client = Client()
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit):
        client.post(
            reverse("login"),
            {"username": "fay", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        )
    response = client.post(
        reverse("login"),
        {"username": "fay", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="198.51.100.200",
    )
    assert response.status_code == 429


@override_settings(HUCKLEY_TRUSTED_PROXIES=["10.0.0.1"])
@pytest.mark.django_db
def test_behind_the_trusted_proxy_a_locked_out_client_does_not_lock_out_another() -> None:
    UserFactory(username="gus")
    client = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"),
            {"username": "gus", "password": "wrong"},
            HTTP_X_FORWARDED_FOR="203.0.113.20",
        )
    locked = client.post(
        reverse("login"),
        {"username": "gus", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="203.0.113.20",
    )
    assert locked.status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.1").post(
        reverse("login"),
        {"username": "gus", "password": "pw-for-tests-only"},
        HTTP_X_FORWARDED_FOR="203.0.113.21",
    )
    assert other.status_code == 302


# 5. Round fields -----------------------------------------------------------------------


@pytest.fixture
def game(make_session: Callable[..., Session]) -> Game:
    session = make_session(8)
    return Game.objects.get(table__sitting__session=session, table__rank=1)


@pytest.mark.django_db
def test_a_round_with_an_unknown_megabyte_field_is_refused_and_stores_nothing(
    game: Game, director: Any
) -> None:
    body = first_round(game) | {"notes": "x" * 1_000_000}
    response = token_client(director).post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_round_field"
    assert "notes" in response.json()["message"]
    assert not Round.objects.filter(game=game).exists()
    assert not RoundChange.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_round_of_only_known_fields_is_still_stored(game: Game, director: Any) -> None:
    response = token_client(director).post(
        f"/api/games/{game.pk}/rounds/", first_round(game), format="json"
    )
    assert response.status_code == 201, response.json()
    assert Round.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_round_whose_known_fields_are_huge_is_refused_before_the_engine_reads_it(
    game: Game, director: Any
) -> None:
    body = first_round(game)
    body["penalties"] = [{"player": body["dealer"], "kind": "x" * 100}] * 500
    response = token_client(director).post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "round_too_large"
    assert not Round.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_scorer_sending_an_unknown_field_is_refused_too(game: Game, director: Any) -> None:
    from tests.api.conftest import scorer_client

    client = scorer_client(game.table_id, director)
    body = first_round(game) | {"tricks_total": 5}
    response = client.post(f"/api/games/{game.pk}/rounds/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_round_field"
    assert not Round.objects.filter(game=game).exists()


# 6. Names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["\u202eRLO", "Ann\u200b", "\u200b", "Bell\u0007", "Zoë\u2066", "\u200cAnn", "Ann \u200d"],
)
@pytest.mark.django_db
def test_a_name_with_a_control_bidi_or_zero_width_character_is_refused(
    club: Any, name: str
) -> None:
    with pytest.raises(UserError) as refused:
        services.players_get_or_create(club=club, names=["Ann Able", name])
    assert refused.value.code == "name_hidden_character"
    assert "Player names can't contain the invisible character U+" in refused.value.message
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_names_in_any_script_with_accents_and_punctuation_are_accepted(club: Any) -> None:
    names = [
        "Zoë O'Brien-Smith",
        "Łukasz Żak",
        "Ἀλέξανδρος",
        "山田 太郎",
        "Nguyễn Văn A",
        "نیلو\u200cفر",  # Persian spells with a zero-width non-joiner between letters
    ]
    assert [p.name for p in services.players_get_or_create(club=club, names=names)] == names


@pytest.mark.django_db
def test_the_api_refuses_a_new_session_with_a_hidden_character_in_a_name(
    club: Any, season: Any, director: Any
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "season": season.pk,
            "name": "Club night",
            "date": str(season.starts_on),
            "rules_id": "huckley-buck",
            "games_per_sitting": 2,
            "new_names": ["Ann Able", "Bo\u202eb", "Cy Cole", "Di Dee"],
        },
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "name_hidden_character"
    assert not Session.objects.exists()
    assert not Player.objects.filter(club=club).exists()


# 7. The schema states what the code enforces --------------------------------------------


@pytest.mark.django_db
def test_the_schema_says_a_sitting_is_two_or_three_games_wherever_it_is_set() -> None:
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    inputs = {
        name: component["properties"]["games_per_sitting"]
        for name, component in schema["components"]["schemas"].items()
        if "games_per_sitting" in component.get("properties", {}) and name.endswith("Request")
    }
    assert len(inputs) >= 2, "creating a session and changing its settings both take it"
    for name, field in inputs.items():
        assert (field.get("minimum"), field.get("maximum")) == (2, 3), name


@pytest.mark.parametrize("games", [1, 4, 0])
@pytest.mark.django_db
def test_a_session_of_other_than_two_or_three_games_a_sitting_is_refused(
    club: Any, season: Any, director: Any, games: int
) -> None:
    response = token_client(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "season": season.pk,
            "name": "Club night",
            "date": str(season.starts_on),
            "games_per_sitting": games,
            "new_names": ["Ann Able", "Bo Bell", "Cy Cole", "Di Dee"],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "games_per_sitting"
    assert not Session.objects.exists()
