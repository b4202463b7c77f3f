"""The API's one exception handler: every refusal is JSON with a stable code.

Body: `{"code", "message", "field"?, "errors"?}` plus, for some conflicts, the current
state (`game`, `entries`). `UserError` from the services keeps its code, message, field
and the engine's errors; DRF's own refusals (authentication, permission, not found,
validation, parsing) get the same shape. Anything else is a bug: it propagates, is logged
and becomes a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response

from common.errors import UserError


class StateConflict(Exception):
    """A service refusal answered together with the current state, so that the client
    can see what is stored without another request (a round number already taken, a
    double-entry mismatch)."""

    def __init__(self, error: UserError, **state: object) -> None:
        super().__init__(error.message)
        self.error = error
        self.state = state


class IdempotencyKeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"
    default_detail = gettext_lazy(
        "This Idempotency-Key was used for a different request body; use a new key for a "
        "new request."
    )


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"
    default_detail = gettext_lazy("The request body is too large.")


class ErrorItem(TypedDict):
    """One entry of `errors` for an invalid request (see `ErrorItemSerializer`)."""

    code: str
    message: str
    field: str | None


def _flatten(detail: object, path: list[str], out: list[ErrorItem]) -> None:
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            _flatten(value, [*path, str(key)] if key != "non_field_errors" else path, out)
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            nested = isinstance(value, (Mapping, list))
            _flatten(value, [*path, str(i)] if nested else path, out)
    else:
        out.append(
            {
                "code": str(getattr(detail, "code", None) or "invalid"),
                "message": str(detail),
                "field": ".".join(path) or None,
            }
        )


def validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    errors: list[ErrorItem] = []
    _flatten(exc.detail, [], errors)
    if not errors:
        errors.append(
            {"code": "invalid", "message": gettext("The request is not valid."), "field": None}
        )
    message = "; ".join(
        f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in errors
    )
    body: dict[str, Any] = {"code": "invalid_input", "message": message, "errors": errors}
    if errors[0]["field"]:
        body["field"] = errors[0]["field"]
    return body


def _api_body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        return validation_body(exc)
    detail = exc.detail
    if isinstance(detail, (list, dict)):
        # Only ValidationError carries structured details in DRF; stay safe anyway.
        return validation_body(exceptions.ValidationError(detail))
    return {"code": str(detail.code or exc.default_code), "message": str(detail)}


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    if isinstance(exc, StateConflict):
        return Response({**exc.error.as_dict(), **exc.state}, status=exc.error.status)
    if isinstance(exc, UserError):
        # A refusal that says how long to wait (too many wrong door codes, workflow.front.door).
        retry = getattr(exc, "retry_after", None)
        wait_for = {"Retry-After": str(int(retry))} if retry else None
        return Response(exc.as_dict(), status=exc.status, headers=wait_for)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    if not isinstance(exc, exceptions.APIException):
        return None
    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(int(wait))
    return Response(_api_body(exc), status=exc.status_code, headers=headers)
