"""Round entry forms, one per family of rules: they turn what a scorer typed into a round
of the game record and put the engine's errors back beside the fields they concern.

Every form has a dealer (pre-filled from the engine's `next_dealer`), fields about the
whole round (`top`), and one row per player with the same columns; the template renders
any of them.
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
NO_TRUMP = "none"


class RoundForm(forms.Form):
    """The shared part: the round number, the dealer, and per-player columns."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    dealer = forms.ChoiceField(label="Dealer")

    #: Round-level fields, shown above the players (names of form fields).
    top: tuple[str, ...] = ("dealer",)
    #: Per-player columns: (header, field prefix, form field factory).
    columns: tuple[tuple[str, str], ...] = ()
    has_penalties = False
    has_trick_order = False

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.choices = [(p, p) for p in self.players]
        dealer = self.fields["dealer"]
        assert isinstance(dealer, forms.ChoiceField)
        dealer.choices = self.choices
        for i, name in enumerate(self.players, start=1):
            for _header, prefix in self.visible_columns():
                self.fields[f"{prefix}_{i}"] = self.player_field(prefix, name)

    def visible_columns(self) -> tuple[tuple[str, str], ...]:
        return self.columns

    def player_field(self, prefix: str, name: str) -> forms.Field:
        raise NotImplementedError

    def top_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.top if name in self.fields]

    def player_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [
            (name, [self[f"{prefix}_{i}"] for _h, prefix in self.visible_columns()])
            for i, name in enumerate(self.players, start=1)
        ]

    def headers(self) -> list[str]:
        return [header for header, _ in self.visible_columns()]

    def per_player(self, prefix: str, *, keep_zero: bool = True) -> dict[str, Any]:
        d = self.cleaned_data
        values = {n: d.get(f"{prefix}_{i}") for i, n in enumerate(self.players, start=1)}
        return {n: v for n, v in values.items() if v is not None and (keep_zero or v)}

    def to_round(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"dealer": data.get("dealer")}
        for i, name in enumerate(players, start=1):
            for _h, prefix in cls.columns:
                value = data.get(cls.source_of(prefix))
                if isinstance(value, Mapping) and name in value:
                    initial[f"{prefix}_{i}"] = value[name]
                elif isinstance(value, list):
                    initial[f"{prefix}_{i}"] = name in value
        return initial

    @staticmethod
    def source_of(prefix: str) -> str:
        """The round field a column comes from."""
        return prefix

    def add_engine_errors(self, errors: Sequence[Mapping[str, Any]]) -> None:
        """Put each engine error beside the field it concerns; the rest above the form."""
        for error in errors:
            target = self.field_for(error)
            self.add_error(target if target in self.fields else None, str(error.get("message")))

    def field_for(self, error: Mapping[str, Any]) -> str | None:
        field, player = error.get("field"), error.get("player")
        if field in self.fields:
            return str(field)
        if player in self.players and field:
            candidate = f"{field}_{self.players.index(player) + 1}"
            if candidate in self.fields:
                return candidate
        return None


class DropsAndTricksForm(RoundForm):
    """Games where players may drop and the rest share five tricks (Huckley Buck,
    Hucklebuck, Buck Euchre)."""

    columns = (("Dropped", "out"), ("Tricks", "tricks"))

    def player_field(self, prefix: str, name: str) -> forms.Field:
        if prefix == "out":
            return forms.BooleanField(required=False, label=f"{name} dropped")
        return forms.IntegerField(
            required=False, min_value=0, max_value=TRICKS, label=f"Tricks taken by {name}"
        )

    def drops_and_tricks(self) -> dict[str, Any]:
        """`out` (when anyone dropped) and `tricks`: blank is 0 for a player who stayed in;
        a dropped player is listed only if the scorer gave them tricks (the engine then
        says why that is wrong)."""
        d = self.cleaned_data
        result: dict[str, Any] = {}
        out = [n for i, n in enumerate(self.players, 1) if d.get(f"out_{i}")]
        if out:
            result["out"] = out
        result["tricks"] = {
            n: d.get(f"tricks_{i}") or 0
            for i, n in enumerate(self.players, 1)
            if not d.get(f"out_{i}") or d.get(f"tricks_{i}")
        }
        return result


class TrickRoundForm(DropsAndTricksForm):
    """Huckley Buck and Hucklebuck: drops, tricks, penalties and the trick order."""

    misdeal = forms.BooleanField(
        required=False,
        label="Misdeal (thrown in; the dealer is hooked and loses the deal)",
        label_suffix="",
    )
    top = ("dealer", "misdeal")
    has_penalties = True
    has_trick_order = True

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        for k in range(1, PENALTY_ROWS + 1):
            self.fields[f"penalty_player_{k}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *self.choices], label=f"Penalty {k}: player"
            )
            self.fields[f"penalty_kind_{k}"] = forms.ChoiceField(
                required=False, choices=PENALTY_KINDS, label=f"Penalty {k}: kind"
            )
        for t in range(1, TRICKS + 1):
            self.fields[f"trick_{t}"] = forms.ChoiceField(
                required=False, choices=[("", "—"), *self.choices], label=f"Trick {t} won by"
            )

    def visible_columns(self) -> tuple[tuple[str, str], ...]:
        # Drops are allowed only at tables of five or more (ruling 1).
        return self.columns if len(self.players) >= 5 else (("Tricks", "tricks"),)

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
            result.update(self.drops_and_tricks())
            order = [d.get(f"trick_{t}") for t in range(1, TRICKS + 1)]
            if all(order):
                result["trick_winners"] = order
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


