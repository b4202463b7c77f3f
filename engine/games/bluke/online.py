"""A hand of Bluke or New Jersey Bluke played move by move (docs/engine.md, "Online
rounds").

The hand's size comes from the schedule and the round's number (`hand_sizes`: `bluke`
from the largest hand down to 1 and back up, `bluke-nj` from 1 up and back down). The
dealer deals one card at a time clockwise from the left (Dealing) and turns up the next
card: its suit is trump, a Bluke means no trump, and a hand that deals out all 54 cards
has no upcard and no trump. Then the phase ``bid``: each player from the dealer's left
bids once, ``{"action": "bid", "bid": 3}``, from 1 (0 with option `allow_zero_bid`) to
the cards dealt; then ``play``, led by the dealer's left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from engine.base import EngineUsageError
from engine.cards import SUITS
from engine.games._common.online import (
    TrickRound,
    bad_move,
    check_order,
    deal_hands,
    from_left,
    mask_of,
)
from engine.games.bluke import simulate as sim
from engine.games.bluke.cards import (
    BIT,
    BLUKE_SUIT,
    CARD_NAMES,
    DECK_SIZE,
    PARSE,
    SUIT_OF,
    trump_words,
)
from engine.games.bluke.play import legal_cards, renege_reason, trick_winner
from engine.games.bluke.rounds import Variant, hand_sizes
from engine.online_round import Move, MoveRefused, RoundStart

BID: Final = "bid"
#: A card of `engine.games.bluke.cards` in the simulator's rank-major numbering, whose
#: greedy decisions the robot makes.
TO_SIM: Final = (*((c % 13) * 4 + c // 13 for c in range(52)), 52, 53)
FROM_SIM: Final = tuple(TO_SIM.index(c) for c in range(DECK_SIZE))


def _mask(cards: Sequence[str]) -> int:
    return mask_of(cards, PARSE, BIT)


def _sim_mask(cards: Sequence[str]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << TO_SIM[PARSE[c]]
    return mask


def _sim_card(bit: int) -> str:
    return CARD_NAMES[FROM_SIM[bit.bit_length() - 1]]


class BlukeRound(TrickRound):
    """One hand of Bluke (`bluke`)."""

    PHASES: ClassVar[tuple[str, ...]] = (BID,)
    GAME: ClassVar[str] = "Bluke"
    PHASE_MOVES: ClassVar[Mapping[str, tuple[tuple[str, ...], str]]] = {
        BID: (("bid",), "while every player bids, as each does on every hand"),
    }
    VARIANT: ClassVar[Variant] = Variant(rising=False, blukes_in_trump=False)

    # -- the deal ----------------------------------------------------------------------

    @classmethod
    def pack(cls, start: RoundStart) -> list[str]:
        """The 52 cards and the two Blukes, BL and BH."""
        return list(CARD_NAMES)

    @classmethod
    def hand_size(cls, start: RoundStart) -> int:
        """The cards each player gets on this hand: the schedule's, by the round's number."""
        sizes = hand_sizes(
            len(start.players), cls.VARIANT.rising, int(start.options.get("max_cards", 0))
        )
        if not 1 <= start.number <= len(sizes):
            raise EngineUsageError(
                f"a game of {cls.GAME} has {len(sizes)} hands, not {start.number}"
            )
        return sizes[start.number - 1]

    @classmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> BlukeRound:
        cards = check_order(start, order, cls.pack(start))
        size = cls.hand_size(start)
        hands, top = deal_hands(start, cards, (1,) * size)
        rnd = cls(start, cls.new_state(BID, hands, cards[top:]))
        s = rnd.s
        if top < DECK_SIZE:
            up = cards[top]
            s["upcard"] = up
            suit = SUIT_OF[PARSE[up]]
            s["trump"] = None if suit == BLUKE_SUIT else SUITS[suit]
        s["turn"] = rnd.left_of(start.dealer)
        s["game"] = {"cards": size, "bids": {}}
        return rnd

    # -- helpers -----------------------------------------------------------------------

    @property
    def _trump(self) -> int:
        t = self.s["trump"]
        return BLUKE_SUIT if t is None else SUITS.index(t)

    @property
    def _nj(self) -> bool:
        return self.VARIANT.blukes_in_trump

    def _low(self) -> int:
        return 0 if self.start.options.get("allow_zero_bid", False) else 1

    # -- bidding -----------------------------------------------------------------------

    def legal_moves(self, player: str) -> list[Move]:
        size = self.s["game"]["cards"]
        return [{"action": "bid", "bid": b} for b in range(self._low(), size + 1)]

    def apply_phase(self, player: str, move: Mapping[str, Any]) -> None:
        s = self.s
        bid = move.get("bid")
        size = s["game"]["cards"]
        low = self._low()
        if type(bid) is not int:
            raise bad_move(f"A bid is a whole number from {low} to {size}, not {bid!r}.")
        if not low <= bid <= size:
            if bid == 0:
                why = "bids start at 1 in this game (a bid of 0 is not allowed)"
            else:
                cards = f"{size} card{'s' if size != 1 else ''}"
                why = f"with {cards} dealt a bid runs from {low} to {size}"
            raise MoveRefused("bid_out_of_range", f"You cannot bid {bid}: {why}.")
        s["game"]["bids"][player] = bid
        if not self.pass_turn(player, from_left(self.start)):
            self.begin_play(size)

    def robot_phase_move(self, player: str) -> Move:
        s = self.s
        bid = sim.greedy_bid(
            _sim_mask(s["hands"][player]), s["game"]["cards"], self._low(), self._trump
        )
        return {"action": "bid", "bid": bid}

    # -- the play ----------------------------------------------------------------------

    def parse(self, text: Any) -> str | None:
        c = PARSE.get(text) if isinstance(text, str) else None
        return None if c is None else CARD_NAMES[c]

    def _trick(self) -> list[int]:
        return [PARSE[c["card"]] for c in self.s["trick"]]

    def legal_cards(self, player: str) -> list[str]:
        hand = _mask(self.s["hands"][player])
        legal = legal_cards(hand, self._trick(), self._trump, self._nj)
        return self.sort_cards([CARD_NAMES[c] for c in range(DECK_SIZE) if legal & BIT[c]])

    def why_illegal(self, player: str, card: str, legal_now: list[str]) -> MoveRefused:
        hand = _mask(self.s["hands"][player])
        reason = renege_reason(hand, PARSE[card], self._trick(), self._trump, self._nj)
        reason = reason.replace("had to", "must", 1)
        return MoveRefused("must_follow", f"{card} may not be played now: you {reason}.")

    def trick_winner(self, cards: list[str]) -> int:
        return trick_winner([PARSE[c] for c in cards], self._trump)

    def robot_card(self, player: str) -> str:
        s = self.s
        need = s["won"][player] < s["game"]["bids"][player]
        trump = self._trump
        trick = self._trick()
        if not trick:
            return _sim_card(sim.greedy_lead(_sim_mask(s["hands"][player]), need, trump))
        legal = _sim_mask(self.legal_cards(player))
        best = TO_SIM[trick[trick_winner(trick, trump)]]
        return _sim_card(sim.greedy_follow(legal, best, need, trump))

    def sort_cards(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=PARSE.__getitem__)

    # -- what is shown and recorded ----------------------------------------------------

    def view_game(self, player: str | None) -> dict[str, Any]:
        game = self.s["game"]
        return {
            "cards": game["cards"],
            "bids": dict(game["bids"]),
            "trump_words": trump_words(self._trump),
        }

    def round_record(self) -> dict[str, Any]:
        s = self.s
        game = s["game"]
        rnd: dict[str, Any] = {"dealer": self.start.dealer, "cards": game["cards"]}
        if s["upcard"] is not None:
            rnd["upcard"] = s["upcard"]
        rnd["bids"] = dict(game["bids"])
        rnd["tricks"] = dict(s["won"])
        rnd["play"] = self.play_record()
        return rnd


class BlukeNJRound(BlukeRound):
    """One hand of New Jersey Bluke (`bluke-nj`): the schedule rises, and the Blukes
    belong to the trump suit."""

    GAME: ClassVar[str] = "New Jersey Bluke"
    VARIANT: ClassVar[Variant] = Variant(rising=True, blukes_in_trump=True)
