"""The interface of a round played move by move: `OnlineRound`, `RoundStart`,
`MoveRefused` and the phase names. Read `engine.online`, which re-exports all of it and
finds a game's class by rules id; the games import it from here, below the registry
(``engine.online`` -> ``engine.registry`` -> ``engine.games`` -> this module), so that
the modules of `engine` import one another without a cycle.
"""

from __future__ import annotations

import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

#: A move as a phone sends it: ``{"action": "play", "card": "QS"}``, ``{"action": "out"}``,
#: ``{"action": "draw", "discard": ["2C", "7D"]}``, ``{"action": "bid", "bid": 3}``, ...
Move = dict[str, Any]

#: The phase of a round whose last card is played: `record()` may be called.
END: Final = "end"
#: The phase in which cards are played to tricks, in every game.
PLAY: Final = "play"


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, tuples of strings, numbers, booleans and
    None): what `copy.deepcopy` gives for it, several times faster. A round's state is
    copied on every restore and save, many times a second at a busy node."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(json_copy(v) for v in value)
    return value


def json_interned(value: Any) -> Any:
    """`json_copy`, with every string in it interned (`sys.intern`), keys and values: a
    round read back from its JSON names the same cards, players, keys and phases as
    every other copy in the process, and a server holding hundreds of tables' rounds
    keeps each such string once instead of once a table (docs/performance.md, "Less held
    a table"). Made on a restore only: a move moves strings already held."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, dict):
        return {
            sys.intern(k) if isinstance(k, str) else k: json_interned(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [json_interned(v) for v in value]
    if isinstance(value, tuple):
        return tuple(json_interned(v) for v in value)
    return value


class MoveRefused(Exception):
    """A move the round does not take, with the reason in the game's words.

    `code` is ``not_your_turn`` when someone else is to act (or the round is over), and
    otherwise names the rule (``must_follow``, ``must_trump``, ``not_in_hand``,
    ``bad_move``, ...).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class RoundStart:
    """Everything a round needs to know before its deal, all of it public."""

    rules_id: str
    players: tuple[str, ...]  # the game's players in seat order, clockwise
    dealer: str
    number: int  # the round's number in its game, from 1
    options: Mapping[str, Any]  # the game's options, defaults filled in
    scores: Mapping[str, int]  # every player's score before this round
    # The game's rounds so far, as records: read, never changed, shared by the round's
    # copies and its JSON (never copied).
    earlier: Sequence[Mapping[str, Any]] = field(default=())


class OnlineRound(ABC):
    """One round, from the deal to its last card.

    `phase` is `PLAY` while cards are played to tricks, `END` when the round is over, and
    the game's own names for the phases before play (``announce``, ``draw``, ``bid``, ...).
    """

    #: The phases before play, in order, as the API shows them (docs/api.md).
    PHASES: ClassVar[tuple[str, ...]] = ()

    start: RoundStart
    phase: str

    @classmethod
    @abstractmethod
    def pack(cls, start: RoundStart) -> list[str]:
        """The cards of this round's pack, unshuffled, as the game record writes them."""

    @classmethod
    @abstractmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> OnlineRound:
        """The round dealt from `order` (a permutation of `pack(start)`); the deal is made
        as the game's text deals, from the top of `order`."""

    @abstractmethod
    def to_act(self) -> str | None:
        """The player whose turn it is; None once the round is over."""

    @abstractmethod
    def legal(self, player: str) -> list[Any]:
        """What `player` may do now: in `PLAY` the cards they may play (card codes, each
        sent as ``{"action": "play", "card": code}``); in the other phases the moves open
        to them, each a move `apply` takes exactly as it is. A choice of many forms (the
        draw's discard) comes with a legal default the player may change, and may carry
        hint keys for the phone (``min_discard``, ``max_discard``) that `apply` ignores.
        Empty when it is not their turn."""

    @abstractmethod
    def apply(self, player: str, move: Move) -> None:
        """Make `player`'s move, or raise `MoveRefused` and change nothing."""

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """What `player` may see now, and nothing more; `None` for a watcher, who sees no
        hand. Keys in every game: ``phase``, ``player``, ``dealer``, ``hand`` (this
        player's cards; None for a watcher, ``[]`` once the player dropped), ``upcard``
        (when it is face up, else None), ``trump``, ``to_act``, ``legal``, ``trick`` (the
        current trick's cards, each ``{"player", "card"}``, leader first), ``tricks`` (the
        finished tricks, in the same form), ``last_trick`` (the trick taken last, as
        ``{"number", "cards", "winner"}``, or None before the first), ``tricks_won``
        (name to count), ``counts``
        (name to the number of cards held, 0 once dropped), ``out`` (who dropped, seat
        order); then the game's own: ``bids``, ``announcements``, ..."""

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The finished round as a round of the game record, with its cards (``upcard``,
        ``play.hands``, ``play.tricks`` and the game's own extensions); only in `END`."""

    @abstractmethod
    def robot_move(self, player: str) -> Move:
        """A legal move for `player`, who is to act, chosen at least as well as the
        engine's greedy strategy; the same state always gives the same move."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, hands included (store it, never show it)."""

    def json_data(self) -> dict[str, Any]:
        """`to_json`'s data for a store or a message that only writes it out at once (with
        `to_json_text`, or an encoder of its own): a game may give its state as it holds
        it, not copied first, so nothing may keep or change what this returns."""
        return self.to_json()

    def to_json_text(self) -> str:
        """`to_json` as compact JSON text (`json_data` written out)."""
        return json.dumps(self.json_data(), separators=(",", ":"))

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> OnlineRound:
        """The round `to_json` wrote."""
