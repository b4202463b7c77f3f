"""OpenAPI for the API: the scorer-link security scheme, and `doc`, the one decorator
every view method carries. `doc` declares what the method needs (the permission class
reads it back, so the documented permission is the enforced one), and documents its
summary, parameters, bodies and every error it can answer with."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from api.permissions import NEED_TEXT, Need
from api.serializers import ErrorSerializer, Input

F = TypeVar("F", bound=Callable[..., Any])


# drf-spectacular's extension base registers subclasses in an untyped `__init_subclass__`.
class ScorerLinkScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.authentication.ScorerLinkAuthentication"
    name = "scorerLink"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "X-Scorer-Token",
            "description": "The token of a table's scorer link (the last part of the link "
            "the director hands out). Opens that table's rounds while the link is live.",
        }


ERROR_TEXT = {
    400: "Refused: invalid input (`invalid_input`, one entry per field in `errors`) or a "
    "rule of the tournament or the game (`code` says which; a refused round is "
    "`round_invalid` with the engine's errors).",
    401: "No credentials where some are needed (`not_authenticated`), or credentials that "
    "are not valid (`authentication_failed`, `scorer_link_expired`).",
    403: "The caller is known but may not do this (`not_director`, `not_scorer`).",
    404: "No such object, or a private session the caller may not see (`not_found`).",
    409: "Refused by the state of the session or the game, although the request itself is "
    "well formed: the session has started, is finished or cancelled, the sitting is not "
    "over, a player is mid-game, the round is already entered (`code` says which). Reload, "
    "and retry once the state allows it.",
    413: "The request body is too large (`payload_too_large`).",
    415: "The body is not JSON (`unsupported_media_type`).",
    422: "The Idempotency-Key was used before for another call: another method, path, query "
    "or body (`idempotency_key_reused`).",
    429: "Too many requests (`throttled`); see Retry-After.",
}

# The credentials that can satisfy each need, the usual one first; `{}` means none are
# needed. Rounds are mostly entered with a table's scorer link. One valid credential is
# enough: a session cookie that names no session, or an Authorization header in another
# scheme than `Token`, is not read, so it does not refuse the request (a browser keeps
# old cookies; a proxy may add its own Authorization).
AUTH: dict[Need, list[str | None]] = {
    Need.PUBLIC: ["tokenAuth", "scorerLink", "cookieAuth", None],
    Need.VIEW: ["tokenAuth", "scorerLink", "cookieAuth", None],
    Need.DIRECT: ["tokenAuth", "cookieAuth"],
    Need.SCORE: ["scorerLink", "tokenAuth", "cookieAuth"],
}


class ApiSchema(AutoSchema):
    """Security per operation from the method's declared need (the schemes themselves
    are registered by drf-spectacular from the view's authentication classes)."""

    def get_auth(self) -> list[dict[str, list[Any]]]:
        known = {name for requirement in super().get_auth() for name in requirement}
        need_of = getattr(self.view, "need", None)
        if need_of is None:
            return [{name: []} for name in sorted(known)]
        allowed = AUTH[need_of(self.method)]
        return [{name: []} if name else {} for name in allowed if name is None or name in known]


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]([ -~]*[!-~])?$"},
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID, say). A retry with the same key by the same "
    "caller to the same method and path returns the first answer (with the header "
    "Idempotent-Replayed: true) and changes nothing; the same key with another body is "
    "a 422. Keys are kept for 24 hours.",
)


def doc(
    *,
    need: Need,
    summary: str,
    # A status code, or a status code and a media type (`(200, "text/csv")`).
    responses: dict[int | tuple[int, str], Any],
    request: Any = None,
    errors: Iterable[int] = (),
    parameters: Sequence[OpenApiParameter | type[Input]] = (),
    description: str = "",
    tags: Sequence[str] = (),
    operation_id: str | None = None,
    credentials: bool = True,
) -> Callable[[F], F]:
    """Declare and document a view method. `need` is enforced by `ActorPermission`."""

    def decorate(method: F) -> F:
        write = getattr(method, "idempotent", False)
        # Any request may carry credentials that are not valid (401), unless the view
        # reads none (`credentials=False`).
        codes = set(errors) | ({401} if credentials else set())
        if need is not Need.PUBLIC:
            codes.add(404)
        if need in (Need.DIRECT, Need.SCORE):
            codes.add(403)
        params = list(parameters)
        if write:
            # Every write is refused when the state does not allow it (409).
            codes |= {400, 409, 422}
            params.append(IDEMPOTENCY_KEY)
            codes |= {413, 415}
        documented: dict[int | tuple[int, str], Any] = dict(responses)
        for code in sorted(codes):
            documented.setdefault(code, OpenApiResponse(ErrorSerializer, ERROR_TEXT[code]))
        text = f"{description}\n\n**Permission:** {NEED_TEXT[need]}".strip()
        # `ApiView.need` reads it back; a function takes any attribute at run time.
        method.need = need  # type: ignore[attr-defined]
        return extend_schema(
            summary=summary,
            description=text,
            request=request,
            responses=documented,
            parameters=params,
            tags=list(tags) or None,
            operation_id=operation_id,
        )(method)

    return decorate
