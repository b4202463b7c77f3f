"""Entry fees and prizes (docs/tournament.md, "Entry fees and prizes"; docs/api.md): a
session's fee, pool and payouts, who paid, and the club's payout tables and currency,
through the same services as the pages (`workflow.club.prizes`)."""

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
from api.serializers.prizes import (
    PayoutTableSerializer,
    SessionPrizesSerializer,
    session_prizes_data,
)
from api.serializers.sessions import SessionDetailSerializer, id_field, id_list, session_detail
from api.views.clubs import ClubView
from api.views.sessions import SessionView
from tournaments.models import Club, PayoutTable, Session
from tournaments.permissions import can_direct
from workflow.club import prize_selectors, prizes
from workflow.session import selectors

TAGS = ["prizes"]
AMOUNT = 32


def _text_field(help_text: str) -> serializers.CharField:
    # Passed to the service as typed: it decides, and refuses in plain words.
    return serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=AMOUNT,
        trim_whitespace=False,
        help_text=help_text,
    )


def prizes_data(session: Session, directs: bool) -> dict[str, Any]:
    session = Session.objects.select_related("club", "payout_table").get(pk=session.pk)
    rows = selectors.session_standings(session)
    found = prize_selectors.session_prizes(session, rows)
    names = {r.player_id: (r.position, r.name) for r in rows}
    return session_prizes_data(session, found, names, directs)


