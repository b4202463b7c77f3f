"""Ten-Point Buck: each player's bid and the card points they captured, and who took the
Doe's bonus. Rules: docs/rules-ten-point-buck.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from engine.games.ten_point_buck.cards import DECK_POINTS
from engine.games.ten_point_buck.rounds import MAX_BID
from scoring.games._base import GameFamily, PrintColumn, RoundForm, in_seat_order, number_field


class TenPointRoundForm(RoundForm):
    """Bids, card points and the Doe bonus."""

    doe_bonus = forms.ChoiceField(
        required=False, label=gettext_lazy("Doe bonus (the Doe beat the Buck)")
    )
    top = ("dealer", "doe_bonus")
    columns = ((gettext_lazy("Bid"), "bids"), (gettext_lazy("Card points"), "points"))

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        doe_bonus = self.fields["doe_bonus"]
        assert isinstance(doe_bonus, forms.ChoiceField)
        doe_bonus.choices = [("", gettext("Nobody")), *self.choices]

    def player_field(self, prefix: str, name: str) -> forms.Field:
        # A bid or card points out of 0 to 220 reach the engine, which says the range.
        if prefix == "bids":
            return number_field(
                gettext("Bid of %(name)s") % {"name": name},
                invalid=gettext("Bids are whole numbers from 0 to %(high)s.") % {"high": MAX_BID},
                high=MAX_BID,
            )
        return number_field(
            gettext("Card points of %(name)s") % {"name": name},
            invalid=gettext("Card points are whole numbers from 0 to %(high)s.")
            % {"high": DECK_POINTS},
            high=DECK_POINTS,
        )

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


def round_details(data: Mapping[str, Any], players: Sequence[str]) -> str:
    parts = [
        gettext("bids: %(bids)s") % {"bids": in_seat_order(data.get("bids"), players)},
        gettext("card points: %(points)s") % {"points": in_seat_order(data.get("points"), players)},
    ]
    if data.get("doe_bonus"):
        parts.append(gettext("Doe bonus %(player)s") % {"player": data["doe_bonus"]})
    return "; ".join(parts)


FAMILY = GameFamily(
    name="ten_point_buck",
    rules_ids=("ten-point-buck",),
    form=TenPointRoundForm,
    legend=gettext_lazy("scores are Hunting Points"),
    details=round_details,
    print_columns=(
        PrintColumn("bids", gettext_lazy("Bid")),
        PrintColumn("points", gettext_lazy("Card points")),
        PrintColumn("doe_bonus", gettext_lazy("Doe bonus"), per_player=False, kind="text"),
        PrintColumn("score", gettext_lazy("Score")),
    ),
)
