"""Huckley Buck (the IHBA rules) and Hucklebuck: drops, tricks, penalties, trick order.

The two rules ids differ only in options the engine knows (the tie-break), so they share
the form and the score sheet. Rules: docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from engine.games.huckley.fields import DROPS_FROM
from scoring.games._base import TRICKS, DropsAndTricksForm, GameFamily, PrintColumn

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PENALTY_KINDS = [
    ("", "—"),
    ("misdeal", gettext_lazy("Misdeal")),
    ("renege", gettext_lazy("Renege")),
    ("incorrect_hand", gettext_lazy("Incorrect hand")),
    ("wrong_discards", gettext_lazy("Wrong number of discards")),
    ("undeclared_draw", gettext_lazy("Dealer did not announce the draw")),
]
PENALTY_ROWS = 3


class TrickRoundForm(DropsAndTricksForm):
    """Drops, tricks, penalties and the trick order."""

    misdeal = forms.BooleanField(
        required=False,
        label=gettext_lazy("Misdeal (thrown in; the dealer is hooked and loses the deal)"),
        label_suffix="",
    )
    top = ("dealer", "misdeal")
    extra_template = "scoring/games/huckley/entry_extra.html"

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        for k in range(1, PENALTY_ROWS + 1):
            self.fields[f"penalty_player_{k}"] = forms.ChoiceField(
                required=False,
                choices=[("", "—"), *self.choices],
                label=gettext("Penalty %(k)s: player") % {"k": k},
            )
            self.fields[f"penalty_kind_{k}"] = forms.ChoiceField(
                required=False,
                choices=PENALTY_KINDS,
                label=gettext("Penalty %(k)s: kind") % {"k": k},
            )
        for t in range(1, TRICKS + 1):
            self.fields[f"trick_{t}"] = forms.ChoiceField(
                required=False,
                choices=[("", "—"), *self.choices],
                label=gettext("Trick %(t)s won by") % {"t": t},
            )

    def visible_columns(self) -> tuple[tuple[StrOrPromise, str], ...]:
        return (
            self.columns
            if len(self.players) >= DROPS_FROM
            else ((gettext_lazy("Tricks"), "tricks"),)
        )

    def penalty_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"penalty_player_{k}"], self[f"penalty_kind_{k}"])
            for k in range(1, PENALTY_ROWS + 1)
        ]

    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"trick_{t}"] for t in range(1, TRICKS + 1)]

    # The template opens a <details> once when any of its fields has a value or an error,
    # so an error inside it (the trick order after two players reach the target in one
    # round) is never hidden from the scorer.

    def penalties_open(self) -> bool:
        return any(p.value() or p.errors or k.errors for p, k in self.penalty_rows())

    def trick_order_open(self) -> bool:
        return any(t.value() or t.errors for t in self.trick_fields())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for k in range(1, PENALTY_ROWS + 1):
            who, kind = data.get(f"penalty_player_{k}"), data.get(f"penalty_kind_{k}")
            if bool(who) != bool(kind):
                self.add_error(
                    f"penalty_kind_{k}" if who else f"penalty_player_{k}",
                    gettext("Give both the player and the kind of penalty, or neither."),
                )
        order = [data.get(f"trick_{t}") for t in range(1, TRICKS + 1)]
        if any(order) and not all(order):
            self.add_error(
                "trick_1", gettext("Give the winner of every trick, or leave the order empty.")
            )
        return data

    def to_round(self) -> dict[str, Any]:
        """Everything typed, in every state: a misdeal keeps its tricks and trick order,
        and the engine refuses them (`misdeal_with_tricks`) rather than the form dropping
        them. Only a half-given penalty or trick order stops at the form (`clean`): a
        round cannot say it, and the form's refusal names what is missing."""
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        if d.get("misdeal"):
            result["misdeal"] = True
        result.update(self.drops_and_tricks())
        order = [d.get(f"trick_{t}") for t in range(1, TRICKS + 1)]
        if all(order):
            result["trick_winners"] = order
        penalties = [
            {"player": d[f"penalty_player_{k}"], "kind": d[f"penalty_kind_{k}"]}
            for k in range(1, PENALTY_ROWS + 1)
            if d.get(f"penalty_player_{k}") and d.get(f"penalty_kind_{k}")
        ]
        if penalties:
            result["penalties"] = penalties
        return result

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_round(players, data)
        initial["misdeal"] = data.get("misdeal")
        for k, pen in enumerate(data.get("penalties") or [], start=1):
            if k <= PENALTY_ROWS:
                initial[f"penalty_player_{k}"] = pen.get("player")
                initial[f"penalty_kind_{k}"] = pen.get("kind")
        for t, who in enumerate(data.get("trick_winners") or [], start=1):
            if t <= TRICKS:
                initial[f"trick_{t}"] = who
        return initial

    def field_for(self, error: Mapping[str, Any]) -> str | None:
        if error.get("field") == "trick_winners":
            return "trick_1"
        if error.get("field") == "penalties":
            return "penalty_player_1"
        return super().field_for(error)


FAMILY = GameFamily(
    name="huckley",
    rules_ids=("huckley-buck", "hucklebuck"),
    form=TrickRoundForm,
    legend=gettext_lazy("* a hook (-3, never below 0)"),
    print_columns=(
        PrintColumn("out", gettext_lazy("Dropped"), kind="mark", min_players=DROPS_FROM),
        PrintColumn("tricks", gettext_lazy("Tricks")),
        PrintColumn("hooks", gettext_lazy("Hook"), kind="mark"),
        PrintColumn("score", gettext_lazy("Score")),
    ),
)
