"""What every rule set gives the engine, and what the engine gives every rule set.

A rule set (one game: Huckley Buck, later Buck Euchre, Bluke, ...) is an object with a
`RulesInfo` and two jobs: score the rounds of a game record, and simulate a game. The
engine's core (`engine.record`) checks the parts of a record that every game shares
(format, players, first dealer, options) and hands the rule set a `GameSetup` that is known
to be sound, so a rule set only ever deals with its own round fields.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NotRequired, TypedDict

FORMAT: Final = "buck-game/1"

OptionValue = int | bool | str


class Problem(TypedDict):
    """One entry of the output's `errors` (docs/engine.md, "Errors")."""

    round: int | None
    code: str
    message: str
    field: str | None
    player: NotRequired[str]


class EngineUsageError(Exception):
    """The engine was called wrongly by code (never by a scorer's input).

    A record a scorer wrote is never the cause: problems with a record are returned in
    `errors`. This is raised for calls such as `simulate` with an unknown rules id.
    """


def problem(
    round_number: int | None,
    code: str,
    message: str,
    field: str | None = None,
    player: str | None = None,
) -> Problem:
    """One entry of the output's `errors` list.

    `field` and `player` extend the spec's error shape so that a web form can put the
    message next to the input it concerns.
    """
    entry: Problem = {"round": round_number, "code": code, "message": message, "field": field}
    if player is not None:
        entry["player"] = player
    return entry


def show(value: Any) -> str:
    """A name or value as a message shows it: names bare, anything odd quoted."""
    if isinstance(value, str) and value.strip():
        return value
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def literal(value: Any) -> str:
    """A value as it was written in the JSON, quotes and all: ``"11"`` is not ``11``."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def names(items: list[str]) -> str:
    return ", ".join(items)


#: How a message names a round field: in plain words, never by its key in the record
#: (the key is the problem's `field`, for a form or a client to place the message).
FIELD_WORDS: Final[Mapping[str, str]] = {
    "dealer": "the dealer",
    "out": "who dropped",
    "tricks": "the tricks",
    "trick_winners": "the trick order",
    "penalties": "the penalties",
    "misdeal": "the misdeal mark",
    "upcard": "the upcard",
    "play": "the cards played",
    "trump": "trump",
    "declarer": "the declarer",
    "bids": "the bids",
    "points": "the card points",
    "doe_bonus": "the Doe's bonus",
    "cards": "the hand size",
    "first_dealer": "the first dealer",
    "calls": "the bidding",
    "discard": "the dealer's discard",
}


def field_words(field: str) -> str:
    """A round field as a message names it: ``"the trick order"`` for `trick_winners`."""
    return FIELD_WORDS.get(field, field.replace("_", " "))


def plural(count: int, one: str, many: str = "") -> str:
    """A count and its noun: ``"1 trick"``, ``"2 tricks"``."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def names_and(items: list[str]) -> str:
    """Two or more names as a sentence lists them: ``"Ann, Bob and Cy"``."""
    return f"{names(items[:-1])} and {items[-1]}"


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option a game record may set in `options`."""

    name: str
    default: OptionValue
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None

    def refuse(self, value: Any) -> str | None:
        """Why `value` is not allowed for this option, or None when it is."""
        if isinstance(self.default, bool):
            return None if isinstance(value, bool) else "must be true or false"
        if isinstance(self.default, int):
            if type(value) is not int:
                return "must be a whole number"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}"
            return None
        if value not in self.choices:
            return "must be one of " + ", ".join(f'"{c}"' for c in self.choices)
        return None


@dataclass(frozen=True, slots=True)
class TableSizes:
    """The table sizes a game's rule text recommends, for a tournament that seats many
    tables of it (docs/format.md, rules 1, 7 and 8).

    A split makes tables of `split_min`..`split_max`, aiming at `ideal` players with the
    rest spread; a table that has lost or gained players since still plays at
    `play_min`..`play_max`. The tournament seats no other size unless the director asks.
    """

    split_min: int
    split_max: int
    play_min: int
    play_max: int
    ideal: int = 4

    def __post_init__(self) -> None:
        # A game that states impossible sizes is a programming error, found at import.
        if not 1 <= self.play_min <= self.split_min <= self.split_max <= self.play_max:
            raise EngineUsageError(
                f"table sizes {self}: need 1 <= play_min <= split_min <= split_max <= play_max"
            )
        if not self.split_min <= self.ideal <= self.split_max:
            raise EngineUsageError(f"table sizes {self}: need split_min <= ideal <= split_max")


@dataclass(frozen=True, slots=True)
class RulesInfo:
    """What the tournament layer needs to know about a rule set without playing it."""

    id: str
    name: str
    min_players: int
    max_players: int
    lower_is_better: bool
    options: Mapping[str, OptionInfo]
    #: Round fields this rule set reads, for forms and docs.
    round_fields: tuple[str, ...] = ()
    strategies: tuple[str, ...] = ("random", "greedy")
    #: The table sizes the game's rule text recommends (see `TableSizes`); None when it
    #: recommends every size the game is played at, `table_sizes` then aiming at four.
    tables: TableSizes | None = None

    def __post_init__(self) -> None:
        sizes = self.tables
        if sizes is not None and not (
            self.min_players <= sizes.play_min and sizes.play_max <= self.max_players
        ):
            raise EngineUsageError(
                f"{self.id}: recommends tables of {sizes.play_min}-{sizes.play_max} players, "
                f"but is played by {self.min_players}-{self.max_players}"
            )

    @property
    def table_sizes(self) -> TableSizes:
        """The recommended table sizes: `tables`, or every size the game is played at."""
        if self.tables is not None:
            return self.tables
        low, high = self.min_players, self.max_players
        return TableSizes(low, high, low, high, ideal=min(max(4, low), high))

    @property
    def defaults(self) -> dict[str, OptionValue]:
        return {name: opt.default for name, opt in self.options.items()}

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "lower_is_better": self.lower_is_better,
            "options": {
                name: {"default": opt.default, "description": opt.description}
                | ({"choices": list(opt.choices)} if opt.choices else {})
                | ({"minimum": opt.minimum} if opt.minimum is not None else {})
                for name, opt in self.options.items()
            },
            "round_fields": list(self.round_fields),
            "strategies": list(self.strategies),
        }


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The checked top of a game record: who sits where, who deals first, the options.

    Named for what it is to the engine, the setting-up of one game; a `Table` is the
    tournament's table of a sitting (tournaments.models), which plays several games.
    """

    players: tuple[str, ...]
    seat: Mapping[str, int]
    first_dealer: int | None
    options: Mapping[str, Any]


