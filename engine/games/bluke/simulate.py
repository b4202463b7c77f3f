"""Whole games of Bluke or New Jersey Bluke played by the engine itself.

Every hand of the schedule is dealt from a shuffled 54-card pack, an upcard turned, bids
made from the dealer's left and the tricks played card by card with legal decisions
(random ones, or a simple greedy player), so a simulated record is a real game: the
engine's checker must accept it, and with ``card_play`` it carries the cards to prove it.
All randomness comes from the `random.Random` handed in, drawn only through
``rng.random()`` (whose stream Python keeps stable) so that a seed replays the same game
on any Python version.

A game at four players is 25 hands and 169 tricks, so the play loop below is written
out inline on ints and masks: no function call and no object per card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from engine.base import EngineUsageError, Table
from engine.cards import ABOVE, RANK_OF
from engine.games.bluke.cards import (
    BIT,
    BLUKES,
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK_MASK,
    HI_BLUKE,
    LO_BLUKE,
    SUIT_MASK,
    SUIT_OF,
    mask_to_cards,
    trump_of,
)
from engine.games.bluke.play import ALWAYS, LEAD_FOLLOW
from engine.games.bluke.rounds import Variant, hand_sizes, max_cards_problem

#: Random strategy: how often a bid is drawn from the whole range rather than from up to
#: about twice a fair share of the tricks (which keeps most games' scores believable).
WILD_BID_RATE: Final = 0.1
NOT_BLUKES: Final = FULL_DECK_MASK ^ BLUKES
ACES: Final = sum(1 << (13 * s + 12) for s in range(4))
#: Queen, king and ace of each suit: the trumps a greedy bidder counts on.
HIGH_TRUMPS: Final = (*(sum(1 << (13 * s + r) for r in (10, 11, 12)) for s in range(4)), 0)
PLAIN_SUITS: Final = SUIT_MASK[:4]
_CARDS: Final = range(DECK_SIZE)


def _lowest(mask: int, trump: int) -> int:
    """The cheapest card to throw: the lowest plain card, else the lowest trump, else the
    Lo Bluke."""
    plain = mask & NOT_BLUKES & ~SUIT_MASK[trump] or mask & NOT_BLUKES or mask
    low = (plain & -plain).bit_length() - 1
    if low >= LO_BLUKE or plain & SUIT_MASK[SUIT_OF[low]] == plain:
        # All of one suit (the usual case when following): its lowest bit is its lowest card.
        return low
    card = -1
    rank = 13
    for suit_mask in PLAIN_SUITS:
        in_suit = plain & suit_mask
        if in_suit:
            low = (in_suit & -in_suit).bit_length() - 1
            if RANK_OF[low] < rank:
                card = low
                rank = RANK_OF[low]
    return card


def _strongest(hand: int, trump: int) -> int:
    """The card a greedy leader who still needs tricks leads: a Bluke, the top trump, or
    the highest plain card."""
    if hand & BLUKES:
        return hand.bit_length() - 1
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        return trumps.bit_length() - 1
    card = -1
    rank = -1
    for suit_mask in PLAIN_SUITS:
        in_suit = hand & suit_mask
        if in_suit:
            high = in_suit.bit_length() - 1
            if RANK_OF[high] > rank:
                card = high
                rank = RANK_OF[high]
    return card


def _greedy_follow(hand: int, legal: int, best: int, trump: int, needs: bool) -> int:
    """A greedy player's card to a trick that `best` is winning: while the bid is not yet
    made, the cheapest card that takes the trick; otherwise (or when none does) the
    cheapest card to throw."""
    if needs:
        if best >= LO_BLUKE:
            win = legal & BIT[HI_BLUKE] if best == LO_BLUKE else 0
        elif SUIT_OF[best] == trump:
            win = legal & (ABOVE[best] | BLUKES)
        else:
            win = legal & (ABOVE[best] | SUIT_MASK[trump] | BLUKES)
        if win:
            # Plain winners are all of the suit led and trump winners all trumps, so the
            # lowest bit of each is its cheapest card.
            cheap = win & NOT_BLUKES
            cheap = cheap & ~SUIT_MASK[trump] or cheap or win
            return (cheap & -cheap).bit_length() - 1
    return _lowest(legal, trump)


def simulate_game(
    table: Table, variant: Variant, rng: random.Random, strategy: str, card_play: bool
) -> list[dict[str, Any]]:
    assert table.first_dealer is not None
    players = table.players
    n = len(players)
    max_cards: int = table.options["max_cards"]
    why = max_cards_problem(n, max_cards)
    if why is not None:
        raise EngineUsageError(why)
    low = 0 if table.options["allow_zero_bid"] else 1
    nj = variant.blukes_in_trump
    greedy = strategy == "greedy"
    rnd = rng.random
    dealer = table.first_dealer
    rounds: list[dict[str, Any]] = []
    for size in hand_sizes(n, variant.rising, max_cards):
        record: dict[str, Any] = {"dealer": players[dealer], "cards": size}
        rounds.append(record)
        # Shuffle by sorting on random keys: one pass in C, where a Python Fisher-Yates
        # loop would cost much of a hand's budget.
        keys = [rnd() for _ in _CARDS]
        deck = sorted(_CARDS, key=keys.__getitem__)
        hands = []
        for i in range(0, size * n, size):
            mask = 0
            for c in deck[i : i + size]:
                mask |= BIT[c]
            hands.append(mask)
        dealt = size * n
        upcard = deck[dealt] if dealt < DECK_SIZE else None
        trump = trump_of(upcard)
        if upcard is not None:
            record["upcard"] = CARD_NAMES[upcard]
        bids = _bids(hands, size, n, dealer, low, trump, greedy, rnd)
        record["bids"] = dict(zip(players, bids, strict=True))
        if card_play:
            play_hands = {
                players[s]: [CARD_NAMES[c] for c in mask_to_cards(hands[s])] for s in range(n)
            }
        counts, tricks = _play(hands, size, n, dealer, trump, nj, bids, greedy, rnd, card_play)
        record["tricks"] = dict(zip(players, counts, strict=True))
        if card_play:
            record["play"] = {"hands": play_hands, "tricks": tricks}
        dealer = dealer + 1 if dealer + 1 < n else 0
    return rounds


def _bids(
    hands: list[int],
    size: int,
    n: int,
    dealer: int,
    low: int,
    trump: int,
    greedy: bool,
    rnd: Callable[[], float],
) -> list[int]:
    """Each seat's bid, made in turn from the dealer's left (the order only matters for
    the random stream)."""
    bids = [0] * n
    # Random bids mostly stay within about twice a fair share of the tricks.
    likely = min(size, max(low, (2 * size + n - 1) // n))
    high_trumps = HIGH_TRUMPS[trump]
    trump_mask = SUIT_MASK[trump]
    for k in range(1, n + 1):
        s = (dealer + k) % n
        if greedy:
            # Count sure-looking tricks: Blukes, high trumps and plain aces.
            hand = hands[s]
            sure = (hand & (BLUKES | high_trumps)).bit_count() + (
                hand & ACES & ~trump_mask
            ).bit_count()
            bids[s] = max(low, min(size, sure))
        else:
            top = size if rnd() < WILD_BID_RATE else likely
            bids[s] = low + int(rnd() * (top - low + 1))
    return bids


def _play(
    held: list[int],
    size: int,
    n: int,
    dealer: int,
    trump: int,
    nj: bool,
    bids: list[int],
    greedy: bool,
    rnd: Callable[[], float],
    card_play: bool,
) -> tuple[list[int], list[list[str]]]:
    """Play the hand from `held` (masks in seat order, used up): the tricks each seat took
    and, with `card_play`, the cards of each trick as played."""
    lead_follow = LEAD_FOLLOW[nj][trump]
    always = ALWAYS[nj]
    pos = dealer + 1 if dealer + 1 < n else 0
    counts = [0] * n
    tricks: list[list[str]] = []
    followers = range(n - 1)
    for _ in range(size):
        p = pos
        hand = held[p]
        if greedy:
            card = _strongest(hand, trump) if counts[p] < bids[p] else _lowest(hand, trump)
        else:
            legal = hand
            count = legal.bit_count()
            if count > 1:
                k = int(rnd() * count)
                while k:
                    legal &= legal - 1
                    k -= 1
            card = (legal & -legal).bit_length() - 1
        held[p] = hand ^ BIT[card]
        follow = lead_follow[card]
        best = card
        best_pos = p
        trick = [card]
        for _ in followers:
            p = p + 1 if p + 1 < n else 0
            hand = held[p]
            legal = hand & follow
            if legal:
                legal |= hand & always
            else:
                legal = hand
            if greedy:
                card = _greedy_follow(hand, legal, best, trump, counts[p] < bids[p])
            else:
                count = legal.bit_count()
                if count > 1:
                    k = int(rnd() * count)
                    while k:
                        legal &= legal - 1
                        k -= 1
                card = (legal & -legal).bit_length() - 1
            held[p] = hand ^ BIT[card]
            if card >= LO_BLUKE:
                if card > best:
                    best = card
                    best_pos = p
            elif best < LO_BLUKE:
                suit = SUIT_OF[card]
                best_suit = SUIT_OF[best]
                if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                    best = card
                    best_pos = p
            if follow == FULL_DECK_MASK and card < LO_BLUKE:
                # bluke: the first plain card after a Bluke lead sets the suit.
                follow = SUIT_MASK[SUIT_OF[card]]
            trick.append(card)
        if card_play:
            tricks.append([CARD_NAMES[c] for c in trick])
        counts[best_pos] += 1
        pos = best_pos
    return counts, tricks
