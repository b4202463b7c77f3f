"""Sessions: reads for whoever may see them, and the director's writes, each through the
same service as the session's pages (`tournaments.services`)."""

from __future__ import annotations

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
from api.serializers import SeatingSerializer
from api.views.base import ApiView
from huckley.errors import UserError
from tournaments import selectors, services
from tournaments.models import Club, Season, Session, Sitting
from tournaments.permissions import can_direct, visible_sessions

TAGS = ["sessions"]
MAX_ID = 2**63 - 1
MAX_LIST = 500


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def id_list(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=id_field(), max_length=MAX_LIST, **kwargs)


# Output ---------------------------------------------------------------------------------


class SessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.SlugField(source="club.slug")
    season = serializers.IntegerField(source="season_id")
    name = serializers.CharField()
    date = serializers.DateField()
    rules_id = serializers.CharField(help_text="The rules id (see /api/rules/).")
    games_per_sitting = serializers.IntegerField(help_text="2 or 3.")
    status = serializers.ChoiceField(choices=Session.Status.choices)
    is_public = serializers.BooleanField()
    double_entry = serializers.BooleanField()
    seeding = serializers.ChoiceField(
        choices=Session.Seeding.choices,
        help_text="How the first sitting is split: at random, or from the ratings.",
    )
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    ended_early = serializers.BooleanField()


class EntrySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    checked_in = serializers.BooleanField()
    arrived_late = serializers.BooleanField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class SittingRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class SessionDetailSerializer(SessionSerializer):
    seed = serializers.IntegerField(
        allow_null=True, help_text="Only for the club's directors; null for others."
    )
    may_direct = serializers.BooleanField(help_text="Whether the caller directs this club.")
    current_sitting = SittingRefSerializer(allow_null=True)
    entries = EntrySerializer(many=True, help_text="The roster, by name.")


class TableProgressSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 is the top table.")
    seatings = SeatingSerializer(many=True, help_text="Seated players in seat order.")
    games_finished = serializers.IntegerField()
    games_total = serializers.IntegerField()
    current_game = serializers.IntegerField(allow_null=True, help_text="Its id.")


class SittingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField()
    number = serializers.IntegerField()
    games_per_sitting = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    moved_at = serializers.DateTimeField(
        allow_null=True, help_text="When the movement after this sitting was confirmed."
    )


class SittingDetailSerializer(SittingSerializer):
    tables = TableProgressSerializer(many=True)


def session_detail(session: Session, view: ApiView) -> dict[str, Any]:
    session = api_selectors.session_qs().get(pk=session.pk)
    directs = can_direct(view.actor, session.club_id)
    sitting = api_selectors.current_sitting(session)
    data = dict(SessionSerializer(session).data)
    data["seed"] = session.seed if directs else None
    data["may_direct"] = directs
    data["current_sitting"] = SittingRefSerializer(sitting).data if sitting else None
    data["entries"] = EntrySerializer(api_selectors.session_entries(session), many=True).data
    return data


def sitting_detail(sitting: Sitting) -> dict[str, Any]:
    progress = selectors.sitting_progress(sitting)
    return dict(
        SittingDetailSerializer(
            {
                "id": sitting.pk,
                "session": sitting.session_id,
                "number": sitting.number,
                "games_per_sitting": sitting.games_per_sitting,
                "created_at": sitting.created_at,
                "moved_at": sitting.moved_at,
                "tables": [
                    {
                        "id": p.table.pk,
                        "rank": p.table.rank,
                        "seatings": p.seated,
                        "games_finished": p.games_finished,
                        "games_total": p.games_total,
                        "current_game": p.current_game.pk if p.current_game else None,
                    }
                    for p in progress
                ],
            }
        ).data
    )


def _sitting_out(sitting: Sitting, code: int = status.HTTP_200_OK) -> Response:
    return Response(sitting_detail(sitting), status=code)


# Lists ----------------------------------------------------------------------------------


class SessionPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    results = SessionSerializer(many=True)


