"""The audit log, what the directors did: a club's and a session's, for their directors
only (docs/api.md). The club's page reads the same selector
(`workflow.club.audit_selectors.club_audit`)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input
from api.serializers.audit import AuditPageSerializer
from api.serializers.sessions import id_field
from api.views.base import ApiView
from tournaments.models import AuditEntry, Club, Session
from workflow.club.audit_selectors import AuditFilter, club_audit

TAGS = ["audit"]
DESCRIPTION = (
    "Every write a director made (docs/tournament.md, What the directors did), newest "
    "first, `limit` at a time from `offset`. Filters: `action` (a slug such as "
    "`movement.undo`, or a subject such as `movement` for all of its actions), `who` (a "
    "username, or `system`), `since` and `until` (days, in the club's time zone, both "
    "included; an `until` before `since` keeps nothing). A filter given with no value "
    "(`?who=`) is a 400, as is any value the parameter's schema does not allow."
)


class AuditFilterSerializer(Input):
    class Meta:
        ref_name = "AuditFilter"

    action = serializers.CharField(max_length=60, required=False)
    who = serializers.CharField(max_length=150, required=False)
    since = serializers.DateField(required=False)
    until = serializers.DateField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=10**9, default=0)


class ClubAuditFilterSerializer(AuditFilterSerializer):
    class Meta:
        ref_name = "ClubAuditFilter"

    session = id_field(required=False, help_text="Only this session's entries.")


def _page(
    request: Request,
    club: Club,
    parameters: type[AuditFilterSerializer],
    session: Session | None = None,
) -> Response:
    # A plain dict, not the QueryDict: an empty value must be refused, not left out.
    params = parameters(data=request.query_params.dict())
    params.is_valid(raise_exception=True)
    f = params.validated_data
    filters = AuditFilter(
        session_id=session.pk if session is not None else f.get("session"),
        action=f.get("action", ""),
        who=f.get("who", ""),
        since=f.get("since"),
        until=f.get("until"),
    )
    entries = club_audit(club, filters)
    page = entries[f["offset"] : f["offset"] + f["limit"]]
    return Response(
        AuditPageSerializer({"count": entries.count(), "results": [_row(e) for e in page]}).data
    )


def _row(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "at": entry.at,
        "who": entry.who_label,
        "action": entry.action,
        "summary": entry.summary,
        "details": entry.details,
        "session_id": entry.session_id,
        "session_name": entry.session.name if entry.session is not None else None,
    }


class ClubAudit(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        club = get_object_or_404(Club, slug=kwargs["slug"])
        return Target(club=club, obj=club)

    @doc(
        need=Need.DIRECT,
        summary="What a club's directors did",
        description=DESCRIPTION + " `session` keeps one session's entries.",
        parameters=[ClubAuditFilterSerializer],
        responses={200: AuditPageSerializer},
        errors=[400],
        tags=TAGS,
        operation_id="club_audit",
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        return _page(request, club, ClubAuditFilterSerializer)


class SessionAudit(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @doc(
        need=Need.DIRECT,
        summary="What the directors did in a session",
        description=DESCRIPTION,
        parameters=[AuditFilterSerializer],
        responses={200: AuditPageSerializer},
        errors=[400],
        tags=TAGS,
        operation_id="session_audit",
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = self.target.obj_as(Session)
        return _page(request, session.club, AuditFilterSerializer, session)
