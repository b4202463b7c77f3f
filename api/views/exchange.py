"""The API's import and export endpoints (docs/api.md, Import and export)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Data, Input
from api.throttles import AnonymousSheetThrottle
from api.views.base import ApiView
from exchange import export, services
from exchange.clubfile import club_export
from exchange.roster import MAX_BYTES
from tournaments.models import Club, Season, Session
from tournaments.permissions import can_direct

TAGS = ["import and export"]


def _csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# drf-spectacular takes (status, media type) keys for a body that is not JSON.
CSV_200: dict[Any, Any] = {
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, "CSV (UTF-8), with a header line.")
}


class GameExportSerializer(serializers.Serializer[Data]):
    session_id = serializers.IntegerField()
    sitting_id = serializers.IntegerField()
    sitting = serializers.IntegerField(help_text="The sitting's number.")
    table_id = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's rank (1 is the top table).")
    game_id = serializers.IntegerField()
    game = serializers.IntegerField(help_text="The game's number at its table.")
    status = serializers.CharField()
    record = serializers.DictField(
        help_text="The game record, exactly in the engine's format (`buck-game/1`, "
        "docs/game-record.md): `python -m engine check` reads it as it is. Its rounds "
        "listed in `cards_hidden` come without their cards."
    )
    cards_hidden = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="In a duplicate sitting, for a caller who does not direct the club: the "
        "rounds whose cards (upcard, play, discard) are left out, a deal another table may "
        "still play (docs/api.md, Duplicate deals). Empty otherwise.",
    )


class SessionExportSerializer(serializers.Serializer[Data]):
    class SessionPart(serializers.Serializer[Data]):
        id = serializers.IntegerField()
        club = serializers.CharField()
        season_id = serializers.IntegerField()
        season = serializers.CharField()
        name = serializers.CharField()
        date = serializers.DateField()
        rules_id = serializers.CharField()
        status = serializers.CharField()

    format = serializers.CharField(help_text="`huckley-session/1`.")
    session = SessionPart()
    games = GameExportSerializer(many=True, help_text="By sitting, table rank, game number.")


class SessionExportView(ApiView):
    throttle_classes = [AnonymousSheetThrottle]

    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)


class SessionExportJson(SessionExportView):
    @doc(
        need=Need.VIEW,
        summary="A session's games as JSON",
        description="Every game of the session with its session, sitting, table and game "
        "ids, and its record in the engine's game record format.",
        responses={200: SessionExportSerializer},
        errors=[429],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = self.target.obj_as(Session)
        directing = can_direct(self.actor, session.club_id)
        return Response(export.session_export(session, directing=directing))


class SessionExportCsv(SessionExportView):
    @doc(
        need=Need.VIEW,
        summary="A session's games as CSV",
        description="One row per player per game: "
        + ", ".join(f"`{c}`" for c in export.SESSION_CSV_COLUMNS)
        + ".",
        responses=CSV_200,
        errors=[429],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> HttpResponse:
        session = self.target.obj_as(Session)
        name = export.csv_filename("session", session.pk, session.date.isoformat())
        return _csv_response(export.session_csv(session), f"{name}.csv")


class SeasonLadderCsv(ApiView):
    throttle_classes = [AnonymousSheetThrottle]

    def load_target(self, **kwargs: Any) -> Target:
        season = get_object_or_404(Season.objects.select_related("club"), pk=kwargs["season_id"])
        return Target(club=season.club, obj=season)

    @doc(
        need=Need.PUBLIC,
        summary="A season's ladder as CSV",
        description="By the club's ladder scoring: "
        + ", ".join(f"`{c}`" for c in export.LADDER_CSV_COLUMNS)
        + ".",
        responses=CSV_200,
        errors=[404, 429],
        tags=TAGS,
    )
    def get(self, request: Request, season_id: int) -> HttpResponse:
        season = self.target.obj_as(Season)
        name = export.csv_filename(season.club.slug, "ladder", season.name)
        return _csv_response(export.ladder_csv(season), f"{name}.csv")


class ClubView(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        club = get_object_or_404(Club, slug=kwargs["slug"])
        return Target(club=club, obj=club)


class ClubExportJson(ClubView):
    @doc(
        need=Need.DIRECT,
        summary="A whole club as one JSON file",
        description="Every season, player, session, sitting, table, game and round of the "
        "club (`huckley-club/1`), for `python manage.py import_club FILE` into an empty "
        "database. Scorer links are left out.",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, "The club file.")},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        response = Response(club_export(club))
        name = export.csv_filename(club.slug)
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response


class RosterRowSerializer(serializers.Serializer[Data]):
    line = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    action = serializers.ChoiceField(choices=["add", "match", "refuse"])
    player_id = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    changes = serializers.ListField(child=serializers.CharField())
    email = serializers.CharField(allow_blank=True)
    external_id = serializers.CharField(allow_blank=True)
    rating = serializers.FloatField(allow_null=True)


class RosterPreviewSerializer(serializers.Serializer[Data]):
    columns = serializers.ListField(child=serializers.CharField())
    ignored_columns = serializers.ListField(
        child=serializers.CharField(),
        help_text='The headings of the file\'s columns that are not read ("Phone").',
    )
    can_confirm = serializers.BooleanField()
    fingerprint = serializers.CharField()
    added = serializers.IntegerField()
    matched = serializers.IntegerField()
    refused = serializers.IntegerField()
    rows = RosterRowSerializer(many=True)


class RosterResultSerializer(serializers.Serializer[Data]):
    added = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()


class RosterImport(ClubView):
    class InputSerializer(Input):
        csv = serializers.CharField(
            max_length=MAX_BYTES,
            trim_whitespace=False,
            help_text="The roster file's text: a header line naming the columns (name, or "
            "first and last name, and any of email, external_id, rating, under the headings "
            "of docs/tournament.md's column table; other columns are not read), then one "
            "player per line; commas, semicolons or tabs.",
        )
        confirm = serializers.BooleanField(
            default=False, help_text="false: preview only. true: import, all or nothing."
        )
        fingerprint = serializers.CharField(
            required=False,
            max_length=64,
            help_text="The preview's fingerprint: the import is refused (409 "
            "`roster_changed`) if confirming would now do something else.",
        )

    @doc(
        need=Need.DIRECT,
        summary="Import a roster (CSV)",
        description="With `confirm` false, the preview: each row added, matched (to a "
        "player by external id, then by name) or refused with its line number and reason; "
        "nothing is written. With `confirm` true, all of it in one transaction, or nothing "
        "(a 400 `roster_refused` when any row is refused).",
        request=InputSerializer,
        responses={200: RosterPreviewSerializer, 201: RosterResultSerializer},
        errors=[409],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        content = d["csv"].encode("utf-8")
        if not d["confirm"]:
            preview = services.roster_preview(club=club, content=content)
            return Response(preview.as_dict())
        result = services.roster_import(
            club_id=club.pk, content=content, expected=d.get("fingerprint"), user=request.user
        )
        return Response(
            {"added": result.added, "updated": result.updated, "unchanged": result.unchanged},
            status=status.HTTP_201_CREATED,
        )
