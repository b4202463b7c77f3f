"""Calls for the director (docs/tournament.md, "Calling the director"): a table calls,
the director lists the session's calls and marks one handled (or takes that back). The
writes are `workflow.front.calls`."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input, many_data
from api.views.base import ApiView
from api.views.sessions import SessionView
from api.views.tables import TableView
from tournaments.models import DirectorCall
from workflow.front import calls

TAGS = ["calls"]


class CallSerializer(serializers.Serializer[calls.CallRow]):
    class Meta:
        ref_name = "DirectorCall"

    id = serializers.IntegerField(source="call.pk")
    session = serializers.IntegerField(source="call.session_id")
    table = serializers.IntegerField(source="call.table_id")
    table_rank = serializers.IntegerField(help_text="The table's number in its sitting.")
    sitting = serializers.IntegerField(source="sitting_number")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Who sits at the table now, by seat."
    )
    reason = serializers.ChoiceField(source="call.reason", choices=DirectorCall.Reason.choices)
    text = serializers.CharField(source="call.text")
    called_by = serializers.CharField(
        source="who",
        help_text="How the call came: the table's scorer link, its table card, or the "
        "director's account. Nothing else about who called is kept.",
    )
    created_at = serializers.DateTimeField(source="call.created_at")
    open = serializers.BooleanField(source="call.is_open")
    handled_at = serializers.DateTimeField(source="call.handled_at", allow_null=True)
    handled_by = serializers.CharField(
        source="call.handled_by.username", allow_null=True, default=None
    )


def _row(call: DirectorCall) -> dict[str, Any]:
    return dict(CallSerializer(calls.call_row(call.pk)).data)


class TableCalls(TableView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "DirectorCallInput"

        reason = serializers.ChoiceField(
            choices=DirectorCall.Reason.choices, help_text="Why the director is needed."
        )
        text = serializers.CharField(
            required=False,
            allow_blank=True,
            trim_whitespace=False,
            help_text=f"A short text (at most {DirectorCall.TEXT_MAX} characters); needed "
            "when the reason is other.",
        )

    @doc(
        need=Need.SCORE,
        summary="Call the director to this table",
        description="The call shows at once on the director's page. Refused with 409 "
        "`session_not_running` when the session is not running, `sitting_moved_on` when the "
        "table's sitting has moved on, and `director_already_called` while the table's "
        "previous call is still open (that call is kept); 400 `call_text_required` (reason "
        "other without a text), `call_text_too_long`, `name_hidden_character`, and "
        "`invalid_input` for a `reason` not among the five. A scorer link (or a table "
        "card's link) stops opening the table when its sitting moves on or the session "
        "ends: then the answer is 401 `scorer_link_expired`.",
        request=InputSerializer,
        responses={201: CallSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        call = calls.director_call_make(
            table_id=self.table.pk,
            reason=data.validated_data["reason"],
            text=data.validated_data.get("text", ""),
            user=self.actor,
        )
        return Response(_row(call), status=status.HTTP_201_CREATED)


class SessionCalls(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="A session's calls for the director",
        description="Open calls first (the longest waiting first), then the handled ones "
        "(the latest first). Calls are kept with the session.",
        responses={200: CallSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        return Response(many_data(CallSerializer, calls.session_calls(self.session)))


class CallHandled(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        call = get_object_or_404(
            DirectorCall.objects.select_related("session__club"), pk=kwargs["call_id"]
        )
        return Target(club=call.session.club, session=call.session, obj=call)

    @property
    def call(self) -> DirectorCall:
        return self.target.obj_as(DirectorCall)

    @doc(
        need=Need.DIRECT,
        summary="Mark a call handled",
        description="Marking a handled call again changes nothing.",
        responses={200: CallSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, call_id: int) -> Response:
        call = calls.director_call_handle(call_id=self.call.pk, user=request.user)
        return Response(_row(call))

    @doc(
        need=Need.DIRECT,
        summary="Open a handled call again",
        description='Takes back "handled". Refused with 409 `call_reopen_newer_open` when '
        "the table has called again since.",
        responses={200: CallSerializer},
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, call_id: int) -> Response:
        call = calls.director_call_reopen(call_id=self.call.pk, user=request.user)
        return Response(_row(call))
