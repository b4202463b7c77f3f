"""A club's seating wishes (docs/tournament.md, "Seating wishes"): the pairs of players it
keeps from starting at the same table. For the club's directors only: the pairs are the
club's private business. The writes are `workflow.club.seating_wishes`."""

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
from tournaments.models import Club, KeepApart
from workflow.club import seating_wishes

TAGS = ["clubs"]


class KeepApartSerializer(serializers.Serializer[Data]):
    class Meta:
        ref_name = "KeepApart"

    id = serializers.IntegerField(help_text="The pair's id, for `DELETE .../keep-apart/{id}/`.")
    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        help_text="The two player ids, the smaller first.",
    )
    names = serializers.ListField(
        child=serializers.CharField(), min_length=2, max_length=2, help_text="Their names."
    )
    created_at = serializers.DateTimeField()


def _pair(pair: KeepApart) -> dict[str, Any]:
    return dict(
        KeepApartSerializer(
            {
                "id": pair.pk,
                "players": [pair.first_id, pair.second_id],
                "names": [pair.first.name, pair.second.name],
                "created_at": pair.created_at,
            }
        ).data
    )


class ClubKeepApart(ClubView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "KeepApartInput"

        # Passed to the service as given: it says in words what is wrong with it.
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
            help_text="Two player ids of the club.",
        )

    @doc(
        need=Need.DIRECT,
        summary="The pairs a club keeps apart",
        description="Pairs of players who should not start a session at the same table "
        "(spouses, siblings), by the first player's name. The random split and every "
        "seeding honour them when possible (docs/format.md, Keep apart).",
        responses={200: KeepApartSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        return Response([_pair(p) for p in seating_wishes.keep_apart_pairs(club)])

    @doc(
        need=Need.DIRECT,
        summary="Keep two players apart",
        description="Refused (400) with `keep_apart_two_players` for anything but two "
        "players, `keep_apart_same_player` for a player paired with themself, "
        "`not_club_player` for a player of another club, `keep_apart_exists` for a pair "
        "the club keeps apart already.",
        request=InputSerializer,
        responses={201: KeepApartSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = seating_wishes.keep_apart_add(
            club_id=self.target.obj_as(Club).pk,
            players=data.validated_data["players"],
            user=request.user,
        )
        return Response(_pair(pair), status=status.HTTP_201_CREATED)


class ClubKeepApartPair(ClubView):
    @doc(
        need=Need.DIRECT,
        summary="Stop keeping a pair apart",
        description="404 `no_such_pair` for a pair that is not the club's.",
        responses={204: None},
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, slug: str, pair_id: int) -> Response:
        seating_wishes.keep_apart_remove(
            club_id=self.target.obj_as(Club).pk, pair_id=pair_id, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
