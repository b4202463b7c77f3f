"""What every game's online round shares (docs/engine.md, "Online rounds"): the round as
plain JSON-ready state, whose turn it is, the first checks of a move, the deal from the
dealer's left, the play of cards to tricks, what each player sees, and the record's
`play`.

Each game's `OnlineRound` (engine/games/<game>/online.py) subclasses `TrickRound` and
adds its phases before play (announcements, the draw, bidding, trump, drops, ...), which
card may be played and which card takes a trick. Everything a round knows is in `self.s`,
a dict of JSON data, so `to_json`/`from_json` round-trip it exactly. A move is checked
completely before anything is written: a refused move leaves the round as it was. A
move's keys that its action does not use are ignored, so every entry of `legal` (hints
such as ``max_discard`` included) is a move `apply` takes as it is.
"""

from __future__ import annotations

import sys
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self

from engine.base import EngineUsageError
from engine.online_round import (
    END,
    PLAY,
    Move,
    MoveRefused,
    OnlineRound,
    RoundStart,
    json_copy,
    json_interned,
)


def start_to_json(start: RoundStart, *, copy: bool = True) -> dict[str, Any]:
    """The round's start as JSON-ready data; sharing the start's own options when not
    `copy` (for data written out at once). The game's earlier rounds are records that
    nothing changes, a round or who holds its JSON (`RoundStart.earlier`): always
    shared, never copied (a restore and a save of a round late in a long game copied
    them each time)."""
    options = dict(start.options)
    return {
        "rules_id": start.rules_id,
        "players": list(start.players),
        "dealer": start.dealer,
        "number": start.number,
        "options": json_copy(options) if copy else options,
        "scores": dict(start.scores),
        "earlier": list(start.earlier),
    }


def start_from_json(data: Mapping[str, Any]) -> RoundStart:
    """The round's start read back, its strings interned (`json_interned`). The earlier
    rounds' records are copied once here, and from then on shared (`start_to_json`)."""
    return RoundStart(
        rules_id=sys.intern(data["rules_id"]),
        players=tuple(sys.intern(p) for p in data["players"]),
        dealer=sys.intern(data["dealer"]),
        number=data["number"],
        options=json_interned(data["options"]),
        scores=json_interned(dict(data["scores"])),
        earlier=tuple(json_interned(r) for r in data["earlier"]),
    )


def bad_move(message: str) -> MoveRefused:
    return MoveRefused("bad_move", message)


def check_order(start: RoundStart, order: Sequence[str], pack: Sequence[str]) -> list[str]:
    """`order` as a list, when it is the round's pack shuffled; `EngineUsageError`
    otherwise (a caller's mistake, not a player's)."""
    cards = list(order)
    if not all(isinstance(c, str) for c in cards) or sorted(cards) != sorted(pack):
        raise EngineUsageError(
            f"the order is not a shuffle of the {start.rules_id} pack of {len(pack)} cards"
        )
    if start.dealer not in start.players:
        raise EngineUsageError(f"the dealer {start.dealer!r} is not at the table")
    return cards


def mask_of(cards: Iterable[str], parse: Mapping[str, int], bit: Sequence[int]) -> int:
    """The bit mask of a game's rule functions holding `cards` (names as the record writes
    them, read with the game's `parse`)."""
    mask = 0
    for c in cards:
        mask |= bit[parse[c]]
    return mask


def from_left(start: RoundStart) -> list[str]:
    """Every player in turn from the dealer's left round to the dealer."""
    players = start.players
    d = players.index(start.dealer)
    return [players[(d + k) % len(players)] for k in range(1, len(players) + 1)]


def deal_hands(
    start: RoundStart, cards: Sequence[str], batches: Sequence[int]
) -> tuple[dict[str, list[str]], int]:
    """The hands dealt from the top of `cards` clockwise from the dealer's left, a batch
    of `batches[0]` cards each, then of `batches[1]`, ...; and how many cards were dealt."""
    hands: dict[str, list[str]] = {p: [] for p in start.players}
    top = 0
    seats = from_left(start)
    for batch in batches:
        for p in seats:
            hands[p].extend(cards[top : top + batch])
            top += batch
    return hands, top


