"""Pieces of an online round (`engine.online.OnlineRound`) that any trick game may reuse.

* `require_turn`, `read_action`, `read_cards`: the first checks of a move, refused with
  `MoveRefused` in plain words.
* `TrickPlay`: the play of the tricks, card by card, as plain data: whose turn it is, the
  suit led and the card winning the trick so far (for the game's own legal-card rule), the
  finished tricks and their winners, JSON both ways.
* `seats_from_left`, `cards_text`, `mask_of`: small conversions.

Cards are the numbers of `engine.cards` (a hand is a bit mask); a game with another pack
passes its own card names where a function takes `names`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import BIT, CARD_NAMES, PARSE, SUIT_OF, mask_to_cards
from engine.online_round import Move, MoveRefused

#: ``beats(card, best, trump)``: whether `card` takes the trick from `best`.
Beats = Callable[[int, int, int], bool]


def seats_from_left(dealer: int, n: int) -> list[int]:
    """Every seat in turn from the dealer's left round to the dealer."""
    return [(dealer + k) % n for k in range(1, n + 1)]


def cards_text(cards: Sequence[int], names: Sequence[str] = CARD_NAMES) -> list[str]:
    """Card numbers as the game record writes them."""
    return [names[c] for c in cards]


def mask_of(cards: Sequence[int]) -> int:
    """The bit mask holding `cards`."""
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


def require_turn(player: str, to_act: str | None) -> None:
    """Refuse a move from anyone but the player to act (everyone, once the round is over)."""
    if to_act is None:
        raise MoveRefused("not_your_turn", "The round is over; there is nothing left to play.")
    if player != to_act:
        raise MoveRefused("not_your_turn", f"It is {to_act}'s turn, not {player}'s.")


def read_action(move: Any, actions: Sequence[str], phase_words: str) -> str:
    """The move's ``action``, which must be one of `actions` (those of the phase)."""
    action = move.get("action") if isinstance(move, Mapping) else None
    if not isinstance(action, str):
        raise MoveRefused(
            "bad_move", 'A move is an object with an "action", like {"action": "in"}.'
        )
    if action not in actions:
        allowed = " or ".join(f'"{a}"' for a in actions)
        raise MoveRefused(
            "bad_move", f'"{action}" is not a move {phase_words}; the move now is {allowed}.'
        )
    return action


def read_cards(move: Move, key: str, hand: int, parse: Mapping[str, int] = PARSE) -> list[int]:
    """The list of cards under `key` of a move, each once and each in `hand`."""
    raw = move.get(key)
    if not isinstance(raw, list):
        raise MoveRefused("bad_move", f'"{key}" must be a list of cards, like ["2C", "7D"].')
    cards: list[int] = []
    for text in raw:
        card = parse.get(text) if isinstance(text, str) else None
        if card is None:
            raise MoveRefused("bad_move", f"{text!r} is not a card; write rank then suit, like 7H.")
        if card in cards:
            raise MoveRefused("bad_move", f"{text} is listed twice.")
        if not hand & BIT[card]:
            raise MoveRefused("not_in_hand", f"{text} is not in your hand.")
        cards.append(card)
    return cards


def read_card(move: Move, hand: int, parse: Mapping[str, int] = PARSE) -> int:
    """The card of a ``play`` move, which must be in `hand`."""
    text = move.get("card")
    card = parse.get(text) if isinstance(text, str) else None
    if card is None:
        raise MoveRefused(
            "bad_move", 'A play names one card, like {"action": "play", "card": "QS"}.'
        )
    if not hand & BIT[card]:
        raise MoveRefused("not_in_hand", f"{text} is not in your hand.")
    return card


def beats_plain(card: int, best: int, trump: int) -> bool:
    """The usual rule: the highest trump wins, else the highest card of the suit led."""
    suit = SUIT_OF[card]
    best_suit = SUIT_OF[best]
    return (suit == best_suit and card > best) or (suit == trump and best_suit != trump)


