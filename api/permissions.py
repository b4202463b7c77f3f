"""The API's one permission class. Each view declares what each method needs (`needs`)
and which club, session and table a request is about (`load_target`); this class asks
`tournaments.permissions`, the module the pages ask too, and nothing else decides.

- A caller with no credentials at all gets 401 on anything that needs a director or a
  scorer, before anything is looked up: the answer is the same whether the object
  exists or not, so it tells nothing about private sessions.
- A caller with credentials gets 404 for a session they may not see, as if it did not
  exist (as the pages do), and 403 when they may see it but not do this.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from django.db.models import Model
from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.models import Club, Session, Table
from tournaments.permissions import Actor, can_direct, can_score, can_view_session

M = TypeVar("M", bound=Model)


class Need(StrEnum):
    PUBLIC = "public"
    VIEW = "view"
    DIRECT = "direct"
    SCORE = "score"


# What each need means, for the OpenAPI descriptions and docs/api.md.
NEED_TEXT = {
    Need.PUBLIC: "Anyone, no credentials needed.",
    Need.VIEW: "Anyone who may see the session: everyone for a public session; for a "
    "private one, the club's directors, players on its roster (signed in with an account "
    "linked to their player) and holders of a live scorer link of one of its tables. "
    "Others get 404, as if it did not exist.",
    Need.DIRECT: "A director of the club (or a superuser), signed in or with an API token. "
    "Others get 401 without credentials (whether the object exists or not), 403 with them; "
    "a private session stays 404 for those with credentials who may not see it.",
    Need.SCORE: "A director of the club, or the holder of a live scorer link of this table "
    "(header X-Scorer-Token). Others get 401 without credentials (whether the object "
    "exists or not), 403 with them; a private session stays 404 for those with credentials "
    "who may not see it.",
}

REFUSALS = {
    Need.DIRECT: ("not_director", "Only a director of this club may do this."),
    Need.SCORE: (
        "not_scorer",
        "Only a director or the holder of this table's scorer link may enter results.",
    ),
}


@dataclass(frozen=True)
class Target:
    """What a request is about: always a club; a session and a table when there is one."""

    club: Club | int
    session: Session | None = None
    table: Table | None = None
    # The object the view loaded (a club, session, sitting, table or game); the view reads
    # it back with `obj_as`, which checks it is of the kind the view loaded.
    obj: Model | None = None

    def obj_as(self, kind: type[M]) -> M:
        if not isinstance(self.obj, kind):
            raise TypeError(f"The view loaded {self.obj!r}, not a {kind.__name__}.")
        return self.obj


class GuardedView(Protocol):
    """What this module and `api.idempotency` need of a view; `api.views.base.ApiView` is
    one. A protocol rather than an import, so that the views depend on this module and
    not the other way round."""

    @property
    def actor(self) -> Actor: ...

    @property
    def target(self) -> Target: ...

    def need(self, method: str) -> Need: ...


def may_see(actor: Actor, target: Target) -> bool:
    if target.session is None:
        return True
    if can_view_session(actor, target.session):
        return True
    return target.table is not None and can_score(actor, target.table)


class ActorPermission(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        api_view: GuardedView = view
        need = api_view.need(request.method or "GET")
        if need is Need.PUBLIC:
            return True
        actor = api_view.actor
        if need is not Need.VIEW and not actor.is_authenticated and not actor.scorer_tokens:
            raise exceptions.NotAuthenticated()
        target = api_view.target
        if not may_see(actor, target):
            raise exceptions.NotFound()
        if need is Need.VIEW:
            return True
        if need is Need.DIRECT:
            allowed = can_direct(actor, target.club)
        else:
            assert target.table is not None, "a SCORE view must load a table"
            allowed = can_score(actor, target.table)
        if allowed:
            return True
        code, message = REFUSALS[need]
        raise exceptions.PermissionDenied(message, code=code)
