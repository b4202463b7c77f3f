"""Online play's shapes (docs/api.md, "Online play"): a seat's view, a move, the seats
list, and the online settings of a session. Output shapes document what
`play.selectors` builds; the move's input is checked for its shape only, and every
other key of it reaches the engine as it was sent."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers import Data, ErrorSerializer, Input


class OnlineSettingsInput(Input):
    """The online settings a session's PATCH takes (each only when given)."""

    online = serializers.BooleanField(
        required=False,
        help_text="Every table plays online; until the session starts (then a 409 "
        "`session_started`: switch the tables one by one).",
    )
    online_grace_seconds = serializers.IntegerField(
        required=False,
        min_value=5,
        max_value=3600,
        help_text="5 to 3600: how long an online player may be away before a robot plays for them.",
    )
    move_clock_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=5,
        max_value=3600,
        help_text="5 to 3600, or null for no clock: the time for each online move before a "
        "robot plays it.",
    )
    duplicate = serializers.BooleanField(
        required=False,
        help_text="Duplicate deals: every online table of the same size plays the same deals "
        "(docs/api.md, Duplicate deals). From the next sitting made (the first, before the "
        "start); a sitting keeps the deals it began with.",
    )
    fill_with_robots = serializers.BooleanField(
        required=False,
        help_text="Robots fill seats: at the start and at every movement, robots take the "
        "seats that would leave players sitting out or a table short (docs/api.md, Robots "
        "fill seats). Only in an online session (else 400 `fill_needs_online`); from the "
        "start, or the next movement once the session runs.",
    )


class TrickCardSerializer(serializers.Serializer[Data]):
    player = serializers.CharField()
    card = serializers.CharField(help_text="A card code as in the game record.")


class SeatPlayerSerializer(serializers.Serializer[Data]):
    name = serializers.CharField()
    seat = serializers.IntegerField()
    robot = serializers.BooleanField(help_text="A robot seated by the director.")
    away = serializers.BooleanField(
        help_text="Not seen within the grace time: a robot plays for them when it is their "
        "turn, until they come back."
    )


class SeatViewSerializer(serializers.Serializer[Data]):
    """A seat's view; the game's own keys (`bids`, `announcements`, `draws`, `hand_size`,
    ...) come along as the engine names them (docs/engine.md, "Online rounds")."""

    class Meta:
        ref_name = "PlayView"

    status = serializers.ChoiceField(
        choices=["playing", "waiting", "paper", "not_seated", "finished"],
        help_text="`playing`: a round is being played at the seat's online table; "
        "`waiting`: no online game there now (the sitting is over, the movement not "
        "confirmed yet); `paper`: the seat's table plays on paper; `not_seated`: no seat in "
        "the current sitting; `finished`: the session is over.",
    )
    session = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="Whose view it is.")
    seat = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True, help_text="The table's rank.")
    table_number = serializers.IntegerField(allow_null=True, help_text="The physical table.")
    game = serializers.IntegerField(allow_null=True, help_text="The game's id.")
    round = serializers.IntegerField(allow_null=True, help_text="The round's number.")
    phase = serializers.CharField(
        allow_null=True,
        help_text="`play` while cards are played to tricks, `done` once the game is over, "
        "`end` for a moment between two rounds, and the game's own names before play "
        "(`announce`, `draw`, `bid`, ...).",
    )
    hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="This seat's cards only."
    )
    upcard = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    to_act = serializers.CharField(allow_null=True, help_text="Whose turn it is.")
    legal = serializers.ListField(
        child=serializers.JSONField(),
        help_text="What this seat may do now: in `play` the cards it may play; before play "
        "the moves open to it, each ready to send; empty when it is not its turn.",
    )
    trick = TrickCardSerializer(many=True, help_text="The current trick, leader first.")
    tricks_won = serializers.DictField(child=serializers.IntegerField())
    scores = serializers.DictField(child=serializers.IntegerField())
    move = serializers.IntegerField(
        allow_null=True, help_text="The state's number: send it back with the next move."
    )
    players = SeatPlayerSerializer(many=True, help_text="The game's players in seat order.")


class MoveInput(Input):
    """Documents the body; the view reads it as sent."""

    class Meta:
        ref_name = "PlayMoveInput"

    move = serializers.IntegerField(help_text="The `move` of the view the choice was made in.")
    action = serializers.CharField(
        help_text="One of the phase's choices: `play` (with `card`), `in`, `out`, `draw` "
        "(with `discard`), `bid` (with `bid`), ... as `legal` offers them. Every other key "
        "of the body goes to the game with it."
    )


class MoveConflictSerializer(ErrorSerializer):
    """A 409 on a move (`stale_move`, `not_your_turn`, `no_game`): the seat's view now."""

    class Meta:
        ref_name = "PlayMoveConflict"

    view = SeatViewSerializer(help_text="Where the table stands now.")


class SeatLinkSerializer(serializers.Serializer[Data]):
    player = serializers.CharField()
    table = serializers.IntegerField(help_text="The table's rank.")
    table_number = serializers.IntegerField(help_text="The physical table.")
    online = serializers.BooleanField(help_text="Whether the table plays online.")
    seat = serializers.IntegerField()
    robot = serializers.BooleanField()
    token = serializers.CharField(help_text="The player's credential: keep it to them.")
    url = serializers.URLField(help_text="The seat link to hand to the player (or its QR).")
