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
    TrickRound,
    bad_move,
    check_order,
    deal_hands,
    from_left,
    mask_of,
)
from engine.games.huckley.fields import DROPS_FROM, max_drops
from engine.games.huckley.play import HAND_SIZE, TRICKS, beats, legal_follow, legal_kill
from engine.games.huckley.rounds import Variant
from engine.games.huckley.simulate import (
    greedy_card,
    greedy_discards,
    greedy_drops,
    greedy_keeps_upcard,
    greedy_throw,
)
from engine.online_round import Move, MoveRefused, RoundStart

ANNOUNCE: Final = "announce"
DRAW: Final = "draw"


def _mask(cards: Sequence[str]) -> int:
    return mask_of(cards, PARSE, BIT)


def _names(cards: Sequence[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _in_order(cards: Sequence[str]) -> list[str]:
    """Cards in the pack's order (2S .. AS, 2H .., 2D .., 2C .. AC), as hands are kept."""
    return sorted(cards, key=PARSE.__getitem__)


def _strongest(cards: Sequence[int], trump: int) -> int:
    """Index of the card winning `cards` (leader first): the highest trump, else the
    highest card of the suit led."""
    at = 0
    for j, card in enumerate(cards):
        if beats(card, cards[at], trump):
            at = j
    return at


class HuckleyOnlineRound(TrickRound):
    """One round of Huckley Buck or Hucklebuck; the subclasses set `VARIANT`.

    The game's own state (``s["game"]``): ``stock`` (the pack left to draw from, top
    first), ``upcard_with`` (who took the upcard, None while it is face up), ``turns``
    (who acts in this phase, in order), ``announcements`` and ``draws`` (as the record
    writes them).
    """

    PHASES: ClassVar[tuple[str, ...]] = (ANNOUNCE, DRAW)
    PHASE_MOVES: ClassVar[Mapping[str, tuple[tuple[str, ...], str]]] = {
        ANNOUNCE: (("in", "out"), "while players say in or out"),
        DRAW: (("draw",), "in the draw"),
    }
    VARIANT: ClassVar[Variant]

    # --- the deal -------------------------------------------------------------------

    @classmethod
    def pack(cls, start: RoundStart) -> list[str]:
        """The standard pack in the record's order: 2S .. AS, 2H .. AH, 2D .., 2C .. AC."""
        return list(CARD_NAMES)

    @classmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> HuckleyOnlineRound:
        cards = check_order(start, order, cls.pack(start))
        hands, top = deal_hands(start, cards, (1,) * HAND_SIZE)
        rnd = cls(start, cls.new_state(DRAW, {p: _in_order(h) for p, h in hands.items()}, []))
        s = rnd.s
        s["undealt"] = cards[top:]
        s["upcard"] = cards[top]
        s["trump"] = SUITS[SUIT_OF[PARSE[cards[top]]]]
        # IHBA: the upcard lies before the dealer, apart from the pack; Hucklebuck turns
        # the top card of the draw pile, so it is the first card drawn.
        stock = cards[top:] if cls.VARIANT.upcard_to_anyone else cards[top + 1 :]
        s["game"] = {
            "stock": stock,
            "upcard_with": None,
            "turns": [],
            "announcements": [],
            "draws": [],
        }
        if len(start.players) >= DROPS_FROM:
            s["phase"] = ANNOUNCE
            s["game"]["turns"] = from_left(start)
            s["turn"] = s["game"]["turns"][0]
        else:
            rnd._begin_draw()
        return rnd

    # --- whose turn, what may be done -----------------------------------------------

    @property
    def _trump(self) -> int:
        return SUIT_OF[PARSE[self.s["upcard"]]]

    def _may_drop(self, player: str) -> bool:
        if len(self.s["out"]) >= max_drops(len(self.players)):
            return False
        dealer_may_drop = bool(self.start.options.get("dealer_may_drop", True))
        return player != self.start.dealer or dealer_may_drop

    def _may_take_upcard(self, player: str) -> bool:
        return (
            not self.VARIANT.upcard_to_anyone
            and player == self.start.dealer
            and self.s["game"]["upcard_with"] is None
        )

    def _max_discard(self, take_upcard: bool) -> int:
        # Keeping the upcard, the dealer draws one fewer than discarded (IHBA THE DRAW).
        return min(HAND_SIZE, len(self.s["game"]["stock"]) + (1 if take_upcard else 0))

    def legal_moves(self, player: str) -> list[Move]:
        """In the draw each entry is a move that can be sent as it is, with a default
        discard the player may change: ``[]`` (stand pat), and for the IHBA dealer keeping
        the upcard the card the robot would give up for it. ``min_discard`` and
        ``max_discard`` are hints for the phone (how many cards the discard may hold);
        `apply` never reads them."""
        if self.s["phase"] == ANNOUNCE:
            moves: list[Move] = [{"action": "in"}]
            if self._may_drop(player):
                moves.append({"action": "out"})
            return moves
        moves = [{"action": "draw", "discard": [], "max_discard": self._max_discard(False)}]
        if self._may_take_upcard(player):
            throw = greedy_throw(_mask(self.s["hands"][player]), self._trump)
            moves.append(
                {
                    "action": "draw",
                    "discard": [CARD_NAMES[throw]],
                    "take_upcard": True,
                    "min_discard": 1,
                    "max_discard": self._max_discard(True),
                }
            )
        return moves

    # --- the announcements and the draw ---------------------------------------------

    def check_action(self, player: str, action: str) -> None:
        if self.s["phase"] == DRAW and action == "out":
            n = len(self.players)
            why = (
                f"nobody may drop at a table of {n}"
                if n < DROPS_FROM
                else "the announcements are over and the draw has begun"
            )
            raise MoveRefused("cannot_drop", f"You cannot drop: {why}.")
        super().check_action(player, action)

    def apply_phase(self, player: str, move: Mapping[str, Any]) -> None:
        if self.s["phase"] == ANNOUNCE:
            self._announce(player, move["action"] == "in")
        else:
            self._draw(player, move)

    def _announce(self, player: str, stays: bool) -> None:
        s = self.s
        n = len(self.players)
        if not stays and not self._may_drop(player):
            if len(s["out"]) >= max_drops(n):
                why = f"at a table of {n} only {max_drops(n)} may drop"
            else:
                why = "the dealer plays every round in this game"
            raise MoveRefused("cannot_drop", f"You cannot drop: {why}.")
        s["game"]["announcements"].append({"player": player, "call": "in" if stays else "out"})
        if not stays:
            self.drop(player)
        if len(s["out"]) >= max_drops(n) or not self.pass_turn(player, self.s["game"]["turns"]):
            self._begin_draw()

    def _begin_draw(self) -> None:
        s = self.s
        s["phase"] = DRAW
        s["game"]["turns"] = [p for p in from_left(self.start) if p not in s["out"]]
        s["turn"] = s["game"]["turns"][0]

    def _draw(self, player: str, move: Mapping[str, Any]) -> None:
        s = self.s
        game = s["game"]
        take = move.get("take_upcard", False)
        if type(take) is not bool:
            raise bad_move('"take_upcard" is true or false.')
        hand = s["hands"][player]
        discard = self.read_cards(move, "discard", hand)
        if take and not self._may_take_upcard(player):
            if self.VARIANT.upcard_to_anyone:
                why = "in this game the upcard is the top card of the pack, drawn like any other"
            else:
                why = f"only the dealer ({self.start.dealer}) may keep the upcard"
            raise MoveRefused("cannot_take_upcard", f"You cannot take the upcard: {why}.")
        if take and not discard:
            raise MoveRefused(
                "must_discard", "To keep the upcard, discard at least one card for it."
            )
        stock = game["stock"]
        limit = self._max_discard(take)
        if len(discard) > limit:
            raise MoveRefused(
                "too_many_discards",
                f"You may discard at most {limit}: the pack has {len(stock)} "
                f"card{'s' if len(stock) != 1 else ''} left to draw.",
            )
        drawn: list[str] = []
        if take:
            drawn.append(s["upcard"])
            game["upcard_with"] = player
        k = len(discard) - len(drawn)
        drawn += stock[:k]
        if self.VARIANT.upcard_to_anyone and k and game["upcard_with"] is None:
            game["upcard_with"] = player  # the face-up top card goes to the first exchange
        del stock[:k]
        s["hands"][player] = _in_order([c for c in hand if c not in discard] + drawn)
        s["undealt"] = [c for c in s["undealt"] if c not in drawn] + discard
        game["draws"].append({"player": player, "discard": discard, "drew": drawn})
        if not self.pass_turn(player, self.s["game"]["turns"]):
            self.begin_play(TRICKS)

    def robot_phase_move(self, player: str) -> Move:
        hand = _mask(self.s["hands"][player])
        trump = self._trump
        if self.s["phase"] == ANNOUNCE:
            drops = self._may_drop(player) and greedy_drops(hand, trump)
            return {"action": "out" if drops else "in"}
        if self._may_take_upcard(player) and greedy_keeps_upcard(PARSE[self.s["upcard"]]):
            throw = greedy_throw(hand, trump)
            return {"action": "draw", "discard": [CARD_NAMES[throw]], "take_upcard": True}
        thrown = greedy_discards(hand, trump, self._max_discard(False))
        return {"action": "draw", "discard": _names(thrown)}

    # --- the play -------------------------------------------------------------------

    def parse(self, text: Any) -> str | None:
        c = PARSE.get(text) if isinstance(text, str) else None
        return None if c is None else CARD_NAMES[c]

    def _led_and_best(self) -> tuple[int, int]:
        """The suit led and the card winning the trick so far; (-1, -1) for a lead."""
        trick = [PARSE[c["card"]] for c in self.s["trick"]]
        if not trick:
            return -1, -1
        return SUIT_OF[trick[0]], trick[_strongest(trick, self._trump)]

    def _legal_mask(self, player: str) -> int:
        led, best = self._led_and_best()
        rule = legal_kill if self.VARIANT.kill else legal_follow
        return rule(_mask(self.s["hands"][player]), led, best, self._trump)

    def legal_cards(self, player: str) -> list[str]:
        return _names(mask_to_cards(self._legal_mask(player)))

    def why_illegal(self, player: str, card: str, legal: list[str]) -> MoveRefused:
        """The rule an illegal card breaks, in the words of THE PLAY."""
        hand = _mask(self.s["hands"][player])
        led, best = self._led_and_best()
        trump = self._trump
        suit = SUIT_OF[PARSE[card]]
        follow = hand & SUIT_MASK[led]
        if follow and suit != led:
            return MoveRefused(
                "must_follow",
                f"You must follow suit to the {SUIT_WORD[led]} lead with one of your "
                f"{SUIT_WORDS[led]} ({describe(follow)}), not {card}.",
            )
        if not follow and suit != trump:
            return MoveRefused(
                "must_trump",
                f"You have no {SUIT_WORDS[led]}, so you must trump "
                f"({describe(hand & SUIT_MASK[trump])}), not play {card}.",
            )
        return MoveRefused(
            "must_kill",
            f"You must beat {CARD_NAMES[best]} if you can: play {', '.join(legal)}, not {card}.",
        )

    def trick_winner(self, cards: list[str]) -> int:
        return _strongest([PARSE[c] for c in cards], self._trump)

    def robot_card(self, player: str) -> str:
        led, best = self._led_and_best()
        hand = _mask(self.s["hands"][player])
        return CARD_NAMES[greedy_card(hand, self._legal_mask(player), led, best, self._trump)]

    def sort_cards(self, cards: list[str]) -> list[str]:
        return _in_order(cards)

    # --- what is shown and recorded -------------------------------------------------

    def upcard_shown(self) -> str | None:
        """Face up until the IHBA dealer keeps it or the Hucklebuck pack's first
        exchange draws it."""
        return self.s["upcard"] if self.s["game"]["upcard_with"] is None else None

    def view_game(self, player: str | None) -> dict[str, Any]:
        game = self.s["game"]
        draw = None
        if self.s["phase"] == DRAW and player is not None and self.to_act() == player:
            draw = {
                "max_discard": self._max_discard(False),
                "may_take_upcard": self._may_take_upcard(player),
            }
        return {
            "announcements": [dict(c) for c in game["announcements"]],
            "draws": [
                {"player": d["player"], "discarded": len(d["discard"]), "drew": len(d["drew"])}
                for d in game["draws"]
            ],
            "pack": len(game["stock"]),
            "draw": draw,
        }

    def round_record(self) -> dict[str, Any]:
        s = self.s
        game = s["game"]
        rnd: dict[str, Any] = {"dealer": self.start.dealer}
        if s["out"]:
            rnd["out"] = list(s["out"])
        rnd["tricks"] = dict(s["won"])
        rnd["trick_winners"] = list(s["winners"])
        rnd["upcard"] = s["upcard"]
        rnd["play"] = self.play_record() | {
            "announcements": [dict(c) for c in game["announcements"]],
            "draws": [
                {"player": d["player"], "discard": list(d["discard"]), "drew": list(d["drew"])}
                for d in game["draws"]
            ],
        }
        return rnd


#: The IHBA rules: trump and kill; only the dealer may keep the upcard.
IHBA: Final = Variant(kill=True, upcard_to_anyone=False)
#: Hucklebuck: follow suit only; the upcard tops the pack.
HB: Final = Variant(kill=False, upcard_to_anyone=True)


class HuckleyBuckRound(HuckleyOnlineRound):
    """`huckley-buck` online."""

    GAME = "Huckley Buck"
    VARIANT = IHBA


class HucklebuckRound(HuckleyOnlineRound):
    """`hucklebuck` online."""

    GAME = "Hucklebuck"
    VARIANT = HB
