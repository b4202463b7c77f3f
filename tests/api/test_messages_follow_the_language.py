"""A refusal's words follow the reader's language; its code stays English and stable
(docs/api.md, Errors): a service's refusal under Spanish, and the API's answer to
Accept-Language: es."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from common.errors import UserError
from exchange.club_upload import club_file_size_check
from tests.factories import ClubFactory
from tests.languages import catalogues  # noqa: F401 (a fixture)
from workflow.front.door import TooManyAttempts

pytestmark = pytest.mark.usefixtures("catalogues")


def test_a_service_refusal_is_in_spanish_with_its_code_unchanged() -> None:
    with translation.override("es"), pytest.raises(UserError) as refused:
        club_file_size_check(10**9)
    assert refused.value.code == "club_file_too_large"
    assert refused.value.message.startswith("El archivo tiene 1,000,000,000 bytes;")


def test_a_plural_refusal_is_in_spanish() -> None:
    with translation.override("es"):
        assert TooManyAttempts(120).message.startswith(
            "Demasiados códigos de la puerta erróneos. Espera 2 minutos"
        )
        assert "Espera 1 minuto y" in TooManyAttempts(30).message


def test_the_same_refusal_in_english_is_unchanged() -> None:
    with translation.override("en"), pytest.raises(UserError) as refused:
        club_file_size_check(10**9)
    assert refused.value.message.startswith("The file is 1,000,000,000 bytes;")


@pytest.mark.django_db
def test_an_api_refusal_follows_accept_language() -> None:
    ClubFactory(slug="rated")
    response = APIClient().get("/api/clubs/rated/ratings/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rules_required"
    assert body["message"] == (
        "Di de qué reglas quieres las valoraciones: ?rules=<id de reglas>, "
        "p. ej. ?rules=huckley-buck."
    )
    english = APIClient().get("/api/clubs/rated/ratings/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["message"].startswith("Say which rules' ratings you want")


@pytest.mark.django_db
def test_an_unknown_endpoint_answers_in_spanish() -> None:
    response = APIClient().get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "No existe ese punto de la API."}
