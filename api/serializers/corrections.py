"""What a correction or a deletion of a round would change (`?preview=true`), the query
parameters that ask for it or confirm it, and a game's change history with what each
correction took off (docs/api.md, "Corrections that change more than their round")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from api.serializers import Data, Input, RoundFieldsSerializer
from scoring.corrections import Impact
from scoring.models import RoundChange


class Flag(serializers.BooleanField):
    """A query flag: `true` or `false` (and DRF's other spellings: 1/0, yes/no, on/off).
    Given with no value (`?preview=`) it is a 400 like any other unknown value: DRF would
    read an empty optional field as absent, and `?preview=` would make the change."""

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""  # refused by to_internal_value, as `abc` is
        return super().get_value(dictionary)


class ChangeOptions(Input):
    """Query parameters of a correction or a deletion."""

    class Meta:
        ref_name = "RoundChangeOptions"

    preview = Flag(
        default=False,
        help_text="Change nothing; answer with what the change would do (`preview`).",
    )
    confirm = Flag(
        default=False,
        help_text="Make the change even if it takes off rounds of the next game at the "
        "table (they stay in the change history and a director can restore them).",
    )


class NextGamePreviewSerializer(serializers.Serializer[Data]):
    action = serializers.ChoiceField(choices=["none", "keep", "start", "redeal", "withdraw"])
    number = serializers.IntegerField(allow_null=True)
    dealer_before = serializers.CharField(allow_null=True)
    dealer_after = serializers.CharField(
        allow_null=True, help_text="null with start or redeal: a high-card draw decides."
    )
    rounds_removed = serializers.IntegerField()


class ImpactSerializer(serializers.Serializer[Data]):
    needs_confirm = serializers.BooleanField(
        help_text="The change does more than fix its round: show `lines` and ask first."
    )
    reopens = serializers.BooleanField()
    winners_before = serializers.ListField(child=serializers.CharField())
    winners_after = serializers.ListField(child=serializers.CharField())
    next_game = NextGamePreviewSerializer()
    lines = serializers.ListField(child=serializers.CharField(), help_text="In plain words.")


class PreviewSerializer(serializers.Serializer[Data]):
    preview = ImpactSerializer()


def impact_data(impact: Impact) -> dict[str, Any]:
    plan = impact.next_game
    return {
        "needs_confirm": impact.needs_confirm,
        "reopens": impact.reopens,
        "winners_before": impact.winners_before,
        "winners_after": impact.winners_after,
        "next_game": {
            "action": plan.action,
            "number": plan.number,
            "dealer_before": plan.dealer_before,
            "dealer_after": plan.dealer_after,
            "rounds_removed": len(plan.rounds) if plan.removes else 0,
        },
        "lines": impact.lines(),
    }


def CorrectionAnswer(changed: type[serializers.Serializer[Data]], name: str) -> Any:
    """The answer of a correction or a deletion: what changed, or with `preview` what
    would."""
    return PolymorphicProxySerializer(
        component_name=name,
        serializers=[changed, PreviewSerializer],
        resource_type_field_name=None,
    )


class RemovedSerializer(serializers.Serializer[Data]):
    game = serializers.IntegerField(help_text="The next game's number.")
    first_dealer = serializers.CharField(allow_null=True)
    rounds = RoundFieldsSerializer(many=True)


class ChangeSerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    round_number = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["enter", "edit", "delete", "restore"])
    before = RoundFieldsSerializer(allow_null=True, help_text="The round before (null: none).")
    after = RoundFieldsSerializer(allow_null=True, help_text="The round after (null: none).")
    user = serializers.CharField(allow_null=True, help_text="The account, if any.")
    scorer_link = serializers.IntegerField(
        allow_null=True, help_text="The scorer link used, if any (its id)."
    )
    note = serializers.CharField(allow_blank=True)
    removed = RemovedSerializer(
        allow_null=True, help_text="The next game a correction took off, with its rounds."
    )
    restored_at = serializers.DateTimeField(
        allow_null=True, help_text="When a director restored this change (null: never)."
    )
    at = serializers.DateTimeField()


def change_data(c: RoundChange) -> dict[str, Any]:
    # before/after and the rounds taken off are rounds as stored: passed through as they
    # are, not re-shaped.
    stored = {"before": c.before, "after": c.after, "removed": c.removed}
    return (
        dict(
            ChangeSerializer(
                {
                    "id": c.pk,
                    "round_number": c.round_number,
                    "action": c.action,
                    "user": c.user.get_username() if c.user else None,
                    "scorer_link": c.scorer_link_id,
                    "note": c.note,
                    "restored_at": c.restored_at,
                    "at": c.at,
                    **stored,
                }
            ).data
        )
        | stored
    )
