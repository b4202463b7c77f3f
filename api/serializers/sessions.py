"""Output shapes of the session and sitting endpoints (`api.views.sessions`,
`api.views.sittings`), and the functions that fill them from the selectors' and the
services' results. Input serializers stay with their view."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine
from api import selectors as api_selectors
from api.serializers import Data, SeatingSerializer, many_data
from tournaments import format as fmt
from tournaments.models import Session, SessionPlayer, Sitting
from tournaments.permissions import Actor, can_direct
from workflow.session import selectors
from workflow.session.movements import MovementPreview
from workflow.session.selectors import StandingRow

MAX_ID = 2**63 - 1
MAX_LIST = 500


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


@extend_schema_field({"type": "string", "enum": sorted(engine.RULES), "maxLength": 30})
class RulesIdField(serializers.CharField):
    """A rules id. Checked by the service that creates the session (400 `unknown_rules`,
    the same code as on the page); the schema lists the ids the engine knows."""


def id_list(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=id_field(), max_length=MAX_LIST, **kwargs)


class SessionSerializer(serializers.Serializer[Session]):
    id = serializers.IntegerField()
    club = serializers.SlugField(source="club.slug")
    season = serializers.IntegerField(source="season_id")
    name = serializers.CharField()
    date = serializers.DateField()
    rules_id = serializers.CharField(help_text="The rules id (see /api/rules/).")
    games_per_sitting = serializers.IntegerField(min_value=2, max_value=3, help_text="2 or 3.")
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
    entry_fee = serializers.DecimalField(
        max_digits=8, decimal_places=2, allow_null=True, help_text="null: a free session."
    )
    pool_share = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        allow_null=True,
        help_text="The share of the fees in the prize pool, in %; null: 100.",
    )
    pool_fixed = serializers.DecimalField(
        max_digits=8,
        decimal_places=2,
        allow_null=True,
        help_text="A fixed prize pool instead of the share.",
    )
    payout_table = serializers.IntegerField(
        source="payout_table_id",
        allow_null=True,
        help_text="The club's payout table that splits the pool; null: the club's default.",
    )
    registration_open = serializers.BooleanField(
        help_text="Players may sign up (POST /api/sessions/{id}/registrations/) until it starts."
    )
    capacity = serializers.IntegerField(
        allow_null=True,
        help_text="How many players the night takes (everyone on the roster counts); beyond "
        "it sign-ups join the waitlist. null: no limit.",
    )


class EntrySerializer(serializers.Serializer[SessionPlayer]):
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    robot = serializers.BooleanField(
        source="player.is_robot",
        help_text="A robot that took a seat (docs/api.md, Robots fill seats): never ranked.",
    )
    checked_in = serializers.BooleanField()
    arrived_late = serializers.BooleanField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    paid = serializers.BooleanField(help_text="Paid the entry fee.")
    fixed_table = serializers.IntegerField(
        allow_null=True,
        help_text="The physical table this player stays at all night (a player who cannot "
        "move), or null: they move like everyone.",
    )


class SittingRefSerializer(serializers.Serializer[Sitting]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class SessionDetailSerializer(SessionSerializer):
    seed = serializers.IntegerField(
        allow_null=True, help_text="Only for the club's directors; null for others."
    )
    may_direct = serializers.BooleanField(help_text="Whether the caller directs this club.")
    door_code = serializers.CharField(
        allow_null=True,
        help_text="The four digits players type to check themselves in at the door: only "
        "for the club's directors; null for others.",
    )
    self_check_in_open = serializers.BooleanField(
        help_text="Players may check themselves in at the door (self-check-in/)."
    )
    walk_ins_allowed = serializers.BooleanField(
        help_text="A name not on the roster may check in at the door and join the roster."
    )
    online = serializers.BooleanField(
        help_text="Every table plays online: the cards are dealt and played on the phones "
        "(docs/api.md, Online play). A hybrid night switches tables one by one."
    )
    online_grace_seconds = serializers.IntegerField(
        help_text="How long an online player may be away before a robot plays for them."
    )
    move_clock_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="The time an online player has for each move before a robot plays it; "
        "null: no clock.",
    )
    duplicate = serializers.BooleanField(
        help_text="Duplicate deals: each sitting made while this is on deals the same cards "
        "at every online table of the same size (see the sitting's `duplicate`)."
    )
    fill_with_robots = serializers.BooleanField(
        help_text="Robots fill seats: at the start and at every movement, robots take the "
        "seats that would leave players sitting out or a table short (an online session)."
    )
    current_sitting = SittingRefSerializer(allow_null=True)
    entries = EntrySerializer(many=True, help_text="The roster, by name.")


RANK_HELP = "The table's place in the format, 1 the top; the movement moves players between ranks."
NUMBER_HELP = (
    "The physical table players sit at: the number on its table card, the wall list and "
    "every page players see. Equal to `rank` unless a player who does not move is fixed "
    "to a table (docs/format.md, Tables that do not move)."
)


class TableProgressSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    rank = serializers.IntegerField(help_text=RANK_HELP)
    number = serializers.IntegerField(help_text=NUMBER_HELP)
    online = serializers.BooleanField(
        help_text="The table plays online: its players play on their phones, each from "
        "their own seat link (never given here); false: it plays on paper."
    )
    seatings = SeatingSerializer(many=True, help_text="Seated players in seat order.")
    games_finished = serializers.IntegerField()
    games_total = serializers.IntegerField()
    current_game = serializers.IntegerField(allow_null=True, help_text="Its id.")


class SittingSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    session = serializers.IntegerField()
    number = serializers.IntegerField()
    games_per_sitting = serializers.IntegerField(min_value=2, max_value=3)
    created_at = serializers.DateTimeField()
    moved_at = serializers.DateTimeField(
        allow_null=True, help_text="When the movement after this sitting was confirmed."
    )
    duplicate = serializers.BooleanField(
        help_text="Duplicate deals: the online tables of the same size play the same deals; "
        "the comparison at /sessions/{session}/sittings/{number}/duplicate/."
    )


class SittingDetailSerializer(SittingSerializer):
    tables = TableProgressSerializer(many=True)


class NotKeptApartSerializer(serializers.Serializer[Data]):
    players = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, help_text="Two player ids."
    )
    names = serializers.ListField(
        child=serializers.CharField(), min_length=2, max_length=2, help_text="Their names."
    )
    reason = serializers.CharField(help_text="Why they could not be kept apart, in plain words.")


class SessionStartedSerializer(SittingDetailSerializer):
    class Meta:
        ref_name = "SessionStarted"

    not_kept_apart = NotKeptApartSerializer(
        many=True,
        help_text="The club's keep-apart pairs that start at one table after all, each with "
        "why (only one table, a group kept apart with more players than tables, ...). Empty "
        "when every pair was kept apart. Only in this answer, for the director: the pairs "
        "are the club's private wishes.",
    )


class SessionPageSerializer(serializers.Serializer[Data]):
    count = serializers.IntegerField()
    results = SessionSerializer(many=True)


class PlacingSerializer(serializers.Serializer[Data]):
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


class MovementTableSerializer(serializers.Serializer[Data]):
    table = serializers.IntegerField()
    rank = serializers.IntegerField(help_text=RANK_HELP)
    number = serializers.IntegerField(help_text=NUMBER_HELP)
    placings = PlacingSerializer(many=True)


class MovementSerializer(serializers.Serializer[Data]):
    sitting = serializers.IntegerField(help_text="The sitting's number: send it to confirm.")
    tables = MovementTableSerializer(many=True)
    table_notes = serializers.ListField(
        child=serializers.CharField(),
        help_text='What the tables of players who do not move do next sitting ("Ann stays '
        'at table 5, which hosts rank 2 this sitting"); empty when nobody is fixed to a table.',
    )


class MoveSerializer(serializers.Serializer[Data]):
    player_id = id_field()
    from_rank = serializers.IntegerField(min_value=0, max_value=32767)
    to_rank = serializers.IntegerField(min_value=0, max_value=32767)


class ProposalMoveSerializer(MoveSerializer):
    name = serializers.CharField()
    reason = serializers.CharField()


class ProposalSerializer(serializers.Serializer[Data]):
    moves = ProposalMoveSerializer(
        many=True, help_text="The fewest moves that bring every table back within size."
    )


class RebalancedSerializer(serializers.Serializer[Data]):
    moved = serializers.IntegerField()
    sitting = SittingDetailSerializer()


class StandingSerializer(serializers.Serializer[StandingRow]):
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
    payout = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        allow_null=True,
        help_text="What the player wins, an exact decimal string; null: no prizes.",
    )


# Filling them -------------------------------------------------------------------------


def session_detail(session: Session, actor: Actor) -> dict[str, Any]:
    session = api_selectors.session_qs().get(pk=session.pk)
    directs = can_direct(actor, session.club_id)
    sitting = selectors.current_sitting(session)
    data = dict(SessionSerializer(session).data)
    data["seed"] = session.seed if directs else None
    data["may_direct"] = directs
    data["door_code"] = session.door_code if directs else None
    data["self_check_in_open"] = session.self_check_in_open
    data["walk_ins_allowed"] = session.walk_ins_allowed
    data["online"] = session.online
    data["online_grace_seconds"] = session.online_grace_seconds
    data["move_clock_seconds"] = session.move_clock_seconds
    data["duplicate"] = session.duplicate
    data["fill_with_robots"] = session.fill_with_robots
    data["current_sitting"] = SittingRefSerializer(sitting).data if sitting else None
    data["entries"] = many_data(EntrySerializer, api_selectors.session_entries(session))
    return data


def sitting_fields(sitting: Sitting) -> dict[str, Any]:
    return {
        "id": sitting.pk,
        "session": sitting.session_id,
        "number": sitting.number,
        "games_per_sitting": sitting.games_per_sitting,
        "created_at": sitting.created_at,
        "moved_at": sitting.moved_at,
        "duplicate": sitting.duplicate,
    }


def sitting_detail(sitting: Sitting) -> dict[str, Any]:
    return dict(SittingDetailSerializer(_sitting_detail_data(sitting)).data)


def _sitting_detail_data(sitting: Sitting) -> dict[str, Any]:
    tables = [
        {
            "id": p.table.pk,
            "rank": p.table.rank,
            "number": p.table.number,
            "online": p.table.online,
            "seatings": p.seated,
            "games_finished": p.games_finished,
            "games_total": p.games_total,
            "current_game": p.current_game.pk if p.current_game else None,
        }
        for p in selectors.sitting_progress(sitting)
    ]
    return {**sitting_fields(sitting), "tables": tables}


def session_started(sitting: Sitting) -> dict[str, Any]:
    """The start's answer: sitting 1, and the keep-apart pairs it could not keep apart."""
    data = {**_sitting_detail_data(sitting), "not_kept_apart": sitting.not_kept_apart}
    return dict(SessionStartedSerializer(data).data)


def movement_data(preview: MovementPreview) -> dict[str, Any]:
    moves = {m.player: m for m in preview.moves}

    def placing(p: fmt.Placing[int]) -> dict[str, Any]:
        return {
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

    tables = [
        {
            "table": table.pk,
            "rank": table.rank,
            "number": table.number,
            "placings": [placing(p) for p in placings],
        }
        for table, placings in preview.tables
    ]
    data = {
        "sitting": preview.sitting.number,
        "tables": tables,
        "table_notes": preview.table_notes,
    }
    return dict(MovementSerializer(data).data)


def proposal_data(session: Session, proposal: list[fmt.Rebalance[int]]) -> dict[str, Any]:
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
    return dict(ProposalSerializer({"moves": moves}).data)