class TrickRound(OnlineRound):
    """A round whose state is the JSON dict `s`, with the play of cards to tricks.

    Keys every game keeps: ``phase``, ``hands`` (name to the cards held now; a player who
    dropped keeps them here, unseen), ``undealt`` (the cards nobody holds: the upcard
    while nobody took it, the rest of the pack, the discards), ``upcard``, ``trump``,
    ``out`` (who dropped, seat order), ``in_play`` (who plays the tricks, seat order),
    ``turn`` (who acts in a phase before play), ``leader`` (who leads the current trick),
    ``trick`` and ``tricks`` (each card ``{"player", "card"}``), ``winners`` (who took
    each finished trick), ``won`` (tricks taken), ``play_hands`` (the hands as play
    began), ``total`` (the tricks the hand has) and ``game`` (the game's own).
    """

    GAME: ClassVar[str] = ""
    #: Each phase before play: the actions it takes, and the phase in words for the
    #: refusal of any other ("while the players bid").
    PHASE_MOVES: ClassVar[Mapping[str, tuple[tuple[str, ...], str]]] = {}

    def __init__(self, start: RoundStart, state: dict[str, Any]) -> None:
        self.start = start
        self.s = state

    # -- the state ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return str(self.s["phase"])

    @phase.setter
    def phase(self, value: str) -> None:
        self.s["phase"] = value

    @property
    def players(self) -> tuple[str, ...]:
        return self.start.players

    def left_of(self, player: str, step: int = 1) -> str:
        players = self.players
        return players[(players.index(player) + step) % len(players)]

    @staticmethod
    def new_state(phase: str, hands: dict[str, list[str]], undealt: list[str]) -> dict[str, Any]:
        return {
            "phase": phase,
            "hands": hands,
            "undealt": undealt,
            "upcard": None,
            "trump": None,
            "out": [],
            "in_play": [],
            "turn": None,
            "leader": None,
            "trick": [],
            "tricks": [],
            "winners": [],
            "won": {},
            "play_hands": None,
            "total": 0,
            "game": {},
        }

    def pass_turn(self, player: str, order: Sequence[str]) -> bool:
        """Give the turn to the player after `player` in `order` (the phase's turns);
        False, the turn unchanged, when `player` was the last."""
        i = order.index(player) + 1
        if i == len(order):
            return False
        self.s["turn"] = order[i]
        return True

    def drop(self, player: str) -> None:
        """`player` throws in the hand: out of play, holding nothing anyone may see."""
        out = self.s["out"]
        out.append(player)
        out.sort(key=self.players.index)

    def begin_play(self, total: int) -> None:
        """Play begins among every player who did not drop, for `total` tricks; the first
        of them to the dealer's left (the dealer last) leads."""
        s = self.s
        in_play = [p for p in self.players if p not in s["out"]]
        s["phase"] = PLAY
        s["in_play"] = in_play
        s["turn"] = None
        s["leader"] = next(p for p in from_left(self.start) if p in in_play)
        s["play_hands"] = {p: list(s["hands"][p]) for p in in_play}
        s["won"] = {p: 0 for p in in_play}
        s["total"] = total

    # -- the interface -----------------------------------------------------------------

    def to_act(self) -> str | None:
        s = self.s
        if s["phase"] == END:
            return None
        if s["phase"] != PLAY:
            return s["turn"]  # type: ignore[no-any-return]
        trick = s["trick"]
        if not trick:
            return s["leader"]  # type: ignore[no-any-return]
        in_play = s["in_play"]
        return in_play[(in_play.index(trick[-1]["player"]) + 1) % len(in_play)]  # type: ignore[no-any-return]

    def legal(self, player: str) -> list[Any]:
        if self.to_act() != player:
            return []
        if self.s["phase"] == PLAY:
            return self.legal_cards(player)
        return self.legal_moves(player)

    def require_turn(self, player: str) -> None:
        """Refuse anyone but the player to act (everyone, once the round is over)."""
        who = self.to_act()
        if who is None:
            raise MoveRefused("not_your_turn", "The round is over: no more moves are taken.")
        if player != who:
            raise MoveRefused(
                "not_your_turn", f"It is {who}'s turn, not {player}'s; wait for your turn."
            )

    def apply(self, player: str, move: Move) -> None:
        self.require_turn(player)
        if not isinstance(move, Mapping) or not isinstance(move.get("action"), str):
            raise bad_move(
                'A move is an object with an "action", like {"action": "play", "card": "QS"}.'
            )
        self.check_action(player, move["action"])
        if self.s["phase"] == PLAY:
            self._apply_card(player, move)
        else:
            self.apply_phase(player, move)

    def check_action(self, player: str, action: str) -> None:
        """Refuse an action the phase does not take."""
        phase = self.s["phase"]
        actions, words = (
            (("play",), "while the cards are played to tricks")
            if phase == PLAY
            else self.PHASE_MOVES[phase]
        )
        if action not in actions:
            allowed = " or ".join(f'"{a}"' for a in actions)
            raise bad_move(f'"{action}" is not a move {words}; the move now is {allowed}.')

    def read_card(self, move: Mapping[str, Any], hand: Sequence[str]) -> str:
        """The card of a move (its ``card``), which must be in `hand`."""
        raw = move.get("card")
        card = self.parse(raw)
        if card is None:
            raise bad_move(
                f"{raw!r} is not a card of the {self.GAME} pack; a move names one card, "
                'like {"action": "play", "card": "QS"}.'
            )
        if card not in hand:
            raise MoveRefused("not_in_hand", f"{card} is not in your hand.")
        return card

    def read_cards(self, move: Mapping[str, Any], key: str, hand: Sequence[str]) -> list[str]:
        """The list of cards under `key` of a move, each once and each in `hand`."""
        raw = move.get(key)
        if not isinstance(raw, list):
            raise bad_move(f'"{key}" must be a list of cards, like ["2C", "7D"].')
        cards: list[str] = []
        for text in raw:
            card = self.parse(text)
            if card is None:
                raise bad_move(f"{text!r} is not a card of the {self.GAME} pack.")
            if card in cards:
                raise bad_move(f"{card} is listed twice.")
            if card not in hand:
                raise MoveRefused("not_in_hand", f"{card} is not in your hand.")
            cards.append(card)
        return cards

    def _apply_card(self, player: str, move: Mapping[str, Any]) -> None:
        s = self.s
        hand = s["hands"][player]
        card = self.read_card(move, hand)
        legal = self.legal_cards(player)
        if card not in legal:
            raise self.why_illegal(player, card, legal)
        hand.remove(card)
        s["trick"].append({"player": player, "card": card})
        if len(s["trick"]) < len(s["in_play"]):
            return
        trick = s["trick"]
        cards = [c["card"] for c in trick]
        winner = trick[self.trick_winner(cards)]["player"]
        self.trick_taken(winner, cards)
        s["tricks"].append(trick)
        s["winners"].append(winner)
        s["trick"] = []
        s["won"][winner] += 1
        s["leader"] = winner
        if len(s["tricks"]) == s["total"]:
            s["phase"] = END
            s["leader"] = None

    def view(self, player: str | None) -> dict[str, Any]:
        """The keys every game shows (docs/engine.md), then the game's own."""
        s = self.s
        out = s["out"]
        hand = s["hands"].get(player) if player is not None else None
        if player in out:
            hand = []
        shown: dict[str, Any] = {
            "phase": s["phase"],
            "player": player,
            "dealer": self.start.dealer,
            "hand": self.sort_cards(hand) if hand is not None else None,
            "upcard": self.upcard_shown(),
            "trump": s["trump"],
            "to_act": self.to_act(),
            "legal": self.legal(player) if player is not None else [],
            "trick": json_copy(s["trick"]),
            "tricks": json_copy(s["tricks"]),
            "last_trick": self.last_trick(),
            "tricks_won": dict(s["won"]),
            "counts": {p: 0 if p in out else len(s["hands"][p]) for p in self.players},
            "out": list(out),
        }
        shown.update(self.view_game(player))
        return shown

    def last_trick(self) -> dict[str, Any] | None:
        """The trick taken last in this round, for a phone to show a moment before the
        table clears: its ``number`` (1 for the first), its ``cards`` (each ``{"player",
        "card"}``, leader first) and the ``winner`` who took it; None before the first
        trick is taken. Only cards everyone saw played."""
        s = self.s
        if not s["tricks"]:
            return None
        return {
            "number": len(s["tricks"]),
            "cards": json_copy(s["tricks"][-1]),
            "winner": s["winners"][-1],
        }

    def robot_move(self, player: str) -> Move:
        self.require_turn(player)
        if self.s["phase"] == PLAY:
            return {"action": "play", "card": self.robot_card(player)}
        return self.robot_phase_move(player)

    def record(self) -> dict[str, Any]:
        if self.s["phase"] != END:
            raise EngineUsageError("the round is not over: record() comes after its last card")
        return self.round_record()

    def play_record(self) -> dict[str, Any]:
        """The record's ``play``: the hands as play began and the tricks' cards."""
        s = self.s
        return {
            "hands": json_copy(s["play_hands"]),
            "tricks": [[c["card"] for c in trick] for trick in s["tricks"]],
        }

    def to_json(self) -> dict[str, Any]:
        return {"start": start_to_json(self.start), "state": json_copy(self.s)}

    def json_data(self) -> dict[str, Any]:
        # Written out at once, so nothing is copied first.
        return {"start": start_to_json(self.start, copy=False), "state": self.s}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(start_from_json(data["start"]), json_interned(dict(data["state"])))

    # -- what each game says -----------------------------------------------------------

    @abstractmethod
    def parse(self, text: Any) -> str | None:
        """The card written as `text` as the record writes it, or None."""

    @abstractmethod
    def legal_cards(self, player: str) -> list[str]:
        """The cards `player`, to play to the current trick, may play."""

    @abstractmethod
    def why_illegal(self, player: str, card: str, legal: list[str]) -> MoveRefused:
        """The refusal of `card`, held but not among `legal`."""

    @abstractmethod
    def trick_winner(self, cards: list[str]) -> int:
        """Index in `cards` (leader first) of the card that takes the trick."""

    @abstractmethod
    def robot_card(self, player: str) -> str: ...

    @abstractmethod
    def legal_moves(self, player: str) -> list[Move]: ...

    @abstractmethod
    def apply_phase(self, player: str, move: Mapping[str, Any]) -> None:
        """A move before play, its action one the phase takes; refuse it before changing
        anything."""

    @abstractmethod
    def robot_phase_move(self, player: str) -> Move: ...

    @abstractmethod
    def round_record(self) -> dict[str, Any]: ...

    def trick_taken(self, winner: str, cards: list[str]) -> None:
        """What a game counts when `winner` takes a trick, besides the trick itself."""

    def sort_cards(self, cards: list[str]) -> list[str]:
        return list(cards)

    def upcard_shown(self) -> str | None:
        """The upcard while it is face up, else None."""
        return self.s["upcard"]  # type: ignore[no-any-return]

    def view_game(self, player: str | None) -> dict[str, Any]:
        return {}
