"""Bluke and Bluke (New Jersey): the cards dealt, the upcard, each player's bid and tricks.
The two rules ids differ in options the engine knows. Rules: docs/rules-bluke.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from engine import EngineUsageError
from engine.games.bluke import schedule
from scoring.games._base import BeforeEntry, GameFamily, PrintColumn, RoundForm, in_seat_order


class BlukeRoundForm(RoundForm):
    """The cards dealt, the upcard, bids and tricks."""

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


def round_details(data: Mapping[str, Any], players: Sequence[str]) -> str:
    parts: list[str] = []
    if data.get("cards"):
        parts.append(f"{data['cards']} cards")
    if data.get("upcard"):
        parts.append(f"upcard {data['upcard']}")
    parts.append(f"bids: {in_seat_order(data.get('bids'), players)}")
    return "; ".join(parts)


def before_entry(
    rules_id: str, options: Mapping[str, Any], players: int, number: int
) -> BeforeEntry:
    """The hand size of round `number` from the schedule, and the bids it allows."""
    try:
        sizes = schedule(rules_id, players, int(options.get("max_cards") or 0))
    except (EngineUsageError, ValueError):  # the engine says what is wrong on entry
        return BeforeEntry()
    if not 1 <= number <= len(sizes):
        return BeforeEntry()
    size = sizes[number - 1]
    lowest = 0 if options.get("allow_zero_bid") else 1
    cards = "card" if size == 1 else "cards"
    return BeforeEntry(
        lines=(
            f"Hand {number} of {len(sizes)}: deal {size} {cards} to each player.",
            f"Each player bids {lowest} to {size} before play; tricks taken run from 0 to {size}.",
        ),
        initial={"cards": size},
    )


FAMILY = GameFamily(
    name="bluke",
    rules_ids=("bluke", "bluke-nj"),
    form=BlukeRoundForm,
    legend="* went set (-10 x bid)",
    details=round_details,
    before_entry=before_entry,
    print_columns=(
        PrintColumn("cards", "Cards", per_player=False),
        PrintColumn("upcard", "Upcard", per_player=False, kind="text"),
        PrintColumn("bids", "Bid"),
        PrintColumn("tricks", "Tricks"),
        PrintColumn("hooks", "Set", kind="mark"),
        PrintColumn("score", "Score"),
    ),
)
