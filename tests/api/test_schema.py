"""The OpenAPI schema is valid, complete (every operation documents its permission, its
errors and, for writes, the Idempotency-Key), and the docs page needs no CDN and no
inline code."""

from __future__ import annotations

import io
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from api.idempotency import idempotent
from api.permissions import Need
from api.views.base import ApiView

METHODS = ("get", "post", "put", "patch", "delete")


def test_the_schema_validates_without_warnings(tmp_path: Any) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    assert schema["openapi"].startswith("3.")
    assert {"tokenAuth", "cookieAuth", "scorerLink"} <= set(schema["components"]["securitySchemes"])


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    out = io.StringIO()
    call_command("spectacular", stdout=out)
    return yaml.safe_load(out.getvalue())  # type: ignore[no-any-return]


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method in METHODS
    ]


def test_every_operation_documents_its_permission_and_errors(schema: dict[str, Any]) -> None:
    for path, method, op in operations(schema):
        where = f"{method.upper()} {path}"
        assert op.get("summary"), where
        if path != "/api/auth/token/":
            assert "**Permission:**" in op["description"], where
        errors = {code for code in op["responses"] if code.startswith(("4", "5"))}
        assert errors, where
        for code in errors:
            content = op["responses"][code]["content"]["application/json"]["schema"]
            assert content["$ref"].split("/")[-1] in ERROR_BODIES, where
        if method != "get" and path != "/api/auth/token/":
            names = {p["name"] for p in op.get("parameters", [])}
            assert "Idempotency-Key" in names, where
            if path.startswith(SEAT_TOKEN_PATHS):
                # The seat token in the path is the only credential: nothing is read that
                # could be refused with a 401 or 403; an unknown token is a 404.
                assert {"400", "404", "409", "422"} <= errors, where
            else:
                assert {"400", "401", "403", "404", "422"} <= errors, where


# The error bodies: the one shape, and those that add the state to reload (a round
# entry's conflict with the game; an online move's conflict with the seat's view).
ERROR_BODIES = {"Error", "RoundConflict", "PlayMoveConflict"}
SEAT_TOKEN_PATHS = ("/api/play/",)


def test_the_error_body_is_described(schema: dict[str, Any]) -> None:
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "message"]
    assert set(error["properties"]) == {"code", "message", "field", "errors"}


def api_views() -> list[type[ApiView]]:
    found: list[type[ApiView]] = []

    def walk(patterns: list[Any]) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            elif isinstance(p, URLPattern):
                cls = getattr(p.callback, "cls", None)
                if cls is not None and issubclass(cls, ApiView):
                    found.append(cls)

    walk(get_resolver().url_patterns)
    return found


def test_every_view_method_declares_what_it_needs_and_writes_are_idempotent() -> None:
    views = api_views()
    assert len(views) > 20
    for view in views:
        for method in METHODS:
            handler = getattr(view, method, None)
            if handler is None:
                continue
            assert isinstance(getattr(handler, "need", None), Need), (view, method)
            if method != "get" and view.__name__ != "ObtainToken":
                assert getattr(handler, "idempotent", False), (view, method)
    assert idempotent  # the decorator the writes carry


@pytest.mark.django_db
def test_the_docs_page_loads_swagger_ui_from_this_site() -> None:
    page = APIClient().get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "https://" not in html
    assert "http://" not in html
    assert "<style" not in html
    assert "<script>" not in html  # every script is a file: the CSP allows no inline code
    script = APIClient().get("/api/docs/?script=")
    assert script.status_code == 200
    assert "/api/schema/" in script.content.decode()
    assert APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").status_code == 200