class GameRecord(TypedDict):
    """A game record as the engine writes one (`simulate`; docs/game-record.md). `check`
    reads any JSON value, so it takes a plain mapping."""

    format: str
    rules: str
    players: list[str]
    first_dealer: str
    options: dict[str, Any]
    rounds: list[dict[str, Any]]
    # Extension (docs/game-record.md): who took a seat in the middle of the game.
    # `check` does not read it.
    substitutes: NotRequired[list[dict[str, Any]]]
    # Extension (docs/game-record.md): the players who are robots (the engine played every
    # move of their seat). `check` does not read it.
    robots: NotRequired[list[str]]


class Verdict(TypedDict):
    """What `engine.check` returns for a game record (docs/engine.md, "Output")."""

    valid: bool
    rules: str | None
    rounds: list[dict[str, Any]]
    scores: dict[str, int]
    finished: bool
    winner: str | list[str] | None
    next_dealer: str | None
    errors: list[Problem]


@dataclass(slots=True)
class GameResult:
    """A rule set's verdict on the rounds of one game, before it becomes the output JSON."""

    rounds: list[dict[str, Any]]
    scores: dict[str, int]
    finished: bool = False
    winner: str | list[str] | None = None
    next_dealer: str | None = None
    errors: list[Problem] = field(default_factory=list)


class RuleSet(ABC):
    """One game's rules. Subclasses live in `engine.games` and are found there."""

    info: RulesInfo

    @abstractmethod
    def score(self, setup: GameSetup, rounds: list[Any]) -> GameResult:
        """Check and score the rounds; stop at the first invalid one."""

    @abstractmethod
    def simulate(
        self, setup: GameSetup, *, rng: random.Random, strategy: str, card_play: bool
    ) -> list[dict[str, Any]]:
        """The rounds of a whole game played with legal decisions drawn from `rng`."""