@dataclass(slots=True)
class TrickPlay:
    """The tricks of a round, played card by card by the `seats` in play (seat order).

    `hands` are the cards each seat in play holds now (masks, parallel to `seats`),
    `first` the index into `seats` of the player who led trick 1, `leader` of the player
    who leads the current trick, `trick` its cards so far, `tricks` and `winners` (seats)
    the finished ones. Make one with `TrickPlay.begin`.
    """

    seats: list[int]
    hands: list[int]
    trump: int
    count: int  # tricks in the round
    first: int
    leader: int
    trick: list[int] = field(default_factory=list)
    tricks: list[list[int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    @classmethod
    def begin(
        cls, seats: list[int], hands: list[int], trump: int, count: int, leader: int
    ) -> TrickPlay:
        """The play of `count` tricks, `leader` (an index into `seats`) leading the first."""
        return cls(seats, hands, trump, count, leader, leader)

    @property
    def done(self) -> bool:
        return len(self.tricks) == self.count

    def position(self) -> int:
        """Index into `seats` of the player to play."""
        return (self.leader + len(self.trick)) % len(self.seats)

    def seat_to_play(self) -> int | None:
        return None if self.done else self.seats[self.position()]

    def led_and_best(
        self, beats: Beats = beats_plain, suit_of: Sequence[int] = SUIT_OF
    ) -> tuple[int, int, int]:
        """(suit led or -1, the card winning so far or -1, its index in the trick).

        `suit_of` gives each card's suit for following (a game with bowers passes its own).
        """
        if not self.trick:
            return -1, -1, -1
        best = self.trick[0]
        at = 0
        for j, card in enumerate(self.trick[1:], start=1):
            if beats(card, best, self.trump):
                best = card
                at = j
        return suit_of[self.trick[0]], best, at

    def play(self, card: int, beats: Beats = beats_plain) -> None:
        """Play `card` (already checked legal) for the player to play."""
        p = self.position()
        self.hands[p] ^= BIT[card]
        self.trick.append(card)
        if len(self.trick) == len(self.seats):
            _led, _best, at = self.led_and_best(beats)
            winner = (self.leader + at) % len(self.seats)
            self.tricks.append(self.trick)
            self.winners.append(self.seats[winner])
            self.trick = []
            self.leader = winner

    def tricks_won(self) -> dict[int, int]:
        """Seat to the number of tricks taken so far, every seat in play listed."""
        won = dict.fromkeys(self.seats, 0)
        for s in self.winners:
            won[s] += 1
        return won

    def shown(
        self, players: Sequence[str], names: Sequence[str] = CARD_NAMES
    ) -> tuple[list[dict[str, str]], list[list[dict[str, str]]]]:
        """The current trick and the finished ones, each card ``{"player", "card"}``,
        leader first."""
        m = len(self.seats)
        finished = []
        lead = self.first
        for t, cards in enumerate(self.tricks):
            finished.append(
                [
                    {"player": players[self.seats[(lead + j) % m]], "card": names[c]}
                    for j, c in enumerate(cards)
                ]
            )
            lead = self.seats.index(self.winners[t])
        current = [
            {"player": players[self.seats[(self.leader + j) % m]], "card": names[c]}
            for j, c in enumerate(self.trick)
        ]
        return current, finished

    def to_json(self, names: Sequence[str] = CARD_NAMES) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "hands": [cards_text(mask_to_cards(h), names) for h in self.hands],
            "trump": self.trump,
            "count": self.count,
            "first": self.first,
            "leader": self.leader,
            "trick": cards_text(self.trick, names),
            "tricks": [cards_text(t, names) for t in self.tricks],
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], parse: Mapping[str, int] = PARSE) -> TrickPlay:
        return cls(
            seats=list(data["seats"]),
            hands=[mask_of([parse[c] for c in h]) for h in data["hands"]],
            trump=data["trump"],
            count=data["count"],
            first=data["first"],
            leader=data["leader"],
            trick=[parse[c] for c in data["trick"]],
            tricks=[[parse[c] for c in t] for t in data["tricks"]],
            winners=list(data["winners"]),
        )