class BuckEuchreRoundForm(DropsAndTricksForm):
    """Buck Euchre: the upcard, trump, the declarer, drops and tricks."""

    upcard = forms.CharField(
        required=False, max_length=3, label="Upcard", help_text="For example JC or 9H."
    )
    trump = forms.ChoiceField(
        required=False,
        label="Trump",
        choices=[
            ("", "—"),
            ("S", "Spades"),
            ("H", "Hearts"),
            ("D", "Diamonds"),
            ("C", "Clubs"),
            (NO_TRUMP, "No trump (everyone passed)"),
        ],
    )
    declarer = forms.ChoiceField(required=False, label="Declarer")
    misdeal = forms.BooleanField(required=False, label="Misdeal", label_suffix="")
    top = ("dealer", "upcard", "trump", "declarer", "misdeal")

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        declarer = self.fields["declarer"]
        assert isinstance(declarer, forms.ChoiceField)
        declarer.choices = [("", "Nobody (dirty clubs or no trump)"), *self.choices]

    def to_round(self) -> dict[str, Any]:
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        if d.get("upcard"):
            result["upcard"] = d["upcard"].strip().upper()
        if d.get("misdeal"):
            result["misdeal"] = True
            return result
        trump = d.get("trump")
        result["trump"] = None if trump in ("", NO_TRUMP) else trump
        result["declarer"] = d.get("declarer") or None
        result.update(self.drops_and_tricks())
        return result

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_round(players, data)
        initial.update(
            upcard=data.get("upcard"),
            trump=data.get("trump") or (NO_TRUMP if "trump" in data else ""),
            declarer=data.get("declarer") or "",
            misdeal=data.get("misdeal"),
        )
        return initial


class TenPointRoundForm(RoundForm):
    """Ten-Point Buck: each player's bid and the card points they captured, and who took
    the Doe's bonus."""

    doe_bonus = forms.ChoiceField(required=False, label="Doe bonus (the Doe beat the Buck)")
    top = ("dealer", "doe_bonus")
    columns = (("Bid", "bids"), ("Card points", "points"))

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        doe_bonus = self.fields["doe_bonus"]
        assert isinstance(doe_bonus, forms.ChoiceField)
        doe_bonus.choices = [("", "Nobody"), *self.choices]

    def player_field(self, prefix: str, name: str) -> forms.Field:
        label = f"Bid of {name}" if prefix == "bids" else f"Card points of {name}"
        return forms.IntegerField(required=False, min_value=0, max_value=220, label=label)

    def to_round(self) -> dict[str, Any]:
        return {
            "dealer": self.cleaned_data["dealer"],
            "bids": self.per_player("bids"),
            "points": self.per_player("points"),
            "doe_bonus": self.cleaned_data.get("doe_bonus") or None,
        }

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_round(players, data)
        initial["doe_bonus"] = data.get("doe_bonus") or ""
        return initial


class BlukeRoundForm(RoundForm):
    """Bluke: the cards dealt, the upcard, each player's bid and tricks."""

    cards = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=52,
        label="Cards dealt",
        help_text="Leave empty to use the schedule's hand size.",
    )
    upcard = forms.CharField(
        required=False, max_length=3, label="Upcard", help_text="BH or BL for a Bluke (no trump)."
    )
    top = ("dealer", "cards", "upcard")
    columns = (("Bid", "bids"), ("Tricks", "tricks"))

    def player_field(self, prefix: str, name: str) -> forms.Field:
        label = f"Bid of {name}" if prefix == "bids" else f"Tricks taken by {name}"
        return forms.IntegerField(required=False, min_value=0, max_value=52, label=label)

    def to_round(self) -> dict[str, Any]:
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        if d.get("cards"):
            result["cards"] = d["cards"]
        if d.get("upcard"):
            result["upcard"] = d["upcard"].strip().upper()
        result["bids"] = self.per_player("bids")
        result["tricks"] = {n: v or 0 for n, v in self.per_player("tricks").items()}
        return result

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_round(players, data)
        initial.update(cards=data.get("cards"), upcard=data.get("upcard"))
        return initial


FORMS: dict[str, type[RoundForm]] = {
    "huckley-buck": TrickRoundForm,
    "hucklebuck": TrickRoundForm,
    "buck-euchre": BuckEuchreRoundForm,
    "ten-point-buck": TenPointRoundForm,
    "bluke": BlukeRoundForm,
    "bluke-nj": BlukeRoundForm,
}


def form_for(rules_id: str) -> type[RoundForm]:
    return FORMS[rules_id]
