"""The sitting timer (docs/tournament.md, "The sitting timer"): anyone who may see the
session reads it; its directors start, pause, resume, extend and reset it and set the
minutes per sitting, through the same services as the session page (`workflow.session.timer`).
"""

from __future__ import annotations

import math
from typing import Any

from django.utils import timezone
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import idempotent
from api.permissions import Need
from api.schema import doc
from api.serializers import Input
from api.serializers.timer import TimerSerializer
from api.views.sessions import TAGS, SessionView
from tournaments.models import Session
from workflow.session import selectors, timer


def timer_data(session_id: int) -> dict[str, Any]:
    session = Session.objects.get(pk=session_id)
    sitting = selectors.current_sitting(session)
    view = timer.sitting_timer(session, sitting)
    now = timezone.now()
    left = None
    if view is not None:
        left = (
            max(0, math.ceil((view.ends_at - now).total_seconds()))
            if view.ends_at is not None
            else view.left
        )
    return {
        "sitting": sitting.number if sitting else None,
        "sitting_minutes": session.sitting_minutes,
        "state": view.state if view else "off",
        "ends_at": view.ends_at if view else None,
        "seconds_left": left,
        "time_is_up": bool(view and view.over(now)),
        "server_time": now,
    }


class SessionTimer(SessionView):
    class ChangeSerializer(Input):
        class Meta:
            ref_name = "SessionTimerChangeInput"

        action = serializers.ChoiceField(choices=list(timer.ACTIONS))
        minutes = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=timer.MAX_MINUTES,
            help_text="start: the length (default: the minutes per sitting); extend: how "
            f"much to add (default {timer.EXTEND_MINUTES}).",
        )

    class MinutesSerializer(Input):
        class Meta:
            ref_name = "SessionTimerMinutesInput"

        sitting_minutes = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=timer.MAX_MINUTES,
            help_text="Minutes per sitting; null: no timer. New sittings start their timer. "
            "Left out, as any field of a PATCH, it keeps its value.",
        )

    @doc(
        need=Need.VIEW,
        summary="The current sitting's timer",
        responses={200: TimerSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        return Response(TimerSerializer(timer_data(self.session.pk)).data)

    @doc(
        need=Need.DIRECT,
        summary="Start, pause, resume, extend or reset the sitting's timer",
        description="A change the timer's state does not allow is a 409 with a plain message "
        "(`timer_started`, `timer_not_running`, `timer_not_paused`, `timer_not_started`, "
        "`session_not_running`).",
        request=ChangeSerializer,
        responses={200: TimerSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.ChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        timer.sitting_timer_change(
            session_id=self.session.pk,
            action=data.validated_data["action"],
            minutes=data.validated_data.get("minutes"),
            user=request.user,
        )
        return Response(TimerSerializer(timer_data(self.session.pk)).data)

    @doc(
        need=Need.DIRECT,
        summary="Set the minutes per sitting",
        request=MinutesSerializer,
        responses={200: TimerSerializer},
        tags=TAGS,
    )
    @idempotent
    def patch(self, request: Request, session_id: int) -> Response:
        data = self.MinutesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "sitting_minutes" in data.validated_data:
            timer.session_set_sitting_minutes(
                session_id=self.session.pk,
                minutes=data.validated_data["sitting_minutes"],
                user=request.user,
            )
        return Response(TimerSerializer(timer_data(self.session.pk)).data)
