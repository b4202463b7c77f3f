"""What every game family is made of: the round form base classes, the family record and
its print columns. The families themselves are the other modules of this package."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from django import forms
from django.utils.translation import gettext, gettext_lazy

from scoring import engine_words

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TRICKS = 5
#: The longest upcard the form takes. A card is two or three characters (9H, 10H, BH);
#: anything up to this ("10 H", "jack") reaches the engine, which says how a card is
#: written. Longer text is no card of any game, and the input stops there anyway.
UPCARD_MAX = 20


def number_field(
    label: StrOrPromise,
    *,
    invalid: StrOrPromise,
    low: int = 0,
    high: int | None = None,
    help_text: StrOrPromise = "",
) -> forms.Field:
    """A whole number a scorer types (tricks, a bid, card points, the cards dealt).

    Any whole number is taken and sent on: the engine refuses one out of the game's range
    in the game's words ("Ann's tricks must be a whole number from 0 to 5, not 6."), where
    a bound here would answer in Django's ("Ensure this value is less than or equal to
    5."). `low` and `high` only become the input's `min` and `max`, for the browser's
    stepper; the entry form is sent with `novalidate`, so they stop nothing. `invalid` is
    what the scorer reads for something that is not a whole number at all.
    """
    attrs: dict[str, Any] = {"min": low, "inputmode": "numeric"}
    if high is not None:
        attrs["max"] = high
    return forms.IntegerField(
        required=False,
        label=label,
        help_text=help_text,
        widget=forms.NumberInput(attrs=attrs),
        error_messages={"invalid": invalid},
    )


class RoundForm(forms.Form):
    """The shared part: the round number, the dealer, and per-player columns.

    Every form has a dealer (pre-filled from the engine's `next_dealer`), fields about the
    whole round (`top`), and one row per player with the same columns; the template
    `scoring/_round_form.html` renders any of them, plus the family's own markup
    (`extra_template`) when it has some.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # Made when the page is drawn and sent with the round, so that a resend (a double tap,
    # or the page sending a round it kept while the network was down) is stored once.
    entry_key = forms.RegexField(
        regex=r"^[A-Za-z0-9_-]{1,64}$", required=False, widget=forms.HiddenInput
    )
    dealer = forms.ChoiceField(label=gettext_lazy("Dealer"))

    #: Round-level fields, shown above the players (names of form fields).
    top: ClassVar[tuple[str, ...]] = ("dealer",)
    #: Per-player columns: (header, field prefix).
    columns: ClassVar[tuple[tuple[StrOrPromise, str], ...]] = ()
    #: A template with the family's own fields, rendered under the players' table.
    extra_template: ClassVar[str | None] = None
    #: The engine's error codes a scorer reads in the family's own words, by code.
    plain_messages: ClassVar[Mapping[str, str]] = {}

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

    def visible_columns(self) -> tuple[tuple[StrOrPromise, str], ...]:
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
        return [str(header) for header, _ in self.visible_columns()]

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
                value = data.get(prefix)
                if isinstance(value, Mapping) and name in value:
                    initial[f"{prefix}_{i}"] = value[name]
                elif isinstance(value, list):
                    initial[f"{prefix}_{i}"] = name in value
        return initial

    def add_engine_errors(self, errors: Sequence[Mapping[str, Any]]) -> None:
        """Put each engine error beside the field it concerns; the rest above the form."""
        for error in errors:
            target = self.field_for(error)
            code = str(error.get("code"))
            plain = self.plain_messages.get(code)  # marked with gettext_noop where written
            message = gettext(plain) if plain else engine_words.problem_message(error)
            self.add_error(target if target in self.fields else None, message)

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

    columns = ((gettext_lazy("Dropped"), "out"), (gettext_lazy("Tricks"), "tricks"))

    def player_field(self, prefix: str, name: str) -> forms.Field:
        if prefix == "out":
            return forms.BooleanField(
                required=False, label=gettext("%(name)s dropped") % {"name": name}
            )
        return number_field(
            gettext("Tricks taken by %(name)s") % {"name": name},
            invalid=gettext("Tricks are whole numbers from 0 to %(high)s.") % {"high": TRICKS},
            high=TRICKS,
        )

    def drops_and_tricks(self) -> dict[str, Any]:
        """`out` (when anyone dropped) and `tricks` (when any trick is filled in).

        Every number typed is sent, in any state of the form: a dropped player's, a
        misdeal's, one out of range. The engine says why it does not belong
        (`tricks_for_dropped_player`, `misdeal_with_tricks`, `bad_field`). A blank cell of
        a player who stayed in is sent as 0, the engine's own reading of a player left out
        of `tricks`, so that two entries of one round compare equal whether a scorer typed
        the 0 or not. With every cell blank `tricks` is left out: the engine then reads
        the tricks from the trick order, or asks for them (`tricks_missing`)."""
        d = self.cleaned_data
        result: dict[str, Any] = {}
        out = [n for i, n in enumerate(self.players, 1) if d.get(f"out_{i}")]
        if out:
            result["out"] = out
        typed = {n: d.get(f"tricks_{i}") for i, n in enumerate(self.players, 1)}
        if any(v is not None for v in typed.values()):
            result["tricks"] = {
                n: 0 if v is None else v for n, v in typed.items() if v is not None or n not in out
            }
        return result


@dataclass(frozen=True)
class PrintColumn:
    """One column of a paper score sheet: plain data, so any renderer (a page, a PDF) can
    draw the sheet a table fills in by hand and types in later."""

    #: The round field the column records (`tricks`, `bids`, `trump`), or `hooks` and
    #: `score` for what the scorer marks from the engine's rules.
    key: str
    header: StrOrPromise
    #: One cell per player in the round's row, or one cell for the whole round.
    per_player: bool = True
    #: What the cell holds: a number, a tick ("mark"), or a short text (a card, a name).
    kind: Literal["number", "mark", "text"] = "number"
    #: The column is printed only at tables of at least this many players.
    min_players: int = 0


def no_details(data: Mapping[str, Any], players: Sequence[str]) -> str:
    return ""


@dataclass(frozen=True)
class BeforeEntry:
    """What the scorer is told before entering a round, and what the form fills in."""

    lines: tuple[str, ...] = ()
    initial: Mapping[str, Any] | None = None


def nothing_before_entry(
    rules_id: str, options: Mapping[str, Any], players: int, number: int
) -> BeforeEntry:
    return BeforeEntry()


@dataclass(frozen=True)
class GameFamily:
    """The Django side of one or more rules ids that share a round form and a sheet."""

    #: The module's name, as in templates/scoring/games/<name>/.
    name: str
    rules_ids: tuple[str, ...]
    form: type[RoundForm]
    #: What the marks on the score sheet mean, after "D marks the dealer, ".
    legend: StrOrPromise = ""
    #: The game's own fields of a round, as a line under the round on the score sheet.
    details: Callable[[Mapping[str, Any], Sequence[str]], str] = no_details
    print_columns: tuple[PrintColumn, ...] = ()
    #: Told before round `number` is entered (Bluke: the hand size and the bids allowed);
    #: called with the rules id, the game's options, the number of players and `number`.
    before_entry: Callable[[str, Mapping[str, Any], int, int], BeforeEntry] = nothing_before_entry

    def __post_init__(self) -> None:
        if not self.rules_ids:
            raise ValueError(f"the family {self.name!r} has no rules id")

    def round_details(self, data: Mapping[str, Any], players: Sequence[str] = ()) -> str:
        return self.details(data, players)

    def print_columns_for(self, players: int) -> tuple[PrintColumn, ...]:
        """The columns of a paper score sheet for a table of `players`."""
        return tuple(c for c in self.print_columns if players >= c.min_players)


def in_seat_order(mapping: Any, players: Sequence[str] = ()) -> str:
    """A name -> value map in seat order (PostgreSQL's JSONB keeps its own key order)."""
    if not isinstance(mapping, Mapping):
        return ""
    seat = {name: i for i, name in enumerate(players)}
    ordered = sorted(mapping.items(), key=lambda kv: (seat.get(kv[0], len(seat)), str(kv[0])))
    return ", ".join(f"{k} {v}" for k, v in ordered)
