"""Sessions: reads for whoever may see them, and the director's writes, each through the
same service as the session's pages (`workflow.session.services`). The sitting endpoints
(movement, rebalancing, sittings) are `api.views.sittings`; the players' (added, checked
in, withdrawn) `api.views.session_players`."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input, many_data
from api.serializers.play import OnlineSettingsInput
from api.serializers.sessions import (
    MAX_ID,
    MAX_LIST,
    RulesIdField,
    SessionDetailSerializer,
    SessionPageSerializer,
    SessionSerializer,
    SessionStartedSerializer,
    StandingSerializer,
    id_field,
    id_list,
    session_detail,
    session_started,
)
from api.views.base import ApiView
from common.errors import UserError
from tournaments.models import Club, Season, Session
from tournaments.permissions import visible_sessions
from workflow.club import prize_selectors
from workflow.front import registrations
from workflow.session import selectors, services, start_finish

TAGS = ["sessions"]
# The online settings a PATCH passes on only when given (docs/api.md, Online play).
ONLINE_SETTINGS = (
    "online",
    "online_grace_seconds",
    "move_clock_seconds",
    "duplicate",
    "fill_with_robots",
)


class SessionList(ApiView):
    class FilterSerializer(Input):
        class Meta:
            ref_name = "SessionListFilter"

        club = serializers.SlugField(required=False, help_text="A club's slug.")
        season = id_field(required=False)
        status = serializers.ChoiceField(choices=Session.Status.choices, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
        offset = serializers.IntegerField(min_value=0, max_value=10**9, default=0)

    @doc(
        need=Need.PUBLIC,
        summary="List the sessions the caller may see",
        description="Newest first: public sessions, and private ones the caller directs, "
        "plays in or holds a scorer link for. A filter given with no value (`?status=`) is "
        "a 400, as is any value the parameter's schema does not allow.",
        parameters=[FilterSerializer],
        responses={200: SessionPageSerializer},
        errors=[400],
        tags=TAGS,
        operation_id="sessions_list",
    )
    def get(self, request: Request) -> Response:
        # A plain dict, not the QueryDict: DRF reads an empty value in a QueryDict as a
        # left-out field, so `?status=` would list every session instead of being refused.
        params = self.FilterSerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        f = params.validated_data
        sessions = visible_sessions(self.actor).select_related("club")
        if "club" in f:
            sessions = sessions.filter(club__slug=f["club"])
        if "season" in f:
            sessions = sessions.filter(season_id=f["season"])
        if "status" in f:
            sessions = sessions.filter(status=f["status"])
        sessions = sessions.order_by("-date", "-id")
        page = sessions[f["offset"] : f["offset"] + f["limit"]]
        return Response(
            SessionPageSerializer({"count": sessions.count(), "results": list(page)}).data
        )


class ClubSessions(ApiView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionCreateInput"

        season = id_field(help_text="A season of this club.")
        name = serializers.CharField(max_length=120, trim_whitespace=False)
        date = serializers.DateField()
        rules_id = RulesIdField(max_length=30, default="huckley-buck", help_text="See /api/rules/.")
        games_per_sitting = serializers.IntegerField(
            default=2, min_value=2, max_value=3, help_text="2 or 3."
        )
        seed = serializers.IntegerField(
            min_value=0,
            max_value=MAX_ID,
            required=False,
            allow_null=True,
            help_text="Every random choice of the session derives from it; empty: a fresh "
            "random one.",
        )
        is_public = serializers.BooleanField(default=Session.PUBLIC_BY_DEFAULT)
        double_entry = serializers.BooleanField(default=False)
        seeding = serializers.ChoiceField(
            choices=Session.Seeding.choices,
            default=Session.Seeding.RANDOM,
            help_text="The first sitting: `random` (the association's format), or from the "
            "players' ratings: `strongest_top` or `balanced`.",
        )
        player_ids = id_list(default=list, help_text="Club players on the roster.")
        new_names = serializers.ListField(
            child=serializers.CharField(allow_blank=True, trim_whitespace=False),
            max_length=MAX_LIST,
            default=list,
            help_text="Names typed in: a name matching a club player regardless of case "
            "and spacing is that player; one that is a player's name written otherwise "
            "(accents, punctuation, spaces) is refused with 409 `player_name_looks_like` "
            "unless `new_anyway`; others become new players.",
        )
        new_anyway = serializers.BooleanField(
            default=False,
            help_text="The new names are new players even where one is a club player's name "
            "written with other accents or punctuation (refused otherwise with "
            '`player_name_looks_like`, "Did you mean …?").',
        )
        online = serializers.BooleanField(
            default=False,
            help_text="Every table plays online: the server deals and the players play on "
            "their phones through their seat links (docs/api.md, Online play).",
        )
        duplicate = serializers.BooleanField(
            default=False,
            help_text="Duplicate deals: every online table of the same size plays the same "
            "deals, sitting by sitting (docs/api.md, Duplicate deals).",
        )
        fill_with_robots = serializers.BooleanField(
            default=False,
            help_text="Robots fill seats: at the start and at every movement, robots take "
            "the seats that would leave players sitting out or a table short, so nobody "
            "sits out (docs/api.md, Robots fill seats). Only with `online` (else 400 "
            "`fill_needs_online`).",
        )

    def load_target(self, **kwargs: Any) -> Target:
        club = get_object_or_404(Club, slug=kwargs["slug"])
        return Target(club=club, obj=club)

    @doc(
        need=Need.PUBLIC,
        summary="A club's sessions the caller may see",
        responses={200: SessionSerializer(many=True)},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        sessions = (visible_sessions(self.actor).filter(club=club).select_related("club")).order_by(
            "-date", "-id"
        )
        return Response(many_data(SessionSerializer, sessions))

    @doc(
        need=Need.DIRECT,
        summary="Create a session",
        description="With its roster; players are then checked in and the session started.",
        request=InputSerializer,
        responses={201: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, slug: str) -> Response:
        club = self.target.obj_as(Club)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        season = Season.objects.filter(pk=d["season"]).first()
        if season is None:
            raise UserError("unknown_season", gettext("There is no such season."), field="season")
        session = services.session_create(
            club=club,
            season=season,
            name=d["name"],
            date=d["date"],
            rules_id=d["rules_id"],
            games_per_sitting=d["games_per_sitting"],
            player_ids=d["player_ids"],
            new_names=d["new_names"],
            new_anyway=d["new_anyway"],
            seed=d.get("seed"),
            is_public=d["is_public"],
            double_entry=d["double_entry"],
            seeding=d["seeding"],
            online=d["online"],
            duplicate=d["duplicate"],
            fill_with_robots=d["fill_with_robots"],
            user=request.user,
        )
        return Response(session_detail(session, self.actor), status=status.HTTP_201_CREATED)


class SessionView(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @property
    def session(self) -> Session:
        return self.target.obj_as(Session)


class SessionDetail(SessionView):
    class InputSerializer(OnlineSettingsInput):
        class Meta:
            ref_name = "SessionSettingsInput"

        games_per_sitting = serializers.IntegerField(
            required=False,
            min_value=2,
            max_value=3,
            help_text="2 or 3; applies from the next sitting.",
        )
        is_public = serializers.BooleanField(required=False)
        double_entry = serializers.BooleanField(required=False)
        seeding = serializers.ChoiceField(
            choices=Session.Seeding.choices,
            required=False,
            help_text="Until the session starts (then a 409 `session_started`).",
        )
        registration_open = serializers.BooleanField(
            required=False, help_text="Until the session starts (then a 409 `session_started`)."
        )
        capacity = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=registrations.MAX_CAPACITY,
            help_text="Players, at least 1; null: no limit. A higher "
            "capacity moves the waitlist up at once; a lower one takes nobody off.",
        )

    @doc(
        need=Need.VIEW,
        summary="A session: settings, status and roster",
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        return Response(session_detail(self.session, self.actor))

    @doc(
        need=Need.DIRECT,
        summary="Change a session's settings",
        description="Fields left out keep their value. The sitting length applies from the "
        "next sitting; visibility and double entry at once; sign-up (`registration_open`, "
        "`capacity`) until the session starts.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def patch(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        session = self.session
        with transaction.atomic():  # all the fields or none
            services.session_update_settings(
                session_id=session.pk,
                games_per_sitting=d.get("games_per_sitting", session.games_per_sitting),
                is_public=d.get("is_public", session.is_public),
                double_entry=d.get("double_entry", session.double_entry),
                seeding=d.get("seeding"),
                user=request.user,
                **{k: d[k] for k in ONLINE_SETTINGS if k in d},
            )
            if "registration_open" in d or "capacity" in d:
                registrations.session_registration_settings(
                    session_id=session.pk,
                    registration_open=d.get("registration_open", session.registration_open),
                    capacity=d.get("capacity", session.capacity),
                    user=request.user,
                )
        return Response(session_detail(session, self.actor))


class SessionStart(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="Start the session",
        description="Splits the checked-in players into ranked tables and starts the "
        "first games. The club's keep-apart pairs are parted when possible. Answers with "
        "sitting 1, and in `not_kept_apart` each pair that could not be kept apart, with why.",
        responses={201: SessionStartedSerializer},
        errors=[409],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        sitting = start_finish.session_start(session_id=self.session.pk, user=request.user)
        return Response(session_started(sitting), status=status.HTTP_201_CREATED)


class SessionFinish(SessionView):
    class InputSerializer(Input):
        class Meta:
            ref_name = "SessionFinishInput"

        early = serializers.BooleanField(
            default=False,
            help_text="Needed when tables still have games to play; unfinished games do not count.",
        )

    @doc(
        need=Need.DIRECT,
        summary="Finish the session",
        description="Fixes the standings; they count for the season.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        start_finish.session_finish(
            session_id=self.session.pk, early=data.validated_data["early"], user=request.user
        )
        return Response(session_detail(self.session, self.actor))


class SessionStandings(SessionView):
    @doc(
        need=Need.VIEW,
        summary="A session's standings",
        description="By the table in the latest sitting, then the place at it; players who "
        "withdrew follow. Totals count every finished game.",
        responses={200: StandingSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        rows = selectors.session_standings(self.session)
        found = prize_selectors.session_prizes(self.session, rows)
        return Response(many_data(StandingSerializer, prize_selectors.with_payouts(rows, found)))