class SessionList(ApiView):
    class FilterSerializer(serializers.Serializer):
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
        "plays in or holds a scorer link for.",
        parameters=[FilterSerializer],
        responses={200: SessionPageSerializer},
        errors=[400],
        tags=TAGS,
        operation_id="sessions_list",
    )
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
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
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionCreateInput"

        season = id_field(help_text="A season of this club.")
        name = serializers.CharField(max_length=120)
        date = serializers.DateField()
        rules_id = serializers.CharField(
            max_length=30, default="huckley-buck", help_text="See /api/rules/."
        )
        games_per_sitting = serializers.IntegerField(default=2, help_text="2 or 3.")
        seed = serializers.IntegerField(
            min_value=0,
            max_value=MAX_ID,
            required=False,
            allow_null=True,
            help_text="Every random choice of the session derives from it; empty: a fresh "
            "random one.",
        )
        is_public = serializers.BooleanField(default=False)
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
            "and spacing is that player; others become new players.",
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
        club = self.target.obj
        sessions = (visible_sessions(self.actor).filter(club=club).select_related("club")).order_by(
            "-date", "-id"
        )
        return Response(SessionSerializer(sessions, many=True).data)

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
        club = self.target.obj
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        season = Season.objects.filter(pk=d["season"]).first()
        if season is None:
            raise UserError("unknown_season", "There is no such season.", field="season")
        session = services.session_create(
            club=club,
            season=season,
            name=d["name"],
            date=d["date"],
            rules_id=d["rules_id"],
            games_per_sitting=d["games_per_sitting"],
            player_ids=d["player_ids"],
            new_names=d["new_names"],
            seed=d.get("seed"),
            is_public=d["is_public"],
            double_entry=d["double_entry"],
            seeding=d["seeding"],
            user=request.user,
        )
        return Response(session_detail(session, self), status=status.HTTP_201_CREATED)


# One session ---------------------------------------------------------------------------


