"""A round of Ten-Point Buck played move by move (docs/engine.md, "Online rounds").

Ten cards each, dealt one at a time clockwise from the dealer's left; the rest are set
aside (Setup). The phase ``bid``: each player from the dealer's left bids the card points
they expect to take, ``{"action": "bid", "bid": 25}``, 0 to 220 (Bidding). Then ``play``:
ten tricks led first by the dealer's left, under the rank rule (no card of a value already
in the trick while the player holds another), the highest white card or else the first
highest normal card taking the trick, and the Doe taking a trick that holds the Buck,
which earns its player the Doe's bonus (Tricks, Legal Plays, The Doe).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from engine.games._common.online import TrickRound, bad_move, check_order, deal_hands, from_left
from engine.games.ten_point_buck.cards import (
    DECK_POINTS,
    KIND_NAMES,
    KIND_VALUE,
    KIND_WHITE,
    NAME_OF_BIT,
    PARSE,
    SLOT,
    VALUE_MASK,
)
from engine.games.ten_point_buck.play import HAND_SIZE, TRICKS, trick_winner
from engine.games.ten_point_buck.simulate import greedy_bid, greedy_card
from engine.online_round import Move, MoveRefused, RoundStart

BID: Final = "bid"
DOE: Final = "0w"
BUCK: Final = "10w"


def _mask(cards: Sequence[str]) -> int:
    """A hand as the simulator's bit mask: each card a free bit of its kind's block."""
    mask = 0
    for c in cards:
        free = SLOT[PARSE[c]] & ~mask
        mask |= free & -free
    return mask


def _value(card: str) -> int:
    return KIND_VALUE[PARSE[card]]


def _card_key(card: str) -> tuple[int, bool]:
    kind = PARSE[card]
    return KIND_VALUE[kind], KIND_WHITE[kind]


class TenPointBuckRound(TrickRound):
    """One round of Ten-Point Buck."""

    PHASES: ClassVar[tuple[str, ...]] = (BID,)
    GAME: ClassVar[str] = "Ten-Point Buck"
    PHASE_MOVES: ClassVar[Mapping[str, tuple[tuple[str, ...], str]]] = {
        BID: (("bid",), "while every player bids the card points they expect to take"),
    }

    @classmethod
    def pack(cls, start: RoundStart) -> list[str]:
        """The 56 cards: a white card of each value 0 (the Doe) to 10 (the Buck), and nine
        normal 1s, eight 2s, ..., one 9."""
        return list(NAME_OF_BIT)

    @classmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> TenPointBuckRound:
        cards = check_order(start, order, cls.pack(start))
        hands, top = deal_hands(start, cards, (1,) * HAND_SIZE)
        rnd = cls(start, cls.new_state(BID, hands, cards[top:]))
        rnd.s["turn"] = rnd.left_of(start.dealer)
        rnd.s["game"] = {"bids": {}, "points": {}, "doe_bonus": None}
        return rnd

    # -- bidding -----------------------------------------------------------------------

    def legal_moves(self, player: str) -> list[Move]:
        return [{"action": "bid", "bid": b} for b in range(DECK_POINTS + 1)]

    def apply_phase(self, player: str, move: Mapping[str, Any]) -> None:
        s = self.s
        bid = move.get("bid")
        if type(bid) is not int:
            raise bad_move(f"A bid is a whole number of card points, 0 or more, not {bid!r}.")
        if not 0 <= bid <= DECK_POINTS:
            why = (
                "a bid is a whole number 0 or more"
                if bid < 0
                else f"the whole deck holds {DECK_POINTS} points"
            )
            raise MoveRefused("bid_out_of_range", f"You cannot bid {bid}: {why}.")
        s["game"]["bids"][player] = bid
        if not self.pass_turn(player, from_left(self.start)):
            s["game"]["points"] = {p: 0 for p in self.players}
            self.begin_play(TRICKS)

    def robot_phase_move(self, player: str) -> Move:
        return {"action": "bid", "bid": greedy_bid(_mask(self.s["hands"][player]))}

    # -- the play ----------------------------------------------------------------------

    def parse(self, text: Any) -> str | None:
        kind = PARSE.get(text) if isinstance(text, str) else None
        return None if kind is None else KIND_NAMES[kind]

    def _in_trick(self) -> set[int]:
        return {_value(c["card"]) for c in self.s["trick"]}

    def legal_cards(self, player: str) -> list[str]:
        hand = self.s["hands"][player]
        barred = self._in_trick()
        legal = [c for c in hand if _value(c) not in barred] or list(hand)
        return self.sort_cards(list(dict.fromkeys(legal)))

    def why_illegal(self, player: str, card: str, legal_now: list[str]) -> MoveRefused:
        value = _value(card)
        earlier = next(c for c in self.s["trick"] if _value(c["card"]) == value)
        return MoveRefused(
            "rank_rule",
            f"A {value} is already in the trick ({earlier['card']} from {earlier['player']}): "
            f"you may not play another card of that rank while you hold a card of a rank "
            f"not in the trick ({', '.join(legal_now)}).",
        )

    def trick_winner(self, cards: list[str]) -> int:
        return trick_winner(cards)

    def trick_taken(self, winner: str, cards: list[str]) -> None:
        """The winner captures the trick's card points, and the Doe's bonus with the Doe
        on the Buck."""
        game = self.s["game"]
        game["points"][winner] += sum(_value(c) for c in cards)
        if DOE in cards and BUCK in cards:
            game["doe_bonus"] = winner

    def robot_card(self, player: str) -> str:
        s = self.s
        hand = _mask(s["hands"][player])
        in_trick = 0
        for c in s["trick"]:
            in_trick |= VALUE_MASK[_value(c["card"])]
        legal = hand & ~in_trick or hand
        best_bit = -1
        if s["trick"]:
            cards = [c["card"] for c in s["trick"]]
            best = cards[_strongest(cards)]
            best_bit = SLOT[PARSE[best]].bit_length() - 1
        short = s["game"]["points"][player] < s["game"]["bids"][player]
        return NAME_OF_BIT[greedy_card(legal, in_trick, best_bit, short)]

    def sort_cards(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=_card_key)

    # -- what is shown and recorded ----------------------------------------------------

    def view_game(self, player: str | None) -> dict[str, Any]:
        game = self.s["game"]
        return {
            "bids": dict(game["bids"]),
            "points": dict(game["points"]),
            "doe_bonus": game["doe_bonus"],
        }

    def round_record(self) -> dict[str, Any]:
        game = self.s["game"]
        return {
            "dealer": self.start.dealer,
            "bids": dict(game["bids"]),
            "points": dict(game["points"]),
            "doe_bonus": game["doe_bonus"],
            "play": self.play_record(),
        }


def _strongest(cards: list[str]) -> int:
    """The card winning a trick so far by strength alone (the first of equal normal
    cards), as the greedy player reads it: the Doe on the Buck is its own question."""
    best = 0
    for i, c in enumerate(cards):
        k, b = PARSE[c], PARSE[cards[best]]
        strength = (KIND_WHITE[k], KIND_VALUE[k])
        if strength > (KIND_WHITE[b], KIND_VALUE[b]):
            best = i
    return best
