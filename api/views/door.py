"""Self check-in at the door (docs/api.md, "Self check-in"): anonymous, the door code is
the rule, through the same service as the check-in page (`workflow.front.door.self_check_in`)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input
from api.views.base import ApiView
from tournaments.models import Session
from tournaments.permissions import can_view_session
from workflow.front import door


class SelfCheckInAnswer(serializers.Serializer[None]):
    player_id = serializers.IntegerField()
    name = serializers.CharField(help_text="The name as the roster has it.")
    already_checked_in = serializers.BooleanField(
        help_text="The player was checked in already; nothing changed."
    )
    walk_in = serializers.BooleanField(
        help_text="The name was not on the roster and joined it (walk-ins allowed)."
    )
    message = serializers.CharField(help_text="What to tell the player, in plain words.")


class SessionSelfCheckIn(ApiView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SelfCheckInInput"

        name = serializers.CharField(
            max_length=120, trim_whitespace=False, help_text="The player's name, as typed."
        )
        door_code = serializers.CharField(
            max_length=10,
            trim_whitespace=False,
            help_text="The four digits shown on the projector and the director's page.",
        )

    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(Session.objects.select_related("club"), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @doc(
        need=Need.PUBLIC,
        credentials=False,
        summary="Check yourself in at the door",
        description="While the session is being set up and its self check-in is open, a "
        "player on the roster checks in with the door code. The name matches as find my "
        "table does (case, accents, punctuation and spaces do not count). Refusals: 400 "
        "`wrong_door_code`, `name_required`, `not_on_roster` (walk-ins not allowed), "
        "`which_name` (several players or a near miss: `choices` lists them; send one "
        "back as `name`); 409 `self_check_in_closed`, `session_started`, "
        "`session_finished`, `session_cancelled`; 429 `too_many_attempts` with "
        "Retry-After after too many wrong door codes. A private session whose self "
        "check-in is not open is a 404. Already checked in: 200 with "
        "`already_checked_in`.",
        request=InputSerializer,
        responses={200: SelfCheckInAnswer},
        errors=[400, 401, 403, 404, 409, 429],
        tags=["sessions"],
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        session = self.target.obj_as(Session)
        if not (can_view_session(self.actor, session) or door.door_open(session)):
            raise exceptions.NotFound()
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = door.self_check_in(
            session_id=session.pk,
            name=data.validated_data["name"],
            door_code=data.validated_data["door_code"],
            client=request.META.get("REMOTE_ADDR", ""),
            user=request.user,
        )
        return Response(
            {
                "player_id": done.player_id,
                "name": done.name,
                "already_checked_in": done.already,
                "walk_in": done.walk_in,
                "message": done.message,
            }
        )
