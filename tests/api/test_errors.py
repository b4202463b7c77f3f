"""Bad input is a 4xx with a JSON error body, never a 500: malformed JSON, the wrong
media type, nesting and sizes no request needs, unknown ids and paths, huge numbers."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game, Round
from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert body["message"]
    return body  # type: ignore[no-any-return]


JSON = "application/json"
NESTED = '{"number": 1, "play": ' + "[" * 40 + "]" * 40 + "}"
HUGE = '{"number": 1, "x": "' + "a" * 3_000_000 + '"}'


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        ("{bad json", JSON, 400, "parse_error"),
        ('{"number": NaN}', JSON, 400, "parse_error"),
        ("[" * 5000 + "]" * 5000, JSON, 400, "parse_error"),
        (NESTED, JSON, 400, "parse_error"),
        # A NUL or a lone surrogate fits no PostgreSQL text or jsonb value.
        ('{"number": 1, "tricks": {}, "note": "a\\u0000b"}', JSON, 400, "parse_error"),
        ('{"number": 1, "dealer": "\\ud800"}', JSON, 400, "parse_error"),
        ('{"number": 1, "\\u0000": 1}', JSON, 400, "parse_error"),
        ("number=1", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        (HUGE, JSON, 413, "payload_too_large"),
    ],
)
def test_a_body_that_is_not_a_round_is_refused(
    top: Game, as_director: APIClient, body: str, content_type: str, status: int, code: str
) -> None:
    before = db_state()
    response = as_director.post(f"/api/games/{top.pk}/rounds/", body, content_type=content_type)
    error(response, status, code)
    assert db_state() == before


@pytest.mark.parametrize(
    "fields",
    [
        {"tricks": {"Ann": 10**40}},
        {"tricks": {"Ann": 1e300}},
        {"out": [None, 1, {"a": []}]},
        {"play": {"hands": {"x": [[[]]]}, "tricks": 5}},
        {"penalties": "all of them"},
        {"trick_winners": [1, 2, 3, 4, 5]},
    ],
)
def test_nonsense_round_fields_are_the_engines_400(
    top: Game, as_director: APIClient, fields: dict[str, Any]
) -> None:
    response = as_director.post(
        f"/api/games/{top.pk}/rounds/", {"number": 1, **fields}, format="json"
    )
    body = error(response, 400, "round_invalid")
    assert body["errors"]
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/99999999999999999999999/",
        "/api/games/9223372036854775808/rounds/",
        "/api/sessions/99999999999999999999/standings/",
        "/api/sittings/0/",
        "/api/tables/18446744073709551616/",
        "/api/seasons/99999999999999999999999/standings/",
        "/api/clubs/nowhere/seasons/",
        "/api/rules/nope/",
        "/api/no-such-endpoint/",
        "/api/sessions/1/nothing/",
        "/api/clubs/a%0Ab/",
        "/api/clubs/%F0%9F%83%8F%0A/sessions/",
    ],
)
def test_unknown_ids_and_paths_are_a_json_404(running: Any, path: str) -> None:
    error(APIClient().get(path), 404, "not_found")


def test_a_huge_round_number_in_the_path_is_a_404(top: Game, as_director: APIClient) -> None:
    url = f"/api/games/{top.pk}/rounds/99999999999999999999/"
    error(as_director.get(url), 404, "not_found")
    error(as_director.put(url, {"tricks": {}}, format="json"), 404, "not_found")
    error(as_director.delete(url), 404, "not_found")


def test_wrong_types_in_a_director_write_name_the_fields(
    running: Any, as_director: APIClient
) -> None:
    response = as_director.post(
        f"/api/sessions/{running.pk}/check-in/",
        {"player_ids": ["x", 10**30, -1], "checked_in": "maybe"},
        format="json",
    )
    body = error(response, 400, "invalid_input")
    assert {e["field"] for e in body["errors"]} == {
        "player_ids.0",
        "player_ids.1",
        "player_ids.2",
        "checked_in",
    }
    error(
        as_director.post(f"/api/sessions/{running.pk}/check-in/", [1], format="json"),
        400,
        "invalid_input",
    )


def test_an_unknown_player_is_the_services_refusal(running: Any, as_director: APIClient) -> None:
    response = as_director.post(
        f"/api/sessions/{running.pk}/withdraw/", {"player_id": 10**15}, format="json"
    )
    error(response, 400, "not_on_roster")


def test_methods_and_credentials(running: Any) -> None:
    response = APIClient().delete("/api/clubs/")
    error(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]
    bad_token = APIClient(HTTP_AUTHORIZATION="Token nope").get("/api/clubs/")
    error(bad_token, 401, "authentication_failed")
    assert bad_token["WWW-Authenticate"] == "Token"
    bad_link = APIClient(HTTP_X_SCORER_TOKEN="x" * 500).get("/api/clubs/")
    error(bad_link, 401, "scorer_link_expired")
    # No token holds a NUL (which PostgreSQL refuses in a query) or a letter outside ASCII.
    for hostile in ("a\x00b", "\xe9t\xe9"):
        error(APIClient(HTTP_X_SCORER_TOKEN=hostile).get("/api/clubs/"), 401, "scorer_link_expired")
    anonymous = APIClient().post(f"/api/sessions/{running.pk}/finish/", {}, format="json")
    error(anonymous, 401, "not_authenticated")
