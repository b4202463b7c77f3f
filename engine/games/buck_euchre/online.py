"""A round of Buck Euchre played move by move (docs/engine.md, "Online rounds").

The phases are the text's (Game play): ``order``, the first bidding round, where each
player from the dealer's left may order up the upcard's suit and the dealer, last, may
accept it; ``name``, the second round, where each player may name another suit;
``discard``, the dealer's discard after taking the upcard; ``drop``, where the players
other than the declarer, clockwise from the declarer's left, stay in or drop; then
``play``. A club upcard makes clubs trump with no bidding (dirty clubs), and four passes
in both rounds give a hand without trump: then nobody drops.

Moves: ``{"action": "trump", "suit": "H"}`` (order up, accept or name a suit),
``{"action": "pass"}``, ``{"action": "discard", "card": "9S"}``, ``{"action": "out"}``
(drop), ``{"action": "in"}`` (stay in), ``{"action": "play", "card": "QS"}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from engine.cards import BIT, CARD_NAMES, SUIT_OF, SUIT_WORD, SUIT_WORDS
from engine.games._common.online import TrickRound, bad_move, check_order, deal_hands, mask_of
from engine.games.buck_euchre.cards import (
    CLUBS,
    NO_TRUMP,
    PACK_CARDS,
    PACK_PARSE,
    STRENGTH,
    SUIT,
    describe,
    left_bower,
)
from engine.games.buck_euchre.fields import LETTERS, SUIT_LETTERS
from engine.games.buck_euchre.play import TRICKS, legal, trick_winner
from engine.games.buck_euchre.simulate import (
    greedy_card,
    greedy_discard,
    greedy_drops,
    greedy_names,
    greedy_orders,
)
from engine.online_round import Move, MoveRefused, RoundStart

ORDER: Final = "order"
NAME: Final = "name"
DISCARD: Final = "discard"
DROP: Final = "drop"


def _mask(cards: Sequence[str]) -> int:
    return mask_of(cards, PACK_PARSE, BIT)


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in PACK_CARDS if mask & BIT[c]]


class BuckEuchreRound(TrickRound):
    """One hand of Buck Euchre, from the deal to the fifth trick."""

    PHASES: ClassVar[tuple[str, ...]] = (ORDER, NAME, DISCARD, DROP)
    GAME: ClassVar[str] = "Buck Euchre"
    PHASE_MOVES: ClassVar[Mapping[str, tuple[tuple[str, ...], str]]] = {
        ORDER: (("trump", "pass"), "in the first bidding round (order up the upcard's suit)"),
        NAME: (("trump", "pass"), "in the second bidding round (name another suit)"),
        DISCARD: (("discard",), "while the dealer discards after taking the upcard"),
        DROP: (("in", "out"), "while the players but the declarer stay in or drop"),
    }

    # -- the deal ----------------------------------------------------------------------

    @classmethod
    def pack(cls, start: RoundStart) -> list[str]:
        """The 24 cards, 9 to ace of each suit."""
        return [CARD_NAMES[c] for c in PACK_CARDS]

    @classmethod
    def deal(cls, start: RoundStart, order: Sequence[str]) -> BuckEuchreRound:
        """Five cards each from the dealer's left, a batch of three and then of two (Setup),
        and the next card turned up."""
        cards = check_order(start, order, cls.pack(start))
        hands, top = deal_hands(start, cards, (3, 2))
        upcard = cards[top]
        rnd = cls(start, cls.new_state(ORDER, hands, cards[top:]))
        s = rnd.s
        s["upcard"] = upcard
        s["game"] = {"calls": [], "declarer": None, "decided": [], "discard": None}
        if SUIT_OF[PACK_PARSE[upcard]] == CLUBS:
            # Dirty clubs: clubs are trump with no bidding and nobody drops.
            s["trump"] = "C"
            if start.options.get("club_upcard_to_dealer", False):
                rnd._take_upcard()
            else:
                rnd.begin_play(TRICKS)
        else:
            s["turn"] = rnd.left_of(start.dealer)
        return rnd

    # -- helpers -----------------------------------------------------------------------

    @property
    def _up_suit(self) -> int:
        return SUIT_OF[PACK_PARSE[self.s["upcard"]]]

    @property
    def _trump(self) -> int:
        t = self.s["trump"]
        return NO_TRUMP if t is None else SUIT_LETTERS[t]

    def _take_upcard(self) -> None:
        s = self.s
        dealer = self.start.dealer
        s["hands"][dealer].append(s["upcard"])
        s["undealt"].remove(s["upcard"])
        s["phase"] = DISCARD
        s["turn"] = dealer

    def _after_discard(self) -> None:
        s = self.s
        declarer = s["game"]["declarer"]
        if declarer is None:
            self.begin_play(TRICKS)
        else:
            s["phase"] = DROP
            s["turn"] = self.left_of(declarer)

    # -- the phases before play --------------------------------------------------------

    def legal_moves(self, player: str) -> list[Move]:
        s = self.s
        phase = s["phase"]
        if phase == ORDER:
            return [{"action": "trump", "suit": LETTERS[self._up_suit]}, {"action": "pass"}]
        if phase == NAME:
            up = self._up_suit
            return [{"action": "trump", "suit": LETTERS[t]} for t in range(4) if t != up] + [
                {"action": "pass"}
            ]
        if phase == DISCARD:
            return [
                {"action": "discard", "card": c}
                for c in self.sort_cards(s["hands"][player])
                if c != s["upcard"]
            ]
        return [{"action": "in"}, {"action": "out"}]

    def apply_phase(self, player: str, move: Mapping[str, Any]) -> None:
        s = self.s
        phase = s["phase"]
        action = move["action"]
        game = s["game"]
        if phase in (ORDER, NAME):
            if action == "pass":
                game["calls"].append({"player": player, "action": "pass"})
                self._next_bidder(player)
                return
            suit = self._read_suit(move.get("suit"))
            game["calls"].append({"player": player, "action": "trump", "suit": LETTERS[suit]})
            game["declarer"] = player
            s["trump"] = LETTERS[suit]
            if phase == ORDER:
                self._take_upcard()
            else:
                self._after_discard()
            return
        if phase == DISCARD:
            hand = s["hands"][player]
            card = self.read_card(move, hand)
            if card == s["upcard"]:
                raise MoveRefused(
                    "discard_upcard",
                    f"{card} is the upcard you took: the dealer takes the upcard and "
                    "discards another card.",
                )
            hand.remove(card)
            s["undealt"].append(card)
            game["discard"] = card
            self._after_discard()
            return
        # DROP
        game["decided"].append(player)
        if action == "out":
            self.drop(player)
        nxt = self.left_of(player)
        if nxt == game["declarer"]:
            self.begin_play(TRICKS)
        else:
            s["turn"] = nxt

    def _read_suit(self, raw: Any) -> int:
        suit = SUIT_LETTERS.get(raw) if isinstance(raw, str) else None
        if suit is None:
            raise bad_move(f"{raw!r} is not a suit: send S, H, D or C.")
        up = self._up_suit
        if self.s["phase"] == ORDER and suit != up:
            raise MoveRefused(
                "wrong_suit",
                f"In the first round only {SUIT_WORDS[up]}, the upcard's suit, can be ordered "
                "up; another suit may be named in the second round if everyone passes.",
            )
        if self.s["phase"] == NAME and suit == up:
            raise MoveRefused(
                "wrong_suit",
                f"{SUIT_WORDS[up].capitalize()} were turned down with the upcard in the first "
                "round; name another suit, or pass.",
            )
        return suit

    def _next_bidder(self, player: str) -> None:
        s = self.s
        if player != self.start.dealer:
            s["turn"] = self.left_of(player)
            return
        if s["phase"] == ORDER:
            s["phase"] = NAME
            s["turn"] = self.left_of(player)
            return
        # Everyone passed both rounds: the hand is played without trump.
        s["trump"] = None
        self.begin_play(TRICKS)

    def robot_phase_move(self, player: str) -> Move:
        s = self.s
        hand = _mask(s["hands"][player])
        phase = s["phase"]
        up = self._up_suit
        if phase == ORDER:
            if player == self.start.dealer:
                hand |= BIT[PACK_PARSE[s["upcard"]]]
            if greedy_orders(hand, up):
                return {"action": "trump", "suit": LETTERS[up]}
            return {"action": "pass"}
        if phase == NAME:
            suit = greedy_names(hand, up)
            return {"action": "pass"} if suit < 0 else {"action": "trump", "suit": LETTERS[suit]}
        if phase == DISCARD:
            without = hand & ~BIT[PACK_PARSE[s["upcard"]]]
            return {"action": "discard", "card": CARD_NAMES[greedy_discard(without, self._trump)]}
        last = (
            bool(self.start.options.get("sweep_wins", True))
            and len(s["out"]) == len(self.players) - 2
        )
        return {"action": "out" if greedy_drops(hand, self._trump, last) else "in"}

    # -- the play ----------------------------------------------------------------------

    def parse(self, text: Any) -> str | None:
        c = PACK_PARSE.get(text) if isinstance(text, str) else None
        return None if c is None else CARD_NAMES[c]

    def _led(self) -> int:
        trick = self.s["trick"]
        return PACK_PARSE[trick[0]["card"]] if trick else -1

    def legal_cards(self, player: str) -> list[str]:
        hand = _mask(self.s["hands"][player])
        return self.sort_cards(_names(legal(hand, self._led(), self._trump)))

    def why_illegal(self, player: str, card: str, legal_now: list[str]) -> MoveRefused:
        trump = self._trump
        led = self._led()
        suit = SUIT[trump][led]
        what = "trump" if suit == trump else SUIT_WORD[suit]
        held = "trumps" if suit == trump else SUIT_WORDS[suit]
        message = (
            f"A {what} was led and you hold {held} ({describe(_mask(legal_now), trump)}): "
            "you must follow suit."
        )
        c = PACK_PARSE[card]
        if trump != NO_TRUMP and c == left_bower(trump) and SUIT_OF[c] == suit:
            message += (
                f" {card} is the left bower, a {SUIT_WORD[trump]}, so it does not follow "
                f"{SUIT_WORDS[SUIT_OF[c]]}."
            )
        return MoveRefused("must_follow", message)

    def trick_winner(self, cards: list[str]) -> int:
        return trick_winner([PACK_PARSE[c] for c in cards], self._trump)

    def robot_card(self, player: str) -> str:
        s = self.s
        hand = _mask(s["hands"][player])
        trump = self._trump
        trick = s["trick"]
        if not trick:
            return CARD_NAMES[greedy_card(hand, -1, -1, trump)]
        played = [PACK_PARSE[c["card"]] for c in trick]
        best = played[trick_winner(played, trump)]
        return CARD_NAMES[greedy_card(hand, played[0], best, trump)]

    def sort_cards(self, cards: list[str]) -> list[str]:
        trump = self._trump if self.s["phase"] not in (ORDER, NAME) else NO_TRUMP
        return sorted(
            cards,
            key=lambda c: (SUIT[trump][PACK_PARSE[c]], STRENGTH[trump][PACK_PARSE[c]]),
        )

    # -- what is shown and recorded ----------------------------------------------------

    def upcard_shown(self) -> str | None:
        """Face up while the first round is bid, and all hand in dirty clubs unless the
        dealer took it."""
        s = self.s
        if s["phase"] == ORDER:
            return s["upcard"]  # type: ignore[no-any-return]
        if self._up_suit == CLUBS and s["upcard"] in s["undealt"]:
            return s["upcard"]  # type: ignore[no-any-return]
        return None

    def view_game(self, player: str | None) -> dict[str, Any]:
        game = self.s["game"]
        return {
            "calls": [dict(c) for c in game["calls"]],
            "declarer": game["declarer"],
            "stayed": [p for p in game["decided"] if p not in self.s["out"]],
        }

    def round_record(self) -> dict[str, Any]:
        s = self.s
        game = s["game"]
        rnd: dict[str, Any] = {
            "dealer": self.start.dealer,
            "upcard": s["upcard"],
            "trump": s["trump"],
            "declarer": game["declarer"],
        }
        if s["out"]:
            rnd["out"] = list(s["out"])
        rnd["tricks"] = dict(s["won"])
        rnd["play"] = self.play_record()
        # Extensions (docs/rules-buck-euchre.md, "Round fields"): the bidding as it went,
        # and the dealer's discard.
        rnd["calls"] = [dict(c) for c in game["calls"]]
        if game["discard"] is not None:
            rnd["discard"] = game["discard"]
        return rnd
