"""Games and rounds in the game record format, and result entry through
`scoring.services` (the same calls as the score sheet)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.errors import StateConflict
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import (
    Data,
    GameSerializer,
    GameSummarySerializer,
    Input,
    PendingRoundSerializer,
    RoundConflictSerializer,
    RoundFieldsSerializer,
    RoundSerializer,
    VerdictSerializer,
)
from api.serializers.corrections import (
    ChangeOptions,
    ChangeSerializer,
    CorrectionAnswer,
    change_data,
    impact_data,
)
from api.views.base import ApiView
from common.errors import ConflictError
from play import duplicate
from scoring import records
from scoring import services as scoring
from scoring.corrections import correction_preview, round_change_restore
from scoring.models import Game, PendingRound, Round, RoundChange
from tournaments.permissions import Actor

TAGS = ["games"]
MAX_ROUND = 32767


def round_data(stored: Round, hidden: Collection[int]) -> dict[str, Any]:
    answer = dict(RoundSerializer(stored).data)
    return records.without_cards(answer) if stored.number in hidden else answer


def game_data(game_id: int, actor: Actor) -> dict[str, Any]:
    """The game as stored now, as `actor` may see it: summary, record (without the cards
    of its `cards_hidden` rounds) and the engine's verdict."""
    game = api_selectors.game_qs().get(pk=game_id)
    hidden = duplicate.cards_hidden(actor, game)
    rounds = duplicate.hide(game, hidden)
    data = dict(GameSummarySerializer(game).data)
    data["first_dealer_draw"] = dict(game.first_dealer_draw or {})
    data["record"] = records.game_record(game, rounds=rounds)
    data["verdict"] = records.game_check(game)
    data["cards_hidden"] = sorted(hidden)
    return data


def pending_data(pending: PendingRound, actor: Actor) -> dict[str, Any]:
    return dict(
        PendingRoundSerializer(
            {
                "number": pending.number,
                "data": pending.data,
                "entered_by": pending.entered_by.get_username() if pending.entered_by else None,
                "scorer_link": pending.scorer_link_id is not None,
                "yours": pending.device == actor.device,
                "created_at": pending.created_at,
            }
        ).data
        | {"round": dict(pending.data)}
    )


def _round_fields(body: Any) -> dict[str, Any]:
    if not isinstance(body, Mapping):
        raise exceptions.ValidationError(
            [gettext('A round is a JSON object: {"number": n, ...round fields}.')],
            code="not_an_object",
        )
    return {k: v for k, v in body.items() if k != "number"}


