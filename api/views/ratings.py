"""GET /api/clubs/{slug}/ratings/?rules=<rules id>: the club's ratings, best first."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

import engine
from api.permissions import Need
from api.schema import doc
from api.serializers import Data, many_data
from api.views.clubs import ClubView
from common.errors import UserError
from ratings import selectors
from tournaments import format as fmt
from tournaments.models import Club


class RatingSerializer(serializers.Serializer[Data]):
    class Meta:
        ref_name = "ClubRating"

    player_id = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField(help_text="The estimated skill (openskill Weng-Lin Plackett-Luce).")
    sigma = serializers.FloatField(help_text="The uncertainty of mu.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the rating shown and sorted by.")
    games = serializers.IntegerField(help_text="Finished games rated under these rules.")


def rated_rules() -> list[str]:
    """The rules ids a club can be rated under: the engine's games the tournament plays."""
    return sorted(set(engine.RULES) & set(fmt.FORMATS))


def _rules(value: str | None) -> str:
    if not value:
        raise UserError(
            "rules_required",
            gettext(
                "Say which rules' ratings you want: ?rules=<rules id>, e.g. ?rules=huckley-buck."
            ),
            field="rules",
        )
    if value not in rated_rules():
        known = ", ".join(rated_rules())
        raise UserError(
            "unknown_rules",
            gettext("“%(value)s” is not a rules id; use one of: %(known)s.")
            % {"value": value, "known": known},
            field="rules",
        )
    return value


class ClubRatings(ClubView):
    @doc(
        need=Need.PUBLIC,
        summary="A club's player ratings under one rules id",
        description="Every player who finished a game under the rules, best first (highest "
        "`ordinal`, then name). Each finished game updates its players once with openskill's "
        "Weng-Lin Plackett-Luce model; see docs/tournament.md, Ratings. An unknown or "
        "missing `rules` is a 400 (`unknown_rules`, `rules_required`).",
        parameters=[
            OpenApiParameter(
                "rules",
                str,
                OpenApiParameter.QUERY,
                required=True,
                enum=rated_rules(),
                description="A rules id, as in GET /api/rules/ (e.g. `huckley-buck`).",
            )
        ],
        responses={200: RatingSerializer(many=True)},
        errors=[400, 404],
        tags=["clubs"],
    )
    def get(self, request: Request, slug: str) -> Response:
        club: Club = get_object_or_404(Club, slug=slug)
        rules_id = _rules(request.query_params.get("rules"))
        rows = [
            {
                "player_id": r.player_id,
                "name": r.player.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "games": r.games,
            }
            for r in selectors.club_ratings(club.pk, rules_id)
        ]
        return Response(many_data(RatingSerializer, rows))
