"""Bluke and Bluke (New Jersey): the cards dealt, the upcard, each player's bid and tricks.
The two rules ids differ in options the engine knows. Rules: docs/rules-bluke.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from engine import EngineUsageError
from engine.games.bluke import schedule
from scoring.games._base import (
    UPCARD_MAX,
    BeforeEntry,
    GameFamily,
    PrintColumn,
    RoundForm,
    in_seat_order,
    number_field,
)


class BlukeRoundForm(RoundForm):
    """The cards dealt, the upcard, bids and tricks."""

    # The hand size and the bids and tricks it allows change every hand: any whole number
    # reaches the engine, which says the schedule's size and the range in the game's words.
    cards = number_field(
        gettext_lazy("Cards dealt"),
        invalid=gettext_lazy("The cards dealt are a whole number, like 7."),
        low=1,
        help_text=gettext_lazy("Leave empty to use the schedule's hand size."),
    )
    upcard = forms.CharField(
        required=False,
        max_length=UPCARD_MAX,
        label=gettext_lazy("Upcard"),
        help_text=gettext_lazy("BH or BL for a Bluke (no trump)."),
        error_messages={
            "max_length": gettext_lazy("The upcard is one card, like 7H, or BH or BL for a Bluke.")
        },
    )
    top = ("dealer", "cards", "upcard")
    columns = ((pgettext_lazy("column", "Bid"), "bids"), (gettext_lazy("Tricks"), "tricks"))

    def player_field(self, prefix: str, name: str) -> forms.Field:
        if prefix == "bids":
            return number_field(
                gettext("Bid of %(name)s") % {"name": name},
                invalid=gettext("Bids are whole numbers, like 2."),
            )
        return number_field(
            gettext("Tricks taken by %(name)s") % {"name": name},
            invalid=gettext("Tricks are whole numbers, like 2."),
        )

    def to_round(self) -> dict[str, Any]:
        """Everything typed: a hand size of 0 or one off the schedule, a bid or a trick
        count out of range all reach the engine, which says what the schedule deals and
        what a bid may be (`wrong_cards`, `bid_out_of_range`, `bad_field`). A column left
        wholly blank is left out, so the engine asks for it in one line."""
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        if d.get("cards") is not None:
            result["cards"] = d["cards"]
        if d.get("upcard"):
            # Capitals and no surrounding spaces, as for Buck Euchre's upcard: the engine
            # reads a card in either case as the same card (BH, bh).
            result["upcard"] = d["upcard"].upper()
        if bids := self.per_player("bids"):
            result["bids"] = bids
        if tricks := self.per_player("tricks"):
            result["tricks"] = tricks
        return result

    @classmethod
    def initial_from_round(cls, players: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
        initial = super().initial_from_round(players, data)
        initial.update(cards=data.get("cards"), upcard=data.get("upcard"))
        return initial


def round_details(data: Mapping[str, Any], players: Sequence[str]) -> str:
    parts: list[str] = []
    if data.get("cards"):
        parts.append(gettext("%(cards)s cards") % {"cards": data["cards"]})
    if data.get("upcard"):
        parts.append(gettext("upcard %(upcard)s") % {"upcard": data["upcard"]})
    parts.append(gettext("bids: %(bids)s") % {"bids": in_seat_order(data.get("bids"), players)})
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
    words = {"number": number, "hands": len(sizes), "size": size, "lowest": lowest}
    return BeforeEntry(
        lines=(
            ngettext(
                "Hand %(number)s of %(hands)s: deal %(size)s card to each player.",
                "Hand %(number)s of %(hands)s: deal %(size)s cards to each player.",
                size,
            )
            % words,
            gettext(
                "Each player bids %(lowest)s to %(size)s before play; tricks taken run "
                "from 0 to %(size)s."
            )
            % words,
        ),
        initial={"cards": size},
    )


FAMILY = GameFamily(
    name="bluke",
    rules_ids=("bluke", "bluke-nj"),
    form=BlukeRoundForm,
    legend=gettext_lazy("* went set (-10 x bid)"),
    details=round_details,
    before_entry=before_entry,
    print_columns=(
        PrintColumn("cards", gettext_lazy("Cards"), per_player=False),
        PrintColumn("upcard", gettext_lazy("Upcard"), per_player=False, kind="text"),
        PrintColumn("bids", gettext_lazy("Bid")),
        PrintColumn("tricks", gettext_lazy("Tricks")),
        PrintColumn("hooks", gettext_lazy("Set"), kind="mark"),
        PrintColumn("score", gettext_lazy("Score")),
    ),
)