class GameView(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        game = get_object_or_404(api_selectors.game_qs(), pk=kwargs["game_id"])
        session = game.table.sitting.session
        return Target(club=session.club, session=session, table=game.table, obj=game)

    @property
    def game(self) -> Game:
        return self.target.obj_as(Game)


class GameDetail(GameView):
    @doc(
        need=Need.VIEW,
        summary="A game: its record and the engine's verdict",
        description="`record` is the game in the buck-game/1 format; `verdict` is what the "
        "engine says of it (scores per round, totals, winner, next dealer).",
        responses={200: GameSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(game_data(self.game.pk, self.actor))


class EnteredSerializer(serializers.Serializer[Data]):
    round = RoundSerializer()
    game = GameSummarySerializer()
    verdict = VerdictSerializer()


class PendingAnswerSerializer(serializers.Serializer[Data]):
    message = serializers.CharField()
    pending = PendingRoundSerializer()


class RoundEntrySerializer(RoundFieldsSerializer):
    number = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUND, help_text="The next round: rounds entered + 1."
    )


class RoundNumberSerializer(Input):
    number = serializers.IntegerField(min_value=1, max_value=MAX_ROUND)


class GameRounds(GameView):
    # A retry after a lost database connection (common/retry.py) may run a round entry
    # that had committed again: it finds the round stored and answers 409 with the game.
    repeatable = True

    @doc(
        need=Need.VIEW,
        summary="A game's rounds",
        description="Each round as entered, in the record format, with its number.",
        responses={200: RoundSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, game_id: int) -> Response:
        hidden = duplicate.cards_hidden(self.actor, self.game)
        return Response([round_data(r, hidden) for r in self.game.rounds.all()])

    @doc(
        need=Need.SCORE,
        summary="Enter a round",
        description="The body is the round in the record format with its `number` (the "
        "next one). The engine checks it with the game's earlier rounds:\n\n"
        "- 201: stored; the answer has the round and the game's new verdict.\n"
        "- 202: with double entry, the round waits for a second person at the table (or a "
        "director) to enter the same numbers.\n"
        "- 400 `round_invalid`: refused by the engine; `errors` lists each problem with its "
        "`code`, `message`, `field` and `player`. Nothing is stored.\n"
        "- 409 `round_number_taken` / `round_number_out_of_order`: that number is not the "
        "next one (another scorer was first, or the same round was sent twice without an "
        "Idempotency-Key); `game` is the game as stored now.\n"
        "- 409 `double_entry_mismatch`: with double entry, someone else entered this round "
        "differently; `entries` holds both. Both stay pending until one is entered again.\n"
        "- 409 `sitting_closed` / `session_not_running`: the players have moved on from this "
        "sitting, or the session is over; results can no longer change.",
        request=RoundEntrySerializer,
        responses={
            201: EnteredSerializer,
            202: PendingAnswerSerializer,
            409: OpenApiResponse(RoundConflictSerializer, "The state moved on; see `code`."),
        },
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, game_id: int) -> Response:
        fields = _round_fields(request.data)
        number_in = RoundNumberSerializer(data=request.data)
        number_in.is_valid(raise_exception=True)
        number = number_in.validated_data["number"]
        game_id = self.game.pk
        try:
            entry = scoring.round_submit(
                game_id=game_id, number=number, data=fields, actor=self.actor
            )
        except ConflictError as e:
            raise StateConflict(e, game=game_data(game_id, self.actor)) from None
        waiting = self._double_entry_answer(entry, game_id, number)
        if waiting is not None:
            return waiting
        if not entry.created:
            error = ConflictError(
                "round_number_taken",
                gettext(
                    "Round %(number)s has already been entered (with these numbers). Reload "
                    "the game; send an Idempotency-Key to make retries safe."
                )
                % {"number": number},
            )
            raise StateConflict(error, game=game_data(game_id, self.actor))
        return Response(self._entered(game_id, number), status=status.HTTP_201_CREATED)

    def _double_entry_answer(self, entry: Any, game_id: int, number: int) -> Response | None:
        """With double entry, a round that is not stored yet: a 409 when it disagrees
        with another person's entry, a 202 while it waits for one."""
        if entry.mismatch:
            entries = PendingRound.objects.filter(game_id=game_id, number=number)
            body = ConflictError("double_entry_mismatch", entry.mismatch).as_dict()
            body["entries"] = [pending_data(p, self.actor) for p in entries]
            # Returned, not raised: both entries are kept (the service's transaction commits).
            return Response(body, status=status.HTTP_409_CONFLICT)
        if entry.pending is not None:
            answer = {
                "message": gettext(
                    "Round %(number)s waits for a second person at the table (or a "
                    "director) to enter the same numbers."
                )
                % {"number": number},
                "pending": pending_data(entry.pending, self.actor),
            }
            return Response(answer, status=status.HTTP_202_ACCEPTED)
        return None

    @staticmethod
    def _entered(game_id: int, number: int) -> dict[str, Any]:
        game = api_selectors.game_qs().get(pk=game_id)
        stored = next(r for r in game.rounds.all() if r.number == number)
        return {
            "round": RoundSerializer(stored).data,
            "game": GameSummarySerializer(game).data,
            "verdict": records.game_check(game),
        }


class ChangedSerializer(serializers.Serializer[Data]):
    game = GameSummarySerializer()
    verdict = VerdictSerializer()


class CorrectedSerializer(ChangedSerializer):
    round = RoundSerializer()


class GameRound(GameView):
    def _options(self, request: Request) -> dict[str, bool]:
        options = ChangeOptions(data=request.query_params)
        options.is_valid(raise_exception=True)
        return dict(options.validated_data)

    def _stored(self, number: int) -> Any:
        stored = api_selectors.game_round(self.game, number) if number <= MAX_ROUND else None
        if stored is None:
            raise exceptions.NotFound(
                gettext("Game %(game_number)s has no round %(number)s.")
                % {"game_number": self.game.number, "number": number}
            )
        return stored

    @doc(
        need=Need.VIEW,
        summary="One round of a game",
        responses={200: RoundSerializer},
        tags=TAGS,
    )
    def get(self, request: Request, game_id: int, number: int) -> Response:
        hidden = duplicate.cards_hidden(self.actor, self.game)
        return Response(round_data(self._stored(number), hidden))

    @doc(
        need=Need.SCORE,
        summary="Correct a round",
        description="The body is the round's fields in the record format (a `number` in it "
        "is ignored). The whole game is checked again; a change that would make a later "
        "round wrong is refused (400 `later_round_invalid`, with the engine's errors), as "
        "is one that changes who won a game whose next game has rounds "
        "(409 `next_game_started`) unless `confirm=true`: then those rounds go, are kept "
        "in the change history, and a director can restore them. `preview=true` changes "
        "nothing and answers with what the correction would do (`preview.lines` in plain "
        "words; ask before sending it when `preview.needs_confirm`). Results are locked "
        "once the sitting's movement is confirmed (409 `sitting_closed`).",
        request=RoundFieldsSerializer,
        parameters=[ChangeOptions],
        responses={200: CorrectionAnswer(CorrectedSerializer, "RoundCorrectAnswer")},
        tags=TAGS,
    )
    @idempotent
    def put(self, request: Request, game_id: int, number: int) -> Response:
        fields = _round_fields(request.data)
        self._stored(number)
        options = self._options(request)
        game_id = self.game.pk
        if options["preview"]:
            impact = correction_preview(game_id=game_id, number=number, data=fields)
            return Response({"preview": impact_data(impact)})
        scoring.round_correct(
            game_id=game_id,
            number=number,
            data=fields,
            actor=self.actor,
            confirm=options["confirm"],
        )
        game = api_selectors.game_qs().get(pk=game_id)
        stored = next(r for r in game.rounds.all() if r.number == number)
        return Response(
            {
                "round": RoundSerializer(stored).data,
                "game": GameSummarySerializer(game).data,
                "verdict": records.game_check(game),
            }
        )

    @doc(
        need=Need.SCORE,
        summary="Delete a round",
        description="Later rounds move up one number and the whole game is checked again; "
        "a deletion that would make a later round wrong is refused "
        "(400 `later_round_invalid`). `preview` and `confirm` work as for a correction.",
        parameters=[ChangeOptions],
        responses={200: CorrectionAnswer(ChangedSerializer, "RoundDeleteAnswer")},
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, game_id: int, number: int) -> Response:
        self._stored(number)
        options = self._options(request)
        game_id = self.game.pk
        if options["preview"]:
            impact = correction_preview(game_id=game_id, number=number, data=None)
            return Response({"preview": impact_data(impact)})
        scoring.round_delete(
            game_id=game_id, number=number, actor=self.actor, confirm=options["confirm"]
        )
        game = api_selectors.game_qs().get(pk=game_id)
        return Response(
            {"game": GameSummarySerializer(game).data, "verdict": records.game_check(game)}
        )


class GameChanges(GameView):
    @doc(
        need=Need.DIRECT,
        summary="A game's change history",
        description="Every entry, correction, deletion and restore of a round: who "
        "(account or scorer link), when, before and after, and what a correction took off "
        "(`removed`). Newest first.",
        responses={200: ChangeSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response([change_data(c) for c in api_selectors.game_changes(self.game)])


class GameChangeRestore(GameView):
    @doc(
        need=Need.DIRECT,
        summary="Restore a correction or a deletion",
        description="Puts the round back as it was before the change, and enters again "
        "the next game's rounds the change took off; everything is checked by the engine "
        "again (400 with the engine's reason when play went on since in a way that no "
        "longer fits, 409 when the next game has changed or has rounds since; "
        "409 `not_restorable` for an entry, a restore, or a change restored already). "
        "Answers with the restore, as a line of the change history.",
        responses={200: ChangeSerializer},
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, game_id: int, change_id: int) -> Response:
        change = get_object_or_404(RoundChange, pk=change_id, game=self.game)
        restore = round_change_restore(change_id=change.pk, actor=self.actor)
        return Response(change_data(restore))


class GamePending(GameView):
    @doc(
        need=Need.SCORE,
        summary="Rounds waiting for a second entry",
        description="With double entry: rounds entered once and not yet confirmed.",
        responses={200: PendingRoundSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(
            [pending_data(p, self.actor) for p in api_selectors.pending_rounds(self.game)]
        )