class SessionPrizes(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionPrizesInput"

        entry_fee = _text_field('The entry fee ("5", "5.50"); empty or null: a free session.')
        pool_share = _text_field(
            'The share of the fees collected in the pool, in % ("80"); empty: 100 %.'
        )
        pool_fixed = _text_field("A fixed pool instead of a share of the fees.")
        payout_table = id_field(
            required=False,
            allow_null=True,
            help_text="One of the club's payout tables; null: the club's default.",
        )

    @doc(
        need=Need.VIEW,
        summary="A session's entry fee, prize pool and payouts",
        description="The payouts follow the standings: final once the session is finished.",
        responses={200: SessionPrizesSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        directs = can_direct(self.actor, self.session.club_id)
        return Response(SessionPrizesSerializer(prizes_data(self.session, directs)).data)

    @doc(
        need=Need.DIRECT,
        summary="Set a session's entry fee and prize pool rule",
        description="Every field is set as sent (left out: empty). Refusals: "
        "`bad_amount`, `bad_percent`, `pool_share_and_fixed`, `fees_on_free_session` "
        "(a share of the fees on a free session), `unknown_payout_table` (400); "
        "`players_paid` (making a session with paid players free), `session_cancelled` (409).",
        request=InputSerializer,
        responses={200: SessionPrizesSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        prizes.session_prizes_set(
            session_id=self.session.pk,
            entry_fee=d.get("entry_fee"),
            pool_share=d.get("pool_share"),
            pool_fixed=d.get("pool_fixed"),
            payout_table_id=d.get("payout_table"),
            user=request.user,
        )
        return Response(SessionPrizesSerializer(prizes_data(self.session, True)).data)


class SessionPaid(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionPaidInput"

        player_ids = id_list(
            required=False,
            allow_null=True,
            help_text="Players on the roster; null or left out: the whole roster.",
        )
        paid = serializers.BooleanField(default=True, help_text="false: not paid.")

    @doc(
        need=Need.DIRECT,
        summary="Record who paid the entry fee",
        description="At any time, before, during or after the session. All or nothing. "
        "Refused on a free session: 400 `fees_on_free_session`.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        prizes.session_mark_paid(
            session_id=self.session.pk,
            player_ids=data.validated_data.get("player_ids"),
            paid=data.validated_data["paid"],
            user=request.user,
        )
        return Response(session_detail(self.session, self.actor))


class TableInput(Input):
    class Meta:
        ref_name = "PayoutTableInput"

    name = serializers.CharField(max_length=200, trim_whitespace=False)
    places = serializers.ListField(
        child=serializers.CharField(max_length=AMOUNT, trim_whitespace=False),
        max_length=100,
        help_text='Each place\'s percentage, best first ("50", "30", "20"): adding up to 100, '
        "none more than the place above.",
    )
    big_loser = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=AMOUNT,
        help_text='An amount ("10") or a percentage of the pool ("5%"); empty: none.',
    )
    most_hooks = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=AMOUNT, help_text="The same."
    )
    is_default = serializers.BooleanField(default=False)


TABLE_REFUSALS = (
    "Refusals: `bad_payout_table` (the places or a prize, in plain words), "
    "`name_required`, `name_too_long`, `hidden_characters` (400); `payout_table_name_taken`, "
    "`default_payout_table` (409)."
)


class ClubPayoutTables(ClubView):
    @doc(
        need=Need.DIRECT,
        summary="A club's payout tables",
        responses={200: PayoutTableSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        return Response(many_data(PayoutTableSerializer, club.payout_tables.all()))

    @doc(
        need=Need.DIRECT,
        summary="Add a payout table",
        description="The club's first table is its default. " + TABLE_REFUSALS,
        request=TableInput,
        responses={201: PayoutTableSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        data = TableInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = prizes.payout_table_create(
            club_id=self.target.obj_as(Club).pk, user=request.user, **data.validated_data
        )
        return Response(PayoutTableSerializer(table).data, status=status.HTTP_201_CREATED)


class ClubPayoutTable(ClubView):
    def load_target(self, **kwargs: Any) -> Target:
        table = get_object_or_404(
            PayoutTable.objects.select_related("club"),
            pk=kwargs["payout_table_id"],
            club__slug=kwargs["slug"],
        )
        return Target(club=table.club, obj=table)

    @doc(
        need=Need.DIRECT,
        summary="A payout table",
        responses={200: PayoutTableSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str, payout_table_id: int) -> Response:
        return Response(PayoutTableSerializer(self.target.obj_as(PayoutTable)).data)

    @doc(
        need=Need.DIRECT,
        summary="Change a payout table",
        description="The sessions using it pay by the new split, finished ones too. "
        + TABLE_REFUSALS,
        request=TableInput,
        responses={200: PayoutTableSerializer},
        tags=TAGS,
    )
    @idempotent
    def put(self, request: Request, slug: str, payout_table_id: int) -> Response:
        data = TableInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = prizes.payout_table_update(
            table_id=self.target.obj_as(PayoutTable).pk, user=request.user, **data.validated_data
        )
        return Response(PayoutTableSerializer(table).data)

    @doc(
        need=Need.DIRECT,
        summary="Delete a payout table",
        description="Refused while a session names it: 409 `payout_table_in_use`.",
        responses={204: None},
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, slug: str, payout_table_id: int) -> Response:
        prizes.payout_table_delete(table_id=self.target.obj_as(PayoutTable).pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubCurrency(ClubView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "ClubCurrencyInput"

        currency = serializers.CharField(
            allow_blank=True,
            max_length=200,
            trim_whitespace=False,
            help_text="A symbol (£) or a code (EUR), at most 8 characters; empty: none.",
        )
        money_unit = serializers.CharField(
            default="cent", max_length=20, help_text="`cent` or `whole`: what prizes round to."
        )

    class OutputSerializer(serializers.Serializer[Club]):
        class Meta:
            ref_name = "ClubCurrency"

        currency = serializers.CharField()
        money_unit = serializers.CharField()

    @doc(
        need=Need.PUBLIC,
        summary="A club's currency and the unit its prizes round to",
        responses={200: OutputSerializer},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(self.OutputSerializer(self.club()).data)

    @doc(
        need=Need.DIRECT,
        summary="Set a club's currency and the unit its prizes round to",
        description="Refusals: `currency_too_long`, `unknown_money_unit`, "
        "`hidden_characters` (400).",
        request=InputSerializer,
        responses={200: OutputSerializer},
        tags=TAGS,
    )
    @idempotent
    def put(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = prizes.club_set_money(
            club_id=self.target.obj_as(Club).pk, user=request.user, **data.validated_data
        )
        return Response(self.OutputSerializer(club).data)
