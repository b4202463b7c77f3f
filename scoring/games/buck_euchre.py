"""Buck Euchre: the upcard, trump, the declarer, drops and tricks. Rules:
docs/rules-buck-euchre.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext_lazy

from scoring.games._base import UPCARD_MAX, DropsAndTricksForm, GameFamily, PrintColumn

NO_TRUMP = "none"
#: The engine's `trump_missing` ruling in a scorer's words: a trump left empty is never
#: read as a no-trump hand; "everyone passed" has to be chosen.
TRUMP_MISSING = gettext_noop(
    "Choose trump: the suit that was ordered up or named, or “No trump (everyone passed)” "
    "if every player passed both bidding rounds."
)


class BuckEuchreRoundForm(DropsAndTricksForm):
    """The upcard, trump, the declarer, drops and tricks."""

    upcard = forms.CharField(
        required=False,
        max_length=UPCARD_MAX,
        label=gettext_lazy("Upcard"),
        help_text=gettext_lazy("For example JC or 9H."),
        error_messages={"max_length": gettext_lazy("The upcard is one card, like JC or 9H.")},
    )
    trump = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Trump"),
        help_text=gettext_lazy("Leave empty only when the upcard is a club (dirty clubs)."),
        choices=[
            ("", "—"),
            ("S", pgettext_lazy("suit", "Spades")),
            ("H", pgettext_lazy("suit", "Hearts")),
            ("D", pgettext_lazy("suit", "Diamonds")),
            ("C", pgettext_lazy("suit", "Clubs")),
            (NO_TRUMP, gettext_lazy("No trump (everyone passed)")),
        ],
    )
    declarer = forms.ChoiceField(required=False, label=gettext_lazy("Declarer"))
    misdeal = forms.BooleanField(required=False, label=gettext_lazy("Misdeal"), label_suffix="")
    top = ("dealer", "upcard", "trump", "declarer", "misdeal")
    plain_messages = {"trump_missing": TRUMP_MISSING}

    def __init__(self, *args: Any, players: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        declarer = self.fields["declarer"]
        assert isinstance(declarer, forms.ChoiceField)
        declarer.choices = [("", gettext("Nobody (dirty clubs or no trump)")), *self.choices]

    def to_round(self) -> dict[str, Any]:
        """Everything typed, in every state. A misdeal keeps its upcard, trump, declarer,
        drops and tricks: the engine refuses the tricks (`misdeal_with_tricks`) and, by
        its rules, ignores the rest (docs/rules-buck-euchre.md, Misdeals); the form never
        decides that for it."""
        d = self.cleaned_data
        result: dict[str, Any] = {"dealer": d["dealer"]}
        if d.get("upcard"):
            # The one rewrite, decided for this field: capitals, because the engine reads a
            # card in either case as the same card (engine.cards.PARSE), and one spelling
            # keeps the score sheet tidy and two entries of one round equal. The spaces
            # around it are Django's `strip` (a phone's keyboard adds one after a word);
            # anything else typed, a card or not, goes to the engine as it is.
            result["upcard"] = d["upcard"].upper()
        if d.get("misdeal"):
            result["misdeal"] = True
        trump = d.get("trump")
        # An empty trump is left out of the round, never sent as no trump (null): the
        # engine then reads a club upcard as dirty clubs and refuses anything else with
        # `trump_missing`, which the form shows beside the field in plain words.
        if trump == NO_TRUMP:
            result["trump"] = None
        elif trump:
            result["trump"] = trump
        # "Nobody" is a choice of the list: the engine reads null as no declarer.
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


def round_details(data: Mapping[str, Any], players: Sequence[str]) -> str:
    if data.get("misdeal"):
        return ""
    parts: list[str] = []
    if data.get("upcard"):
        parts.append(gettext("upcard %(upcard)s") % {"upcard": data["upcard"]})
    if data.get("trump"):
        parts.append(gettext("trump %(trump)s") % {"trump": data["trump"]})
    elif "trump" in data:
        parts.append(gettext("no trump"))
    elif str(data.get("upcard", "")).upper().endswith("C"):
        # Trump left out over a club upcard: the engine reads it as dirty clubs.
        parts.append(gettext("dirty clubs"))
    if data.get("declarer"):
        parts.append(gettext("declarer %(declarer)s") % {"declarer": data["declarer"]})
    return "; ".join(parts)


FAMILY = GameFamily(
    name="buck_euchre",
    rules_ids=("buck-euchre",),
    form=BuckEuchreRoundForm,
    legend=gettext_lazy("* set (+5); scores count down from 25 and the lowest wins"),
    details=round_details,
    print_columns=(
        PrintColumn("upcard", gettext_lazy("Upcard"), per_player=False, kind="text"),
        PrintColumn("trump", gettext_lazy("Trump"), per_player=False, kind="text"),
        PrintColumn("declarer", gettext_lazy("Declarer"), per_player=False, kind="text"),
        PrintColumn("out", gettext_lazy("Dropped"), kind="mark"),
        PrintColumn("tricks", gettext_lazy("Tricks")),
        PrintColumn("hooks", gettext_lazy("Set"), kind="mark"),
        PrintColumn("score", gettext_lazy("Score")),
    ),
)
