"""Table cards (docs/tournament.md, "Table cards"): a session's permanent table links and
the club's laminated cards, for the director: list them, replace one, rotate the club's.
The writes are `workflow.tables.links`, the reads `workflow.tables.card_selectors`."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.idempotency import idempotent
from api.permissions import Need
from api.schema import doc
from api.serializers import Data, Input
from api.views.clubs import ClubView
from api.views.sessions import SessionView
from tournaments.models import Club
from workflow.tables import card_selectors
from workflow.tables import links as table_links
from workflow.tables.card_selectors import CardLink

TAGS = ["table cards"]


class CardSerializer(serializers.Serializer[Data]):
    class Meta:
        ref_name = "TableCard"

    number = serializers.IntegerField(help_text="The table number the card opens.")
    token = serializers.CharField()
    url = serializers.URLField(help_text="The short link printed on the card (and its QR code).")
    created_at = serializers.DateTimeField()


def _cards(request: Request, cards: list[CardLink]) -> list[dict[str, Any]]:
    return [
        dict(
            CardSerializer(
                {
                    "number": c.number,
                    "token": c.token,
                    "url": request.build_absolute_uri(c.url),
                    "created_at": c.created_at,
                }
            ).data
        )
        for c in cards
    ]


class SessionTableCards(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="A session's table cards",
        description="One live card per table number, made when the session starts (and "
        "when a rebalance adds a table). A card opens the game now played at its table "
        "number for the whole session.",
        responses={200: CardSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        return Response(_cards(request, card_selectors.table_cards(self.session)))


class SessionTableCardReplace(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="Replace one table's card",
        description="The old card stops opening the table at once (its page says it was "
        "replaced); the answer is the new card. Refused (404 `no_such_card`) for a number "
        "with no card, and (409 `session_over`) once the session is finished or cancelled.",
        request=None,
        responses={201: CardSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int, number: int) -> Response:
        table_links.table_card_replace(session_id=self.session.pk, number=number, user=request.user)
        card = next(c for c in card_selectors.table_cards(self.session) if c.number == number)
        return Response(_cards(request, [card])[0], status=status.HTTP_201_CREATED)


class ClubTableCards(ClubView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "ClubCardsInput"

        count = serializers.IntegerField(
            min_value=1,
            max_value=table_links.CLUB_CARDS_MAX,
            help_text="How many cards: tables 1 to count.",
        )

    @doc(
        need=Need.DIRECT,
        summary="The club's table cards",
        description="Laminated cards that open their table number in whichever session of "
        "the club is running.",
        responses={200: CardSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(_cards(request, card_selectors.club_table_cards(self.target.obj_as(Club))))

    @doc(
        need=Need.DIRECT,
        summary="Issue (rotate) the club's table cards",
        description="Replaces every live card of the club with new ones for tables 1 to "
        "`count`, in one step: the old cards stop working and say they were replaced.",
        request=InputSerializer,
        responses={201: CardSerializer(many=True)},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = self.target.obj_as(Club)
        table_links.club_cards_issue(
            club_id=club.pk, count=data.validated_data["count"], user=request.user
        )
        cards = card_selectors.club_table_cards(club)
        return Response(_cards(request, cards), status=status.HTTP_201_CREATED)
