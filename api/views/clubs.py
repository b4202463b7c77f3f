"""Clubs, their seasons and players, and the season ladder."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Data, Input, many_data
from api.views.base import ApiView
from tournaments.models import BigLoserAward, Club, Player, Season
from tournaments.permissions import can_direct
from workflow.club import prize_selectors
from workflow.club import selectors as club_selectors
from workflow.club.language import club_language_set

TAGS = ["clubs"]


class ClubSerializer(serializers.Serializer[Club | Data]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    big_loser_criterion = serializers.ChoiceField(
        choices=["hooks", "points"],
        help_text="How a Big Loser is suggested: most hooks then fewest points, or fewest points.",
    )


class BigLoserSerializer(serializers.Serializer[BigLoserAward]):
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    note = serializers.CharField()


class SeasonSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    big_loser = BigLoserSerializer(allow_null=True, help_text="The season's Big Loser award.")


def _seasons(club: Club) -> list[dict[str, Any]]:
    seasons = list(api_selectors.club_seasons(club))
    awards = api_selectors.season_awards([s.pk for s in seasons])
    return [
        {
            "id": s.pk,
            "name": s.name,
            "starts_on": s.starts_on,
            "ends_on": s.ends_on,
            "big_loser": awards.get(s.pk),
        }
        for s in seasons
    ]


class ClubList(ApiView):
    @doc(
        need=Need.PUBLIC,
        summary="List clubs",
        responses={200: ClubSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(many_data(ClubSerializer, api_selectors.clubs()))


class ClubView(ApiView):
    def club(self) -> Club:
        return get_object_or_404(Club, slug=self.kwargs["slug"])

    def load_target(self, **kwargs: Any) -> Target:
        club = self.club()
        return Target(club=club, obj=club)


@extend_schema_field({"type": "string", "enum": [code for code, _name in settings.LANGUAGES]})
class LanguageField(serializers.CharField):
    """A language's code, passed as sent to the service, which refuses one not shipped
    (400 `language_unknown`); the schema lists the shipped codes."""


class ClubDetail(ClubView):
    class OutputSerializer(ClubSerializer):
        class Meta:
            ref_name = "ClubDetail"

        language = LanguageField(
            help_text="The language of the club's pages, with its dates and numbers: one "
            "of en-us, en-gb, en-ie, es (docs/tournament.md, Languages).",
        )
        seasons = SeasonSerializer(many=True, help_text="Newest first.")
        may_direct = serializers.BooleanField(help_text="Whether the caller directs this club.")

    class InputSerializer(Input):
        class Meta:
            ref_name = "ClubSettingsInput"

        language = LanguageField(
            required=False,
            trim_whitespace=False,
            help_text="One of the shipped codes: en-us, en-gb, en-ie, es. Another is a 400 "
            "`language_unknown`.",
        )

    @doc(
        need=Need.PUBLIC,
        summary="A club, with its seasons",
        responses={200: OutputSerializer},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(self.detail(self.club()))

    def detail(self, club: Club) -> Any:
        data = {
            "slug": club.slug,
            "name": club.name,
            "big_loser_criterion": club.big_loser_criterion,
            "language": club.language,
            "seasons": _seasons(club),
            "may_direct": can_direct(self.actor, club),
        }
        return self.OutputSerializer(data).data

    @doc(
        need=Need.DIRECT,
        summary="Change a club's settings",
        description="Fields left out keep their value. `language`: the club's pages are "
        "served in it, with its dates and numbers, unless a visitor chose their own.",
        request=InputSerializer,
        responses={200: OutputSerializer},
        tags=TAGS,
    )
    @idempotent
    def patch(self, request: Request, slug: str) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = self.target.obj_as(Club)
        if "language" in data.validated_data:
            club = club_language_set(
                club_id=club.pk, language=data.validated_data["language"], user=request.user
            )
        return Response(self.detail(club))


class ClubSeasons(ClubView):
    @doc(
        need=Need.PUBLIC,
        summary="A club's seasons",
        description="Newest first, each with its Big Loser award if one was made.",
        responses={200: SeasonSerializer(many=True)},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(many_data(SeasonSerializer, _seasons(self.club())))


class ClubPlayers(ClubView):
    class OutputSerializer(serializers.Serializer[Player]):
        class Meta:
            ref_name = "ClubPlayers"

        id = serializers.IntegerField()
        name = serializers.CharField()

    @doc(
        need=Need.DIRECT,
        summary="A club's players",
        description="Every player the club knows, by name: the ids to put on a session's roster.",
        responses={200: OutputSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        return Response(many_data(self.OutputSerializer, api_selectors.club_players(club)))


class SeasonStandings(ApiView):
    class OutputSerializer(serializers.Serializer[Data]):
        class Meta:
            ref_name = "SeasonStandings"

        position = serializers.IntegerField()
        player_id = serializers.IntegerField(source="player.pk")
        name = serializers.CharField(source="player.name")
        sessions = serializers.IntegerField()
        games_won = serializers.IntegerField()
        points = serializers.IntegerField()
        hooks = serializers.IntegerField()
        average_finish = serializers.FloatField()
        prizes = serializers.CharField(
            help_text="The player's prizes over the season's finished sessions, an exact "
            "decimal string (docs/api.md, Entry fees and prizes)."
        )

    @doc(
        need=Need.PUBLIC,
        summary="A season's standings",
        description="Over the season's finished sessions, by the club's ladder scoring "
        "(by default best average finishing position first, then games won, then points; "
        "docs/tournament.md, Ladder scoring). Served from a cache that finishing a session "
        "refreshes in the background.",
        responses={200: OutputSerializer(many=True)},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
        rows = club_selectors.season_standings_cached(season.pk)
        won = prize_selectors.season_prizes(season.pk)
        zero = prize_selectors.money_unit(season.club) * 0
        data = [
            {
                "position": i,
                "player": r.player,
                "sessions": r.sessions,
                "games_won": r.games_won,
                "points": r.points,
                "hooks": r.hooks,
                "average_finish": r.average_finish,
                "prizes": str(won.get(r.player.pk, zero)),
            }
            for i, r in enumerate(rows, start=1)
        ]
        return Response(many_data(self.OutputSerializer, data))
