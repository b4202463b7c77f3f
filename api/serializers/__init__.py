"""Output shapes shared by several endpoints, and the error body. Each view keeps its own
input serializer; these describe what comes back, for the response and the schema alike.

Games and rounds are in the game record format `buck-game/1`
(docs/game-record.md): the field names are the format's, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from rest_framework import serializers

from scoring.models import Game, Round
from tournaments.models import Seating

#: What a serializer of plain data reads: a dict a view built or the engine's output, key
#: by key. The shapes that only document a body for the schema say so too.
Data = Mapping[str, object]
#: A serializer that only reads a request body or a query string: it gets no instance.
Input = serializers.Serializer[None]
R = TypeVar("R")
T = TypeVar("T")


def many_data(serializer: type[serializers.BaseSerializer[T]], items: Iterable[T]) -> list[Any]:
    """`serializer(items, many=True).data`. The stubs take the instance of a serializer for
    one item even with `many=True`; `many_init` is what `many=True` calls."""
    data: list[Any] = serializer.many_init(items).data
    return data


# Errors -------------------------------------------------------------------------------


class ErrorItemSerializer(serializers.Serializer[Data]):
    code = serializers.CharField(help_text="Stable snake_case code.")
    message = serializers.CharField(help_text="What went wrong and what to do.")
    field = serializers.CharField(
        allow_null=True,
        help_text="The request field (or round field, for the engine's errors) concerned.",
    )
    player = serializers.CharField(
        required=False, help_text="Engine errors: the one player concerned, when there is one."
    )
    round = serializers.IntegerField(
        required=False, allow_null=True, help_text="Engine errors: the 1-based round."
    )


class ErrorSerializer(serializers.Serializer[Data]):
    code = serializers.CharField(
        help_text="Stable snake_case code: the services' and the engine's codes, or "
        "not_authenticated, authentication_failed, scorer_link_expired, not_director, "
        "not_scorer, permission_denied, not_found, invalid_input, parse_error, "
        "unsupported_media_type, method_not_allowed, idempotency_key_reused, throttled."
    )
    message = serializers.CharField(help_text="A message a person can act on.")
    field = serializers.CharField(
        required=False, help_text="The request field the error is about, when there is one."
    )
    # DRF's metaclass takes declared fields off the class, so this body field does not
    # shadow `Serializer.errors` at run time; the stubs cannot know that.
    errors = ErrorItemSerializer(  # type: ignore[assignment]
        many=True,
        required=False,
        help_text="Every problem found: the engine's errors for a refused round, or one "
        "entry per invalid field.",
    )


# Rounds and games in the record format -------------------------------------------------


class PenaltySerializer(serializers.Serializer[Data]):
    player = serializers.CharField()
    kind = serializers.CharField(
        help_text="misdeal, renege, incorrect_hand, wrong_discards or undeclared_draw."
    )


class _RoundFields(serializers.Serializer[R]):
    """The round fields of `buck-game/1`. A rule set may add its own; every field is
    checked by the engine, whose errors name it."""

    dealer = serializers.CharField(required=False)
    out = serializers.ListField(child=serializers.CharField(), required=False)
    tricks = serializers.DictField(child=serializers.IntegerField(), required=False)
    trick_winners = serializers.ListField(child=serializers.CharField(), required=False)
    penalties = PenaltySerializer(many=True, required=False)
    misdeal = serializers.BooleanField(required=False)
    upcard = serializers.CharField(required=False)
    play = serializers.JSONField(
        required=False, help_text="Card-level play: {hands: {name: [cards]}, tricks: [[cards]]}."
    )
    trump = serializers.CharField(required=False, allow_null=True, help_text="Buck Euchre.")
    declarer = serializers.CharField(required=False, allow_null=True, help_text="Buck Euchre.")
    bids = serializers.JSONField(required=False, help_text="Ten-Point Buck, Bluke.")
    points = serializers.JSONField(required=False, help_text="Ten-Point Buck.")
    doe_bonus = serializers.CharField(required=False, allow_null=True, help_text="Ten-Point Buck.")
    cards = serializers.IntegerField(required=False, help_text="Bluke: the hand size.")


class RoundFieldsSerializer(_RoundFields[Data]):
    """The round fields of `buck-game/1`. A rule set may add its own; every field is
    checked by the engine, whose errors name it."""


class RoundSerializer(_RoundFields[Round]):
    """A stored round: its number and its fields as entered."""

    number = serializers.IntegerField(min_value=1)

    def to_representation(self, instance: Round) -> dict[str, Any]:
        return {"number": instance.number, **instance.data}


class RecordSerializer(serializers.Serializer[Data]):
    format = serializers.CharField(help_text="Always buck-game/1.")
    rules = serializers.CharField()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Names in seat order, clockwise."
    )
    first_dealer = serializers.CharField(allow_null=True)
    options = serializers.DictField(child=serializers.JSONField())
    rounds = RoundFieldsSerializer(many=True)


class ScoredRoundSerializer(serializers.Serializer[Data]):
    dealer = serializers.CharField(allow_null=True)
    points = serializers.DictField(child=serializers.IntegerField())
    hooks = serializers.ListField(child=serializers.CharField())
    scores = serializers.DictField(child=serializers.IntegerField())


class EngineErrorSerializer(serializers.Serializer[Data]):
    round = serializers.IntegerField(allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    player = serializers.CharField(required=False)


class VerdictSerializer(serializers.Serializer[Data]):
    """The engine's output for the game (`engine.check`)."""

    valid = serializers.BooleanField()
    rules = serializers.CharField(allow_null=True)
    rounds = ScoredRoundSerializer(many=True)
    scores = serializers.DictField(child=serializers.IntegerField())
    finished = serializers.BooleanField()
    winner = serializers.JSONField(
        allow_null=True, help_text="A name, a list of names for a shared win, or null."
    )
    next_dealer = serializers.CharField(allow_null=True)
    errors = EngineErrorSerializer(many=True)  # type: ignore[assignment]  # as in ErrorSerializer


