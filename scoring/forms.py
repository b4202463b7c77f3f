"""The round entry form: one row per player (dropped, tricks), penalties, the trick order.

It turns what the scorer typed into a round of the game record and puts the engine's
errors back beside the fields they concern.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

PENALTY_KINDS = [
    ("", "—"),
    ("misdeal", "Misdeal"),
    ("renege", "Renege"),
    ("incorrect_hand", "Incorrect hand"),
    ("wrong_discards", "Wrong number of discards"),
    ("undeclared_draw", "Dealer did not announce the draw"),
]
PENALTY_ROWS = 3
TRICKS = 5


class RoundForm(forms.Form):
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    dealer = forms.ChoiceField(label="Dealer")
    misdeal = forms.BooleanField(
        required=False,
        label="Misdeal (thrown in; the dealer is hooked and loses the deal)",
        label_suffix="",
    )

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        # Drops are allowed only at tables of five or more (ruling 1).
        self.allows_drops = len(self.players) >= 5
        choices = [(p, p) for p in self.players]
        self.fields["dealer"].choices = choices
        for i, name in enumerate(self.players, start=1):
            self.fields[f"out_{i}"] = forms.BooleanField(required=False, label=f"{name} dropped")
            self.fields[f"tricks_{i}"] = forms.IntegerField(
                required=False, min_value=0, max_value=TRICKS, label=f"Tricks taken by {name}"
            )
        for k in range(1, PENALTY_ROWS + 1):
            self.fields[f"penalty_player_{k}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *choices], label=f"Penalty {k}: player"
            )
            self.fields[f"penalty_kind_{k}"] = forms.ChoiceField(
                required=False, choices=PENALTY_KINDS, label=f"Penalty {k}: kind"
            )
        for t in range(1, TRICKS + 1):
            self.fields[f"trick_{t}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *choices], label=f"Trick {t} won by"
            )

    def player_rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [
            (name, self[f"out_{i}"], self[f"tricks_{i}"])
            for i, name in enumerate(self.players, start=1)
        ]

    def penalty_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"penalty_player_{k}"], self[f"penalty_kind_{k}"])
            for k in range(1, PENALTY_ROWS + 1)
        ]

    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"trick_{t}"] for t in range(1, TRICKS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for k in range(1, PENALTY_ROWS + 1):
            who, kind = data.get(f"penalty_player_{k}"), data.get(f"penalty_kind_{k}")
            if bool(who) != bool(kind):
                self.add_error(
                    f"penalty_kind_{k}" if who else f"penalty_player_{k}",
                    "Give both the player and the kind of penalty, or neither.",
                )
        order = [data.get(f"trick_{t}") for t in range(1, TRICKS + 1)]
        if any(order) and not all(order):
            self.add_error("trick_1", "Give the winner of every trick, or leave the order empty.")
        return data

    def to_round(self) -> dict[str, Any]:
        """The round in the game record's shape (`buck-game/1`)."""
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        penalties = [
            {"player": d[f"penalty_player_{k}"], "kind": d[f"penalty_kind_{k}"]}
            for k in range(1, PENALTY_ROWS + 1)
            if d.get(f"penalty_player_{k}") and d.get(f"penalty_kind_{k}")
        ]
        if d.get("misdeal"):
            result["misdeal"] = True
        else:
            out = [n for i, n in enumerate(self.players, 1) if d.get(f"out_{i}")]
            if out:
                result["out"] = out
            result["tricks"] = {
                n: d.get(f"tricks_{i}") or 0
                for i, n in enumerate(self.players, 1)
                if not d.get(f"out_{i}") or d.get(f"tricks_{i}")
            }
            order = [d.get(f"trick_{t}") for t in range(1, TRICKS + 1)]
            if all(order):
                result["trick_winners"] = order
        if penalties:
            result["penalties"] = penalties
        return result

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"dealer": data.get("dealer"), "misdeal": data.get("misdeal")}
        tricks = data.get("tricks") or {}
        out = data.get("out") or []
        for i, name in enumerate(players, start=1):
            initial[f"out_{i}"] = name in out
            if name in tricks:
                initial[f"tricks_{i}"] = tricks[name]
        for k, pen in enumerate(data.get("penalties") or [], start=1):
            if k <= PENALTY_ROWS:
                initial[f"penalty_player_{k}"] = pen.get("player")
                initial[f"penalty_kind_{k}"] = pen.get("kind")
        for t, who in enumerate(data.get("trick_winners") or [], start=1):
            if t <= TRICKS:
                initial[f"trick_{t}"] = who
        return initial

    def add_engine_errors(self, errors: Sequence[Mapping[str, Any]]) -> None:
        """Put each engine error beside the field it concerns; the rest above the form."""
        for error in errors:
            message = str(error.get("message", ""))
            target = self._field_for(error)
            if target and target in self.fields:
                self.add_error(target, message)
            else:
                self.add_error(None, message)

    def _field_for(self, error: Mapping[str, Any]) -> str | None:
        field, player = error.get("field"), error.get("player")
        seat = self.players.index(player) + 1 if player in self.players else None
        if field == "dealer":
            return "dealer"
        if field == "misdeal":
            return "misdeal"
        if field in ("tricks", "out") and seat:
            return f"{field}_{seat}"
        if field == "trick_winners":
            return "trick_1"
        if field == "penalties":
            return "penalty_player_1"
        return None
