"""Huckley Buck and Hucklebuck played online, move by move (docs/engine.md, "Online rounds").

The round follows the texts (docs/rules.md) step by step:

* The deal: five cards each, one at a time from the top of the pack, beginning at the
  dealer's left (IHBA THE DEAL); the next card is the upcard, its suit trump.
* ``announce`` (tables of five or more only, IHBA THE ANNOUNCEMENT): each player in turn
  from the dealer's left says ``{"action": "in"}`` or ``{"action": "out"}``, until the
  table's drop limit is reached (then everyone left is in) or the dealer has spoken.
  `out` is offered only while the limit allows it, and never to the dealer when the option
  ``dealer_may_drop`` is off.
* ``draw``: each player in, in turn from the dealer's left (the dealer last), sends
  ``{"action": "draw", "discard": [cards]}``; ``[]`` stands pat. The replacements come
  from the top of the pack. IHBA: the dealer may keep the upcard with ``"take_upcard":
  true``, discarding at least one card and drawing one fewer from the pack. Hucklebuck:
  the upcard lies face up on top of the pack, so the first player to exchange draws it.
  **Decision** (the texts are silent): nobody may discard more cards than the pack has
  left to give (`too_many_discards`); the discards are never shuffled back in.
* ``play``: five tricks; the first player in to the dealer's left leads, each trick's
  winner leads the next; follow suit, and in Huckley Buck trump and kill (`play.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from engine.base import EngineUsageError
from engine.cards import (
    BIT,
    CARD_NAMES,
    PARSE,
    SUIT_MASK,
    SUIT_OF,
    SUIT_WORD,
    SUIT_WORDS,
    SUITS,
    describe,
    mask_to_cards,
)
from engine.games._common.online import (
    TrickPlay,
    beats_plain,
    cards_text,
    mask_of,
    read_action,
    read_card,
    read_cards,
    require_turn,
    seats_from_left,
)
from engine.games._common.play import first_leader
from engine.games.huckley.fields import DROPS_FROM, max_drops
from engine.games.huckley.play import HAND_SIZE, TRICKS, legal_follow, legal_kill
from engine.games.huckley.rounds import Variant
from engine.games.huckley.simulate import (
    greedy_card,
    greedy_discards,
    greedy_drops,
    greedy_keeps_upcard,
    greedy_throw,
)
from engine.online_round import END, PLAY, Move, MoveRefused, OnlineRound, RoundStart

ANNOUNCE = "announce"
DRAW = "draw"
#: The standard pack in the record's order: 2S .. AS, 2H .. AH, 2D .., 2C .. AC.
PACK = list(CARD_NAMES)


class HuckleyOnlineRound(OnlineRound):
    """One round of Huckley Buck or Hucklebuck; the subclasses set `VARIANT`."""

    PHASES: ClassVar[tuple[str, ...]] = (ANNOUNCE, DRAW)
    VARIANT: ClassVar[Variant]

    def __init__(self, start: RoundStart) -> None:
        self.start = start
        self.players = tuple(start.players)
        self.n = len(self.players)
        self.dealer = self.players.index(start.dealer)
        self.phase = DRAW
        self.hands: list[int] = [0] * self.n  # before play; `tricks` holds them in play
        self.upcard = -1
        self.upcard_with = -1  # the seat that took the upcard, -1 while it is face up
        self.stock: list[int] = []  # the pack left to draw from, top first
        self.calls: list[tuple[int, bool]] = []  # (seat, stays in), in the order called
        self.out: list[int] = []
        self.turns: list[int] = []  # who acts in this phase, in order
        self.turn = 0
        self.draws: list[tuple[int, list[int], list[int]]] = []  # seat, discards, drawn
        self.tricks: TrickPlay | None = None
        self.play_hands: list[int] = []  # hands as play starts, parallel to tricks.seats

    # --- the deal -------------------------------------------------------------------

    @classmethod
    def pack(cls, start: RoundStart) -> list[str]:
        return list(PACK)

    @classmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> HuckleyOnlineRound:
        if sorted(order) != sorted(PACK):
            raise EngineUsageError("the order must be a permutation of the round's pack")
        rnd = cls(start)
        cards = [PARSE[c] for c in order]
        n = rnd.n
        seats = seats_from_left(rnd.dealer, n)
        for i in range(HAND_SIZE * n):
            rnd.hands[seats[i % n]] |= BIT[cards[i]]
        rnd.upcard = cards[HAND_SIZE * n]
        # IHBA: the upcard lies before the dealer, apart from the pack; Hucklebuck turns
        # the top card of the draw pile, so it is the first card drawn.
        rest = HAND_SIZE * n if cls.VARIANT.upcard_to_anyone else HAND_SIZE * n + 1
        rnd.stock = cards[rest:]
        if n >= DROPS_FROM:
            rnd.phase = ANNOUNCE
            rnd.turns = seats
        else:
            rnd._begin_draw()
        return rnd

    # --- whose turn, what may be done -----------------------------------------------

    @property
    def trump(self) -> int:
        return SUIT_OF[self.upcard]

    def _seat_to_act(self) -> int | None:
        if self.phase == PLAY:
            assert self.tricks is not None
            return self.tricks.seat_to_play()
        if self.phase == END:
            return None
        return self.turns[self.turn]

    def to_act(self) -> str | None:
        s = self._seat_to_act()
        return None if s is None else self.players[s]

    def _may_drop(self, s: int) -> bool:
        if len(self.out) >= max_drops(self.n):
            return False
        return s != self.dealer or bool(self.start.options.get("dealer_may_drop", True))

    def _may_take_upcard(self, s: int) -> bool:
        return not self.VARIANT.upcard_to_anyone and s == self.dealer and self.upcard_with < 0

    def _max_discard(self, s: int, take_upcard: bool) -> int:
        # Keeping the upcard, the dealer draws one fewer than discarded (IHBA THE DRAW).
        return min(HAND_SIZE, len(self.stock) + (1 if take_upcard else 0))

    def _legal_mask(self) -> int:
        assert self.tricks is not None
        play = self.tricks
        hand = play.hands[play.position()]
        led, best, _at = play.led_and_best(beats_plain)
        rule = legal_kill if self.VARIANT.kill else legal_follow
        return rule(hand, led, best, self.trump)

    def legal(self, player: str) -> list[Any]:
        s = self._seat_to_act()
        if s is None or self.players[s] != player:
            return []
        if self.phase == ANNOUNCE:
            moves: list[Any] = [{"action": "in"}]
            if self._may_drop(s):
                moves.append({"action": "out"})
            return moves
        if self.phase == DRAW:
            moves = [{"action": "draw", "discard": [], "max_discard": self._max_discard(s, False)}]
            if self._may_take_upcard(s):
                moves.append(
                    {
                        "action": "draw",
                        "discard": [],
                        "take_upcard": True,
                        "min_discard": 1,
                        "max_discard": self._max_discard(s, True),
                    }
                )
            return moves
        return cards_text(mask_to_cards(self._legal_mask()))

    # --- moves ----------------------------------------------------------------------

    def apply(self, player: str, move: Move) -> None:
        require_turn(player, self.to_act())
        s = self._seat_to_act()
        assert s is not None
        if self.phase == ANNOUNCE:
            action = read_action(move, ("in", "out"), "while players say in or out")
            self._announce(s, action == "in")
        elif self.phase == DRAW:
            if isinstance(move, Mapping) and move.get("action") == "out":
                why = (
                    f"nobody may drop at a table of {self.n}"
                    if self.n < DROPS_FROM
                    else "the announcements are over and the draw has begun"
                )
                raise MoveRefused("cannot_drop", f"You cannot drop: {why}.")
            read_action(move, ("draw",), "in the draw")
            self._draw(s, move)
        else:
            read_action(move, ("play",), "while the tricks are played")
            self._play(move)

    def _announce(self, s: int, stays: bool) -> None:
        if not stays and not self._may_drop(s):
            if self.n < DROPS_FROM:
                why = f"nobody may drop at a table of {self.n}"
            elif len(self.out) >= max_drops(self.n):
                why = f"at a table of {self.n} only {max_drops(self.n)} may drop"
            else:
                why = "the dealer plays every round in this game"
            raise MoveRefused("cannot_drop", f"You cannot drop: {why}.")
        self.calls.append((s, stays))
        if not stays:
            self.out.append(s)
        self.turn += 1
        if self.turn == len(self.turns) or len(self.out) >= max_drops(self.n):
            self._begin_draw()

    def _begin_draw(self) -> None:
        self.phase = DRAW
        self.turns = [s for s in seats_from_left(self.dealer, self.n) if s not in self.out]
        self.turn = 0

    def _draw(self, s: int, move: Move) -> None:
        take = move.get("take_upcard", False)
        if type(take) is not bool:
            raise MoveRefused("bad_move", '"take_upcard" is true or false.')
        hand = self.hands[s]
        discard = read_cards(move, "discard", hand)
        if take and not self._may_take_upcard(s):
            if self.VARIANT.upcard_to_anyone:
                why = "in this game the upcard is the top card of the pack, drawn like any other"
            else:
                why = f"only the dealer ({self.players[self.dealer]}) may keep the upcard"
            raise MoveRefused("cannot_take_upcard", f"You cannot take the upcard: {why}.")
        if take and not discard:
            raise MoveRefused(
                "must_discard", "To keep the upcard, discard at least one card for it."
            )
        limit = self._max_discard(s, take)
        if len(discard) > limit:
            raise MoveRefused(
                "too_many_discards",
                f"You may discard at most {limit}: the pack has {len(self.stock)} "
                f"card{'s' if len(self.stock) != 1 else ''} left to draw.",
            )
        drawn: list[int] = []
        if take:
            drawn.append(self.upcard)
            self.upcard_with = s
        k = len(discard) - len(drawn)
        drawn += self.stock[:k]
        if self.VARIANT.upcard_to_anyone and k and self.upcard_with < 0:
            self.upcard_with = s  # the face-up top card goes to the first exchange
        del self.stock[:k]
        self.hands[s] = (hand & ~mask_of(discard)) | mask_of(drawn)
        self.draws.append((s, discard, drawn))
        self.turn += 1
        if self.turn == len(self.turns):
            self._begin_play()

    def _begin_play(self) -> None:
        seats = [s for s in range(self.n) if s not in self.out]
        hands = [self.hands[s] for s in seats]
        self.play_hands = list(hands)
        leader = first_leader(self.dealer, seats, self.n)
        self.tricks = TrickPlay.begin(seats, hands, self.trump, TRICKS, leader)
        self.hands = [0] * self.n
        self.phase = PLAY

    def _play(self, move: Move) -> None:
        assert self.tricks is not None
        play = self.tricks
        hand = play.hands[play.position()]
        card = read_card(move, hand)
        if not self._legal_mask() & BIT[card]:
            code, message = self._why_not(hand, card)
            raise MoveRefused(code, message)
        play.play(card, beats_plain)
        if play.done:
            self.phase = END

    def _why_not(self, hand: int, card: int) -> tuple[str, str]:
        """The rule an illegal card breaks, in the words of THE PLAY."""
        assert self.tricks is not None
        led, best, _at = self.tricks.led_and_best(beats_plain)
        trump = self.trump
        name = CARD_NAMES[card]
        follow = hand & SUIT_MASK[led]
        if follow and SUIT_OF[card] != led:
            return "must_follow", (
                f"You must follow suit to the {SUIT_WORD[led]} lead with one of your "
                f"{SUIT_WORDS[led]} ({describe(follow)}), not {name}."
            )
        trumps = hand & SUIT_MASK[trump]
        if not follow and SUIT_OF[card] != trump:
            return "must_trump", (
                f"You have no {SUIT_WORDS[led]}, so you must trump "
                f"({describe(trumps)}), not play {name}."
            )
        legal = self._legal_mask()
        return "must_kill", (
            f"You must beat {CARD_NAMES[best]} if you can: play {describe(legal)}, not {name}."
        )

    # --- what each player sees ------------------------------------------------------

    def view(self, player: str | None) -> dict[str, Any]:
        seat = self.players.index(player) if player in self.players else -1
        play = self.tricks
        if play is not None:
            counts = dict.fromkeys(self.players, 0)
            for s, h in zip(play.seats, play.hands, strict=True):
                counts[self.players[s]] = h.bit_count()
            own = play.hands[play.seats.index(seat)] if seat in play.seats else 0
            trick, finished = play.shown(self.players)
            won = {self.players[s]: k for s, k in play.tricks_won().items()}
        else:
            counts = {self.players[s]: self.hands[s].bit_count() for s in range(self.n)}
            for s in self.out:
                counts[self.players[s]] = 0
            own = self.hands[seat] if seat >= 0 and seat not in self.out else 0
            trick, finished, won = [], [], {}
        to_act = self.to_act()
        s_act = self._seat_to_act()
        draw = None
        if self.phase == DRAW and s_act == seat:
            draw = {
                "max_discard": self._max_discard(seat, False),
                "may_take_upcard": self._may_take_upcard(seat),
            }
        return {
            "phase": self.phase,
            "dealer": self.players[self.dealer],
            "hand": None if seat < 0 else cards_text(mask_to_cards(own)),
            "upcard": CARD_NAMES[self.upcard] if self.upcard_with < 0 else None,
            "trump": SUITS[self.trump],
            "to_act": to_act,
            "legal": self.legal(player) if player is not None else [],
            "trick": trick,
            "tricks": finished,
            "tricks_won": won,
            "counts": counts,
            "out": [self.players[s] for s in sorted(self.out)],
            "announcements": self._calls_json(),
            "draws": [
                {"player": self.players[s], "discarded": len(d), "drew": len(g)}
                for s, d, g in self.draws
            ],
            "pack": len(self.stock),
            "draw": draw,
        }

    def _calls_json(self) -> list[dict[str, str]]:
        return [{"player": self.players[s], "call": "in" if i else "out"} for s, i in self.calls]

    # --- the record -----------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        if self.phase != END or self.tricks is None:
            raise EngineUsageError("the round is not over: record() is only for a finished round")
        play = self.tricks
        names = self.players
        rnd: dict[str, Any] = {"dealer": names[self.dealer]}
        if self.out:
            rnd["out"] = [names[s] for s in sorted(self.out)]
        rnd["tricks"] = {names[s]: k for s, k in play.tricks_won().items()}
        rnd["trick_winners"] = [names[s] for s in play.winners]
        rnd["upcard"] = CARD_NAMES[self.upcard]
        rnd["play"] = {
            "hands": {
                names[s]: cards_text(mask_to_cards(h))
                for s, h in zip(play.seats, self.play_hands, strict=True)
            },
            "tricks": [cards_text(t) for t in play.tricks],
            "announcements": self._calls_json(),
            "draws": [
                {"player": names[s], "discard": cards_text(d), "drew": cards_text(g)}
                for s, d, g in self.draws
            ],
        }
        return rnd

    # --- the robot ------------------------------------------------------------------

    def robot_move(self, player: str) -> Move:
        require_turn(player, self.to_act())
        s = self._seat_to_act()
        assert s is not None
        trump = self.trump
        if self.phase == ANNOUNCE:
            drops = self._may_drop(s) and greedy_drops(self.hands[s], trump)
            return {"action": "out" if drops else "in"}
        if self.phase == DRAW:
            hand = self.hands[s]
            if self._may_take_upcard(s) and greedy_keeps_upcard(self.upcard):
                throw = greedy_throw(hand, trump)
                return {"action": "draw", "discard": [CARD_NAMES[throw]], "take_upcard": True}
            thrown = greedy_discards(hand, trump, self._max_discard(s, False))
            return {"action": "draw", "discard": cards_text(thrown)}
        assert self.tricks is not None
        play = self.tricks
        hand = play.hands[play.position()]
        led, best, _at = play.led_and_best(beats_plain)
        card = greedy_card(hand, self._legal_mask(), led, best, trump)
        return {"action": "play", "card": CARD_NAMES[card]}

    # --- stored state ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "rules_id": self.start.rules_id,
            "players": list(self.players),
            "dealer": self.start.dealer,
            "number": self.start.number,
            "options": dict(self.start.options),
            "scores": dict(self.start.scores),
            "earlier": [dict(r) for r in self.start.earlier],
            "phase": self.phase,
            "hands": [cards_text(mask_to_cards(h)) for h in self.hands],
            "upcard": CARD_NAMES[self.upcard],
            "upcard_with": self.upcard_with,
            "stock": cards_text(self.stock),
            "calls": [[s, i] for s, i in self.calls],
            "out": list(self.out),
            "turns": list(self.turns),
            "turn": self.turn,
            "draws": [[s, cards_text(d), cards_text(g)] for s, d, g in self.draws],
            "tricks": None if self.tricks is None else self.tricks.to_json(),
            "play_hands": [cards_text(mask_to_cards(h)) for h in self.play_hands],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HuckleyOnlineRound:
        start = RoundStart(
            rules_id=data["rules_id"],
            players=tuple(data["players"]),
            dealer=data["dealer"],
            number=data["number"],
            options=dict(data["options"]),
            scores=dict(data["scores"]),
            earlier=tuple(dict(r) for r in data["earlier"]),
        )
        rnd = cls(start)
        rnd.phase = data["phase"]
        rnd.hands = [_mask(h) for h in data["hands"]]
        rnd.upcard = PARSE[data["upcard"]]
        rnd.upcard_with = data["upcard_with"]
        rnd.stock = [PARSE[c] for c in data["stock"]]
        rnd.calls = [(s, bool(i)) for s, i in data["calls"]]
        rnd.out = list(data["out"])
        rnd.turns = list(data["turns"])
        rnd.turn = data["turn"]
        rnd.draws = [(s, _cards(d), _cards(g)) for s, d, g in data["draws"]]
        raw = data["tricks"]
        rnd.tricks = None if raw is None else TrickPlay.from_json(raw)
        rnd.play_hands = [_mask(h) for h in data["play_hands"]]
        return rnd


def _cards(texts: Sequence[str]) -> list[int]:
    return [PARSE[c] for c in texts]


def _mask(texts: Sequence[str]) -> int:
    return mask_of(_cards(texts))


#: The IHBA rules: trump and kill; only the dealer may keep the upcard.
IHBA: Final = Variant(kill=True, upcard_to_anyone=False)
#: Hucklebuck: follow suit only; the upcard tops the pack.
HB: Final = Variant(kill=False, upcard_to_anyone=True)


class HuckleyBuckRound(HuckleyOnlineRound):
    """`huckley-buck` online."""

    VARIANT = IHBA


class HucklebuckRound(HuckleyOnlineRound):
    """`hucklebuck` online."""

    VARIANT = HB
