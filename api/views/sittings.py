"""A session's sittings: the movement after a sitting (preview, confirm, undo), the
rebalancing of table sizes, and the sittings themselves, each through the same service
or selector as the director's pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input, many_data
from api.serializers.sessions import (
    MovementSerializer,
    MoveSerializer,
    ProposalSerializer,
    RebalancedSerializer,
    SittingDetailSerializer,
    SittingSerializer,
    movement_data,
    proposal_data,
    sitting_detail,
    sitting_fields,
)
from api.views.base import ApiView
from api.views.sessions import SessionView
from serving.pages import public_page
from tournaments import pagecache
from tournaments.models import Sitting
from workflow.session import movements, selectors

TAGS = ["sessions"]


class SessionMovement(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionMovementInput"

        sitting = serializers.IntegerField(
            min_value=1, max_value=32767, help_text="The number of the sitting to move on from."
        )

    @doc(
        need=Need.DIRECT,
        summary="Preview the movement after the current sitting",
        description="Each table's order over the sitting, the tie-break that decided each "
        "place, and the move it earns. Refused (409 `sitting_unfinished`) while a table has "
        "games to play, and (409 `session_not_started`) before the start.",
        responses={200: MovementSerializer},
        errors=[409],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        sitting = selectors.require_current_sitting(self.session)
        return Response(movement_data(movements.movement_preview(sitting=sitting)))

    @doc(
        need=Need.DIRECT,
        summary="Confirm the movement",
        description="Records every placing, draws the new seats and starts the next "
        "sitting, which is the answer. A movement confirmed already is a 409.",
        request=InputSerializer,
        responses={201: SittingDetailSerializer},
        errors=[409],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sitting = movements.sitting_move_players(
            session_id=self.session.pk,
            sitting_number=data.validated_data["sitting"],
            user=request.user,
        )
        return Response(sitting_detail(sitting), status=status.HTTP_201_CREATED)


class SessionMovementUndo(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="Undo the last movement",
        description="While no round of the new sitting is entered. Answers with the "
        "previous sitting, open again.",
        responses={200: SittingDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        sitting = movements.sitting_undo_movement(session_id=self.session.pk, user=request.user)
        # Read again: the undo deleted the newer sitting the session's cache may still hold.
        return Response(sitting_detail(api_selectors.sitting_qs().get(pk=sitting.pk)))


class SessionRebalance(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionRebalanceInput"

        moves = MoveSerializer(
            many=True, help_text="The moves of the proposal, exactly as shown (may be empty)."
        )

    @doc(
        need=Need.DIRECT,
        summary="Propose moves that fix table sizes",
        description="After arrivals and withdrawals: the fewest moves that bring every "
        "table of the current sitting within the sizes the rules allow. Empty when every "
        "table is fine. Refused (409) before the start, or when the players left cannot be "
        "seated at all (`cannot_split`).",
        responses={200: ProposalSerializer},
        errors=[409],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        proposal = movements.rebalance_proposal(session=self.session)
        return Response(proposal_data(self.session, proposal))

    @doc(
        need=Need.DIRECT,
        summary="Apply the proposed moves",
        description="Send the moves of the proposal as they were shown: if the tables "
        "changed since, the proposal no longer matches and the answer is a 409 "
        "(proposal_changed); look again.",
        request=InputSerializer,
        responses={200: RebalancedSerializer},
        errors=[409],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = [
            (m["player_id"], m["from_rank"], m["to_rank"]) for m in data.validated_data["moves"]
        ]
        moved = movements.session_rebalance(
            session_id=self.session.pk, expected=expected, user=request.user
        )
        sitting = selectors.require_current_sitting(self.session)
        return Response({"moved": moved, "sitting": sitting_detail(sitting)})


class SessionSittings(SessionView):
    @doc(
        need=Need.VIEW,
        summary="A session's sittings",
        responses={200: SittingSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        sittings = [sitting_fields(s) for s in api_selectors.session_sittings(self.session)]
        return Response(many_data(SittingSerializer, sittings))


# A sitting never moves to another session: once read, each process keeps the answer.
# Only with a shared cache (PostgreSQL and Redis): SQLite may give a deleted sitting's id
# to a new one.
_SITTING_SESSION: dict[int, int] = {}


def _session_of_sitting(kwargs: dict[str, Any]) -> int | None:
    sitting_id = int(kwargs["sitting_id"])
    known = _SITTING_SESSION.get(sitting_id)
    if known is None:
        known = api_selectors.sitting_session_id(sitting_id)
        if known is not None and pagecache.shared():
            if len(_SITTING_SESSION) > 100_000:
                _SITTING_SESSION.clear()
            _SITTING_SESSION[sitting_id] = known
    return known


class SittingDetail(ApiView):
    @classmethod
    def as_view(cls, **initkwargs: Any) -> Callable[..., Any]:  # type: ignore[override]
        # The public's copy is built once per change of the session, then served as
        # stored bytes (tournaments/pagecache.py).
        view = super().as_view(**initkwargs)
        return public_page("api-sitting", session_of=_session_of_sitting)(view)

    def load_target(self, **kwargs: Any) -> Target:
        sitting = get_object_or_404(api_selectors.sitting_qs(), pk=kwargs["sitting_id"])
        return Target(club=sitting.session.club, session=sitting.session, obj=sitting)

    @doc(
        need=Need.VIEW,
        summary="A sitting: its tables and who sits where",
        responses={200: SittingDetailSerializer},
        tags=TAGS,
        parameters=[OpenApiParameter("sitting_id", int, OpenApiParameter.PATH)],
    )
    def get(self, request: Request, sitting_id: int) -> Response:
        return Response(sitting_detail(self.target.obj_as(Sitting)))
