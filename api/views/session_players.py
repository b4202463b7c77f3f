"""A session's players: added (late arrivals too), kept at one physical table, checked
in, withdrawn; each through the same service as the session's pages (`workflow`)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import idempotent
from api.permissions import Need
from api.schema import doc
from api.serializers import Input
from api.serializers.sessions import (
    MAX_ID,
    MAX_LIST,
    SessionDetailSerializer,
    id_field,
    id_list,
    session_detail,
)
from api.views.sessions import TAGS, SessionView
from workflow.club import seating_wishes
from workflow.session import services, withdrawals

FIXED_TABLE_BODY = {
    "type": "object",
    "required": ["player_id", "fixed_table"],
    "properties": {
        "player_id": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
        "fixed_table": {
            "type": "integer",
            "nullable": True,
            "minimum": 1,
            "maximum": seating_wishes.FIXED_TABLE_MAX,
            "description": "The physical table this player stays at all night: each sitting "
            "it hosts the rank they play at. null: they move like everyone.",
        },
    },
}


class SessionPlayers(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionPlayersInput"

        player_ids = id_list(default=list, help_text="Club players to add.")
        new_names = serializers.ListField(
            child=serializers.CharField(allow_blank=True, trim_whitespace=False),
            max_length=MAX_LIST,
            default=list,
            help_text="Names typed in, matched to club players as on creation.",
        )
        new_anyway = serializers.BooleanField(
            default=False,
            help_text="The new names are new players even where one is a club player's name "
            "written with other accents or punctuation (refused otherwise with "
            '`player_name_looks_like`, "Did you mean …?").',
        )

    @doc(
        need=Need.DIRECT,
        summary="Add players (or a late arrival)",
        description="Before the start they wait to be checked in; once the session runs "
        "they are late arrivals, checked in and seated at the bottom table.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.session_add_players(
            session_id=self.session.pk,
            player_ids=data.validated_data["player_ids"],
            new_names=data.validated_data["new_names"],
            new_anyway=data.validated_data["new_anyway"],
            user=request.user,
        )
        return Response(session_detail(self.session, self.actor))

    class FixedTableSerializer(Input):
        class Meta:
            ref_name = "SessionPlayerFixedTable"

        player_id = id_field()
        fixed_table = serializers.IntegerField(
            allow_null=True,
            min_value=-32768,
            max_value=32767,
            help_text="The physical table (1-99) this player stays at all night: each sitting "
            "that table hosts the rank they play at. null: they move like everyone.",
        )

    @doc(
        need=Need.DIRECT,
        summary="Keep a player at one physical table (or let them move)",
        description="For a player who cannot move (mobility): from the start, or from the "
        "next sitting once the session runs, their `fixed_table` hosts the rank they play "
        "at, and the tables' `number`s follow (docs/format.md, Tables that do not move). "
        "Refused: 400 `not_on_roster`, 400 `fixed_table_invalid` (not 1-99), 409 "
        "`session_over`.",
        # Both fields are needed: a PATCH body documented from the serializer would show
        # them optional (drf-spectacular documents every PATCH as partial).
        request={"application/json": FIXED_TABLE_BODY},
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def patch(self, request: Request, session_id: int) -> Response:
        data = self.FixedTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seating_wishes.session_set_fixed_table(
            session_id=self.session.pk,
            player_id=data.validated_data["player_id"],
            table=data.validated_data["fixed_table"],
            user=request.user,
        )
        return Response(session_detail(self.session, self.actor))


class SessionCheckIn(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionCheckInInput"

        player_ids = id_list(min_length=1, help_text="Players on the roster.")
        checked_in = serializers.BooleanField(
            default=True, help_text="false takes a check-in back."
        )
        paid = serializers.BooleanField(
            required=False,
            allow_null=True,
            help_text="Whether they paid the entry fee (docs/api.md, Entry fees and prizes); "
            "left out or null: unchanged. Refused on a free session: 400 "
            "`fees_on_free_session`.",
        )

    @doc(
        need=Need.DIRECT,
        summary="Check players in (or take a check-in back)",
        description="All or nothing: if one player cannot be checked in, none is.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.session_check_in(
            session_id=self.session.pk,
            player_ids=data.validated_data["player_ids"],
            checked_in=data.validated_data["checked_in"],
            paid=data.validated_data.get("paid"),
            user=request.user,
        )
        return Response(session_detail(self.session, self.actor))


class SessionWithdraw(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionWithdrawInput"

        player_id = id_field()
        substitute = serializers.CharField(
            required=False,
            allow_blank=True,
            max_length=200,
            help_text="Who takes the seat: needed when the player is in the middle of a game "
            "(a club player's name, or a new name). The substitute plays on with the seat's "
            "score and that game counts for them.",
        )

    @doc(
        need=Need.DIRECT,
        summary="Withdraw a player",
        description="Their finished games still count. Between games their seat is left "
        "empty (or taken by `substitute`); in the middle of a game a `substitute` must take "
        "it, else 400 `withdrawal_mid_game`. Before the start, this takes them off the roster.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        withdrawals.session_withdraw(
            session_id=self.session.pk,
            player_id=data.validated_data["player_id"],
            user=request.user,
            substitute=data.validated_data.get("substitute", ""),
        )
        return Response(session_detail(self.session, self.actor))