class GameSummarySerializer(serializers.Serializer[Game]):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    number = serializers.IntegerField()
    rules = serializers.CharField(source="rules_id")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    round_count = serializers.IntegerField()
    first_dealer_source = serializers.ChoiceField(
        choices=Game.DealerSource.choices,
        help_text="draw: high-card draw from the session seed; previous_winner: the winner "
        "of the previous game at the table.",
    )
    finished_at = serializers.DateTimeField(allow_null=True)


class GameSerializer(GameSummarySerializer):
    """A game: its record and the engine's verdict on it."""

    first_dealer_draw = serializers.DictField(
        child=serializers.CharField(),
        help_text="With a draw: the cards each player drew, in order.",
    )
    record = RecordSerializer()
    verdict = VerdictSerializer()
    cards_hidden = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The rounds whose cards (upcard, play, discard) are left out of the record: "
        "in a duplicate sitting, a deal another table may still play, hidden from all but "
        "the club's directors until every table has played it. Empty otherwise.",
    )


class PendingRoundSerializer(serializers.Serializer[Data]):
    """With double entry: a round entered once, waiting for a second matching entry."""

    number = serializers.IntegerField()
    round = RoundFieldsSerializer(source="data")
    entered_by = serializers.CharField(allow_null=True, help_text="Account name, if any.")
    scorer_link = serializers.BooleanField(help_text="Entered through a scorer link.")
    yours = serializers.BooleanField(help_text="Entered by the caller.")
    created_at = serializers.DateTimeField()


class RoundConflictSerializer(ErrorSerializer):
    """A 409 on round entry: the state the client should reload."""

    game = GameSerializer(
        required=False, help_text="round_number_taken, round_number_out_of_order: the game now."
    )
    entries = PendingRoundSerializer(
        many=True, required=False, help_text="double_entry_mismatch: both entries."
    )


# Tournament shapes ---------------------------------------------------------------------


class SeatingSerializer(serializers.Serializer[Seating]):
    seat = serializers.IntegerField(help_text="1, 2, ... clockwise.")
    player_id = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    robot = serializers.BooleanField(
        source="player.is_robot",
        help_text="A robot, played by the engine (seated by the director or to fill a seat): "
        "never ranked.",
    )
