"""Whole games of Huckley Buck or Hucklebuck played by the engine itself.

Each round is dealt from a shuffled pack and played card by card with legal decisions
(random ones, or a simple greedy player), so a simulated record is a real game: the
engine's checker must accept it, and with ``card_play`` it carries the cards to prove it.
All randomness comes from the `random.Random` handed in, drawn only through
``rng.random()`` (whose stream Python keeps stable) so that a seed replays the same
game on any Python version.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from engine.base import EngineUsageError, GameSetup
from engine.cards import ABOVE, BIT, CARD_NAMES, RANK_OF, SUIT_MASK, SUIT_OF, mask_to_cards
from engine.games._common.play import first_leader
from engine.games._common.simulate import pick
from engine.games.huckley.fields import max_drops
from engine.games.huckley.play import TRICKS, legal_follow, legal_kill
from engine.games.huckley.rounds import HOOK, Variant, find_winner

#: Random strategy: how often a round is thrown in, or loses a hand to a renege penalty.
MISDEAL_RATE: Final = 0.02
RENEGE_RATE: Final = 0.02
DROP_RATE: Final = 0.25
ACES: Final = sum(1 << (13 * s + 12) for s in range(4))
HIGH_CARDS: Final = sum(1 << (13 * s + r) for s in range(4) for r in (10, 11, 12))


def _lowest(mask: int, trump: int) -> int:
    """The cheapest card to throw: the lowest plain card, else the lowest trump."""
    plain = mask & ~SUIT_MASK[trump] or mask
    low = (plain & -plain).bit_length() - 1
    if plain & SUIT_MASK[SUIT_OF[low]] == plain:
        # All of one suit (the usual case when following): its lowest bit is its lowest card.
        return low
    card = -1
    rank = 13
    for suit_mask in SUIT_MASK:
        in_suit = plain & suit_mask
        if in_suit:
            low = (in_suit & -in_suit).bit_length() - 1
            if RANK_OF[low] < rank:
                card = low
                rank = RANK_OF[low]
    return card


def _highest(mask: int) -> int:
    card = -1
    rank = -1
    for suit_mask in SUIT_MASK:
        in_suit = mask & suit_mask
        if in_suit:
            high = in_suit.bit_length() - 1
            if RANK_OF[high] > rank:
                card = high
                rank = RANK_OF[high]
    return card


def greedy_drops(hand: int, trump: int) -> bool:
    """Whether the greedy player drops `hand`: one with neither a trump nor an ace."""
    return not hand & (SUIT_MASK[trump] | ACES)


def greedy_keeps_upcard(upcard: int) -> bool:
    """Whether the greedy IHBA dealer keeps the upcard (ten or higher), discarding the
    lowest card of the hand for it (`greedy_throw`)."""
    return RANK_OF[upcard] >= 8


def greedy_throw(hand: int, trump: int) -> int:
    """The card the greedy dealer gives up for the upcard: the cheapest one."""
    return _lowest(hand, trump)


def greedy_discards(hand: int, trump: int, room: int) -> list[int]:
    """The cards the greedy player exchanges: every card that is neither a trump nor an
    ace, king or queen, lowest card number first, at most `room` of them (the cards left
    to draw)."""
    weak = hand & ~(SUIT_MASK[trump] | HIGH_CARDS)
    return mask_to_cards(weak)[:room]


def greedy_card(hand: int, legal: int, led: int, best: int, trump: int) -> int:
    """The greedy player's card: lead the highest trump (else the highest card); follow by
    winning as cheaply as possible, else throw the cheapest legal card.

    `led` is the suit led (-1 when leading), `best` the card winning the trick so far.
    """
    if led < 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps.bit_length() - 1
        return _highest(hand)
    if SUIT_OF[best] == trump:
        win = legal & ABOVE[best]
    else:
        win = legal & (ABOVE[best] | SUIT_MASK[trump])
    if win:
        plain = win & ~SUIT_MASK[trump]
        cheapest = plain or win
        return (cheapest & -cheapest).bit_length() - 1
    return _lowest(legal, trump)


def simulate_game(
    table: GameSetup, rng: random.Random, strategy: str, card_play: bool, *, variant: Variant
) -> list[dict[str, Any]]:
    assert table.first_dealer is not None
    players = table.players
    n = len(players)
    target: int = table.options["target"]
    by_trick_order = table.options["tie_break"] == "trick_order"
    dealer_may_drop: bool = table.options["dealer_may_drop"]
    max_out = max_drops(n)
    greedy = strategy == "greedy"
    legal_of = legal_kill if variant.kill else legal_follow
    rnd = rng.random
    scores = [0] * n
    dealer = table.first_dealer
    rounds: list[dict[str, Any]] = []
    limit = 1000 + 200 * target
    while True:
        if len(rounds) >= limit:
            raise EngineUsageError(f"the game did not finish within {limit} rounds")
        record: dict[str, Any] = {"dealer": players[dealer]}
        points = [0] * n
        winners: list[int] | None = None
        if not greedy and rnd() < MISDEAL_RATE:
            record["misdeal"] = True
            points[dealer] = -HOOK
        else:
            winners = _play_round(
                record, points, players, dealer, rnd, greedy, max_out, dealer_may_drop,
                variant, legal_of, card_play,
            )  # fmt: skip
        before = scores[:]
        for s in range(n):
            v = scores[s] + points[s]
            scores[s] = v if v > 0 else 0
        rounds.append(record)
        dealer = dealer + 1 if dealer + 1 < n else 0
        if max(scores) >= target:
            winner, reached = find_winner(before, scores, winners, target, by_trick_order)
            if len(reached) > 1 and by_trick_order and winners is not None:
                record["trick_winners"] = [players[s] for s in winners]
            if winner is not None:
                return rounds


def _play_round(
    record: dict[str, Any],
    points: list[int],
    players: tuple[str, ...],
    dealer: int,
    rnd: Callable[[], float],
    greedy: bool,
    max_out: int,
    dealer_may_drop: bool,
    variant: Variant,
    legal_of: Callable[[int, int, int, int], int],
    card_play: bool,
) -> list[int]:
    """Deal, announce, draw and play one round; fill `record` and `points`, return the
    seat that won each trick."""
    n = len(players)
    # Shuffle by sorting on random keys: one pass in C, where a Python Fisher-Yates loop
    # would cost a round's whole budget. Written out in each simulator: a call per round
    # is measurable here.
    keys = [rnd() for _ in range(52)]
    deck = sorted(range(52), key=keys.__getitem__)
    hands = []
    for i in range(0, 5 * n, 5):
        hands.append(
            BIT[deck[i]] | BIT[deck[i + 1]] | BIT[deck[i + 2]] | BIT[deck[i + 3]] | BIT[deck[i + 4]]
        )
    upcard = deck[5 * n]
    trump = SUIT_OF[upcard]
    # The IHBA upcard goes to the dealer's side; Hucklebuck turns it face up on the draw
    # pile, so there it is the first card drawn.
    top = 5 * n if variant.upcard_to_anyone else 5 * n + 1

    # Announcements from the dealer's left round to the dealer (ruling 1).
    order = [(dealer + k) % n for k in range(1, n + 1)]
    out: list[int] = []
    for s in order:
        if len(out) >= max_out:
            break
        if s == dealer and not dealer_may_drop:
            continue
        # Greedy drops a hand with neither a trump nor an ace.
        if greedy_drops(hands[s], trump) if greedy else rnd() < DROP_RATE:
            out.append(s)
    penalized = -1
    active = [s for s in order if s not in out]
    if not greedy and rnd() < RENEGE_RATE:
        penalized = active[int(rnd() * len(active))]
        active.remove(penalized)

    # The draw, in the same order, the dealer last.
    for s in active:
        hand = hands[s]
        keeps = s == dealer and not variant.upcard_to_anyone
        if keeps and (greedy_keeps_upcard(upcard) if greedy else rnd() < 0.3):
            # IHBA, THE DRAW: keeping the upcard, the dealer discards at least one card
            # and draws one fewer than discarded; here, exactly one.
            discard = greedy_throw(hand, trump) if greedy else pick(hand, rnd)
            hands[s] = hand ^ BIT[discard] | BIT[upcard]
            continue
        if greedy:
            thrown = greedy_discards(hand, trump, 52 - top)
            k = len(thrown)
            for c in thrown:
                hand ^= BIT[c]
        else:
            k = min(int(rnd() * 4), 52 - top)
            for _ in range(k):
                hand ^= BIT[pick(hand, rnd)]
        for c in deck[top : top + k]:
            hand |= BIT[c]
        top += k
        hands[s] = hand

    in_play = sorted(active)
    if card_play:
        record["upcard"] = CARD_NAMES[upcard]
        play_hands = {players[s]: [CARD_NAMES[c] for c in mask_to_cards(hands[s])] for s in in_play}
        play_tricks: list[list[str]] = []

    # The play: the first in play to the dealer's left leads, then each trick's winner.
    m = len(in_play)
    held = [hands[s] for s in in_play]
    pos = first_leader(dealer, in_play, n)
    counts = [0] * n
    winners: list[int] = []
    for _ in range(TRICKS):
        led = -1
        best = -1
        best_pos = pos
        trick: list[int] = []
        for j in range(m):
            p = pos + j
            if p >= m:
                p -= m
            hand = held[p]
            legal = hand if led < 0 else legal_of(hand, led, best, trump)
            if greedy:
                card = greedy_card(hand, legal, led, best, trump)
            else:
                count = legal.bit_count()
                if count > 1:
                    k = int(rnd() * count)
                    while k:
                        legal &= legal - 1
                        k -= 1
                card = (legal & -legal).bit_length() - 1
            held[p] = hand ^ BIT[card]
            if led < 0:
                led = SUIT_OF[card]
                best = card
            else:
                suit = SUIT_OF[card]
                best_suit = SUIT_OF[best]
                if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                    best = card
                    best_pos = p
            trick.append(card)
        if card_play:
            play_tricks.append([CARD_NAMES[c] for c in trick])
        winner = in_play[best_pos]
        counts[winner] += 1
        winners.append(winner)
        pos = best_pos

    if out:
        record["out"] = [players[s] for s in sorted(out)]
    if penalized >= 0:
        record["penalties"] = [{"player": players[penalized], "kind": "renege"}]
        points[penalized] = -HOOK
    record["tricks"] = {players[s]: counts[s] for s in in_play}
    for s in in_play:
        c = counts[s]
        points[s] = c if c else -HOOK
    if card_play:
        record["play"] = {"hands": play_hands, "tricks": play_tricks}
    return winners