class SessionView(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @property
    def session(self) -> Session:
        return self.target.obj  # type: ignore[no-any-return]


class SessionDetail(SessionView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionSettingsInput"

        games_per_sitting = serializers.IntegerField(
            required=False, help_text="2 or 3; applies from the next sitting."
        )
        is_public = serializers.BooleanField(required=False)
        double_entry = serializers.BooleanField(required=False)
        seeding = serializers.ChoiceField(
            choices=Session.Seeding.choices,
            required=False,
            help_text="Until the session starts (then a 400 `session_started`).",
        )

    @doc(
        need=Need.VIEW,
        summary="A session: settings, status and roster",
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        return Response(session_detail(self.session, self))

    @doc(
        need=Need.DIRECT,
        summary="Change a session's settings",
        description="Fields left out keep their value. The sitting length applies from the "
        "next sitting; visibility and double entry at once.",
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
        services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=d.get("games_per_sitting", session.games_per_sitting),
            is_public=d.get("is_public", session.is_public),
            double_entry=d.get("double_entry", session.double_entry),
            seeding=d.get("seeding"),
            user=request.user,
        )
        return Response(session_detail(session, self))


class SessionPlayers(SessionView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionPlayersInput"

        player_ids = id_list(default=list, help_text="Club players to add.")
        new_names = serializers.ListField(
            child=serializers.CharField(allow_blank=True, trim_whitespace=False),
            max_length=MAX_LIST,
            default=list,
            help_text="Names typed in, matched to club players as on creation.",
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
            user=request.user,
        )
        return Response(session_detail(self.session, self))


class SessionCheckIn(SessionView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionCheckInInput"

        player_ids = id_list(min_length=1, help_text="Players on the roster.")
        checked_in = serializers.BooleanField(
            default=True, help_text="false takes a check-in back."
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
            user=request.user,
        )
        return Response(session_detail(self.session, self))


class SessionStart(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="Start the session",
        description="Splits the checked-in players into ranked tables and starts the "
        "first games. Answers with sitting 1.",
        responses={201: SittingDetailSerializer},
        errors=[409],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        sitting = services.session_start(session_id=self.session.pk, user=request.user)
        return _sitting_out(sitting, status.HTTP_201_CREATED)


class SessionWithdraw(SessionView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionWithdrawInput"

        player_id = id_field()

    @doc(
        need=Need.DIRECT,
        summary="Withdraw a player",
        description="Between games only; their finished games still count. Before the "
        "start, this takes them off the roster.",
        request=InputSerializer,
        responses={200: SessionDetailSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.session_withdraw(
            session_id=self.session.pk,
            player_id=data.validated_data["player_id"],
            user=request.user,
        )
        return Response(session_detail(self.session, self))


class PlacingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    place = serializers.IntegerField()
    score = serializers.IntegerField()
    games_won = serializers.IntegerField()
    hooks = serializers.IntegerField()
    last_game_score = serializers.IntegerField()
    decided_by = serializers.CharField(
        allow_null=True, help_text="The tie-break that decided this place, if any."
    )
    reason = serializers.CharField()
    direction = serializers.ChoiceField(choices=["up", "down", "stay"])
    to_rank = serializers.IntegerField()
    move_reason = serializers.CharField()


class MovementTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    rank = serializers.IntegerField()
    placings = PlacingSerializer(many=True)


class MovementSerializer(serializers.Serializer):
    sitting = serializers.IntegerField(help_text="The sitting's number: send it to confirm.")
    tables = MovementTableSerializer(many=True)


def _current(session: Session) -> Sitting:
    sitting = api_selectors.current_sitting(session)
    if sitting is None:
        raise UserError("session_not_started", "This session has not started yet.")
    return sitting


class SessionMovement(SessionView):
    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "SessionMovementInput"

        sitting = serializers.IntegerField(
            min_value=1, max_value=32767, help_text="The number of the sitting to move on from."
        )

    @doc(
        need=Need.DIRECT,
        summary="Preview the movement after the current sitting",
        description="Each table's order over the sitting, the tie-break that decided each "
        "place, and the move it earns. Refused (400 sitting_unfinished) while a table has "
        "games to play.",
        responses={200: MovementSerializer},
        errors=[400],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        sitting = _current(self.session)
        preview = services.movement_preview(sitting=sitting)
        moves = {m.player: m for m in preview.moves}
        data = {
            "sitting": sitting.number,
            "tables": [
                {
                    "table": table.pk,
                    "rank": table.rank,
                    "placings": [
                        {
                            "player_id": p.player,
                            "name": preview.names[p.player],
                            "place": p.place,
                            "score": p.result.score,
                            "games_won": p.result.games_won,
                            "hooks": p.result.hooks,
                            "last_game_score": p.result.last_game_score,
                            "decided_by": p.decided_by,
                            "reason": p.reason,
                            "direction": moves[p.player].direction,
                            "to_rank": moves[p.player].to_rank,
                            "move_reason": moves[p.player].reason,
                        }
                        for p in placings
                    ],
                }
                for table, placings in preview.tables
            ],
        }
        return Response(MovementSerializer(data).data)

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
        sitting = services.sitting_move_players(
            session_id=self.session.pk,
            sitting_number=data.validated_data["sitting"],
            user=request.user,
        )
        return _sitting_out(sitting, status.HTTP_201_CREATED)


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
        sitting = services.sitting_undo_movement(session_id=self.session.pk, user=request.user)
        return _sitting_out(Sitting.objects.get(pk=sitting.pk))


class MoveSerializer(serializers.Serializer):
    player_id = id_field()
    from_rank = serializers.IntegerField(min_value=0, max_value=32767)
    to_rank = serializers.IntegerField(min_value=0, max_value=32767)


class ProposalMoveSerializer(MoveSerializer):
    name = serializers.CharField()
    reason = serializers.CharField()


class ProposalSerializer(serializers.Serializer):
    moves = ProposalMoveSerializer(
        many=True, help_text="The fewest moves that bring every table back within size."
    )


class RebalancedSerializer(serializers.Serializer):
    moved = serializers.IntegerField()
    sitting = SittingDetailSerializer()


class SessionRebalance(SessionView):
    class InputSerializer(serializers.Serializer):
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
        "table is fine.",
        responses={200: ProposalSerializer},
        errors=[400],
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        session = self.session
        proposal = services.rebalance_proposal(session=session)
        names = dict(session.entries.values_list("player_id", "player__name"))
        moves = [
            {
                "player_id": m.player,
                "name": names.get(m.player, "?"),
                "from_rank": m.from_rank,
                "to_rank": m.to_rank,
                "reason": m.reason,
            }
            for m in proposal
        ]
        return Response(ProposalSerializer({"moves": moves}).data)

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
        moved = services.session_rebalance(
            session_id=self.session.pk, expected=expected, user=request.user
        )
        sitting = _current(self.session)
        return Response({"moved": moved, "sitting": sitting_detail(sitting)})


class SessionFinish(SessionView):
    class InputSerializer(serializers.Serializer):
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
        services.session_finish(
            session_id=self.session.pk, early=data.validated_data["early"], user=request.user
        )
        return Response(session_detail(self.session, self))


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    table_rank = serializers.IntegerField(
        allow_null=True, help_text="The table in the latest sitting; null once withdrawn."
    )
    place = serializers.IntegerField(allow_null=True, help_text="Place at that table.")
    points = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    hooks = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


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
        return Response(StandingSerializer(rows, many=True).data)


class SessionSittings(SessionView):
    @doc(
        need=Need.VIEW,
        summary="A session's sittings",
        responses={200: SittingSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        sittings = [
            {
                "id": s.pk,
                "session": s.session_id,
                "number": s.number,
                "games_per_sitting": s.games_per_sitting,
                "created_at": s.created_at,
                "moved_at": s.moved_at,
            }
            for s in api_selectors.session_sittings(self.session)
        ]
        return Response(SittingSerializer(sittings, many=True).data)


class SittingDetail(ApiView):
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
        return _sitting_out(self.target.obj)
