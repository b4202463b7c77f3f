"""Tables: who sits where, their games, and the director's scorer links."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Data, GameSummarySerializer, Input, SeatingSerializer
from api.serializers.sessions import NUMBER_HELP, RANK_HELP, SittingRefSerializer
from api.views.base import ApiView
from play import services as play_services
from tournaments.models import ScorerLink, Table
from workflow.session import selectors
from workflow.tables import links as table_links

TAGS = ["tables"]


class TableView(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        table = get_object_or_404(api_selectors.table_qs(), pk=kwargs["table_id"])
        session = table.sitting.session
        return Target(club=session.club, session=session, table=table, obj=table)

    @property
    def table(self) -> Table:
        return self.target.obj_as(Table)


class TableDetail(TableView):
    class OutputSerializer(serializers.Serializer[Data]):
        class Meta:
            ref_name = "TableDetail"

        id = serializers.IntegerField()
        rank = serializers.IntegerField(help_text=RANK_HELP)
        number = serializers.IntegerField(help_text=NUMBER_HELP)
        session = serializers.IntegerField()
        sitting = SittingRefSerializer()
        online = serializers.BooleanField(
            help_text="The table plays online, on the players' phones (docs/api.md, Online play)."
        )
        seatings = SeatingSerializer(many=True, help_text="Seated players in seat order.")
        games = GameSummarySerializer(many=True)

    class InputSerializer(Input):
        class Meta:
            ref_name = "TableInput"

        online = serializers.BooleanField(
            required=False,
            help_text="Play this table online (true) or on paper (false): a hybrid night. "
            "Left out: nothing changes. "
            "Only for a table of the current sitting. A table switched to paper while a "
            "round is dealt on its phones sets that round aside: 409 `hand_in_play`, saying "
            "so, unless `confirm` is true.",
        )
        confirm = serializers.BooleanField(
            required=False,
            default=False,
            help_text="Switch to paper even though a round is dealt on the phones (it is "
            "set aside, kept in the directors' log, and played again with real cards).",
        )

    @doc(
        need=Need.VIEW,
        summary="A table: who sits where, and its games",
        description="Also open to the holder of the table's scorer link.",
        responses={200: OutputSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = self.table
        data = {
            "id": table.pk,
            "rank": table.rank,
            "number": table.number,
            "online": table.online,
            "session": table.sitting.session_id,
            "sitting": table.sitting,
            "seatings": selectors.table_companions([table]).get(table.pk, []),
            "games": list(api_selectors.table_games(table)),
        }
        return Response(self.OutputSerializer(data).data)

    @doc(
        need=Need.DIRECT,
        summary="Switch a table online or to paper",
        request=InputSerializer,
        responses={200: OutputSerializer},
        tags=TAGS,
    )
    @idempotent
    def patch(self, request: Request, table_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "online" in data.validated_data:
            play_services.table_online_set(
                table_id=self.table.pk,
                online=data.validated_data["online"],
                user=request.user,
                confirm=data.validated_data["confirm"],
            )
        self.table.refresh_from_db()
        return self.get(request, table_id)


class ScorerLinkSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    token = serializers.CharField(help_text="Send it as the X-Scorer-Token header.")
    url = serializers.URLField(help_text="The link (or QR code) to hand to the scorer.")
    created_at = serializers.DateTimeField()


class RevokedSerializer(serializers.Serializer[Data]):
    revoked = serializers.IntegerField(help_text="How many live links were revoked.")


class TableScorerLinks(TableView):
    def _out(self, link: ScorerLink) -> dict[str, Any]:
        url = self.request.build_absolute_uri(reverse("tournaments:scorer_open", args=[link.token]))
        return dict(
            ScorerLinkSerializer(
                {
                    "id": link.pk,
                    "table_id": link.table_id,
                    "token": link.token,
                    "url": url,
                    "created_at": link.created_at,
                }
            ).data
        )

    @doc(
        need=Need.DIRECT,
        summary="The table's live scorer links",
        responses={200: ScorerLinkSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, table_id: int) -> Response:
        return Response([self._out(link) for link in api_selectors.table_live_links(self.table)])

    @doc(
        need=Need.DIRECT,
        summary="Hand out a new scorer link",
        description="Revokes the table's live links and creates a new one, as the page "
        "does. Only for the tables of the current sitting of a running session.",
        responses={201: ScorerLinkSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        replaced = table_links.scorer_link_replace(table_id=self.table.pk, user=request.user)
        return Response(self._out(replaced.link), status=status.HTTP_201_CREATED)

    @doc(
        need=Need.DIRECT,
        summary="Revoke the table's scorer links",
        description="Whoever holds one can no longer enter results.",
        responses={200: RevokedSerializer},
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, table_id: int) -> Response:
        count = table_links.scorer_link_revoke(table_id=self.table.pk, user=request.user)
        return Response(RevokedSerializer({"revoked": count}).data)
