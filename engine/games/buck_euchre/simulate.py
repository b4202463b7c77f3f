"""Whole games of Buck Euchre played by the engine itself.

Each round is dealt from a shuffled 24-card pack, bid in the text's two rounds (or not
at all when the upcard is a club), dropped and played card by card with legal decisions,
random ones or a simple greedy player's, so a simulated record is a real game that the
checker must accept; with ``card_play`` it carries the cards to prove it. All randomness
comes from the `random.Random` handed in, drawn only through ``rng.random()`` (whose
stream Python keeps stable), so a seed replays the same game on any Python version.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from engine.base import EngineUsageError, GameSetup
from engine.cards import BIT, CARD_NAMES, SUIT_OF, mask_to_cards
from engine.games._common.play import first_leader
from engine.games._common.simulate import pick
from engine.games.buck_euchre.cards import (
    ACE,
    BEATERS,
    CLUBS,
    FOLLOW,
    NO_TRUMP,
    PACK_CARDS,
    STRENGTH,
    SUIT_CARDS,
    left_bower,
    right_bower,
)
from engine.games.buck_euchre.fields import LETTERS
from engine.games.buck_euchre.play import TRICKS
from engine.games.buck_euchre.rounds import CONTRACT, SET, find_winner

#: Random strategy: how often a deal is thrown in. Its bids and drops are random too, but
#: weighted by the hand (a set costs 5 and a trick earns 1, so players deciding blindly
#: drift away from zero and the game never ends): the chance to bid by the hand's
#: `_bid_strength`, the chance to drop by whether `_holds_a_trick`.
MISDEAL_RATE: Final = 0.02
BID_RATE: Final = (0.0, 0.01, 0.05, 0.2, 0.6, 0.9, 1.0, 1.0)
DROP_RATE: Final = (0.1, 0.9)  # holding a trick, not holding one
LAST_DROP_RATE: Final = 0.2  # the last one in, leaving the declarer alone
#: Greedy strategy: the `_bid_strength` it wants before it orders up or names a suit.
GREEDY_BID: Final = 4

_RANGE: Final = range(len(PACK_CARDS))
#: The bowers of each trump suit, and the bowers with the ace.
BOWERS: Final = tuple(BIT[right_bower(t)] | BIT[left_bower(t)] for t in range(4))
TOP_TRUMPS: Final = tuple(BOWERS[t] | BIT[t * 13 + ACE] for t in range(4))
_PACK_BIT: Final = tuple(BIT[c] for c in PACK_CARDS)


def _weakest(mask: int, strength: tuple[int, ...]) -> int:
    card = -1
    low = 1000
    while mask:
        bit = mask & -mask
        c = bit.bit_length() - 1
        if strength[c] < low:
            low = strength[c]
            card = c
        mask ^= bit
    return card


def _strongest(mask: int, strength: tuple[int, ...]) -> int:
    card = -1
    high = -1
    while mask:
        bit = mask & -mask
        c = bit.bit_length() - 1
        if strength[c] > high:
            high = strength[c]
            card = c
        mask ^= bit
    return card


def _bid_strength(hand: int, trump: int) -> int:
    """The trumps held, one more with a bower: 4 is three trumps and a bower."""
    return (hand & SUIT_CARDS[trump][trump]).bit_count() + (1 if hand & BOWERS[trump] else 0)


def _holds_a_trick(hand: int, trump: int) -> bool:
    """Whether a hand likely takes a trick against a declarer: the right bower, the left
    bower or the ace of trump with another trump, or three trumps."""
    trumps = (hand & SUIT_CARDS[trump][trump]).bit_count()
    return (
        bool(hand & BIT[right_bower(trump)])
        or trumps >= 3
        or (trumps >= 2 and bool(hand & TOP_TRUMPS[trump]))
    )


def greedy_orders(hand: int, up_suit: int) -> bool:
    """Greedy, bidding round one: order up (or, the dealer, accept) the upcard's suit.
    The dealer's `hand` counts the upcard it would take."""
    return _bid_strength(hand, up_suit) >= GREEDY_BID


def greedy_names(hand: int, up_suit: int) -> int:
    """Greedy, bidding round two: the suit to name (the strongest other suit, when strong
    enough), or -1 to pass."""
    suit = -1
    most = GREEDY_BID - 1
    for t in range(4):
        if t != up_suit:
            power = _bid_strength(hand, t)
            if power > most:
                most = power
                suit = t
    return suit


def greedy_drops(hand: int, trump: int, last: bool) -> bool:
    """Greedy: drop a hand unlikely to take a trick, unless it is the `last` one in and
    taking all five tricks would win the declarer the game."""
    return not _holds_a_trick(hand, trump) and not last


def greedy_discard(hand: int, trump: int) -> int:
    """Greedy: the card the dealer discards on taking the upcard (`hand` without it)."""
    return _weakest(hand, STRENGTH[trump])


def greedy_card(hand: int, led: int, best: int, trump: int) -> int:
    """Greedy play: lead the strongest card (`led` -1); otherwise take the trick as cheaply
    as possible (`best` is winning it), or throw the weakest legal card."""
    strength = STRENGTH[trump]
    if led < 0:
        return _strongest(hand, strength)
    legal = hand & FOLLOW[trump][led] or hand
    win = legal & BEATERS[trump][best]
    return _weakest(win or legal, strength)


def simulate_game(
    table: GameSetup, rng: random.Random, strategy: str, card_play: bool
) -> list[dict[str, Any]]:
    assert table.first_dealer is not None
    players = table.players
    n = len(players)
    start: int = table.options["start"]
    sweep_wins: bool = table.options["sweep_wins"]
    club_to_dealer: bool = table.options["club_upcard_to_dealer"]
    misdeal_set: bool = table.options["misdeal_set"]
    greedy = strategy == "greedy"
    rnd = rng.random
    scores = [start] * n
    dealer = table.first_dealer
    rounds: list[dict[str, Any]] = []
    limit = 1000 + 100 * start
    while True:
        if len(rounds) >= limit:
            raise EngineUsageError(f"the game did not finish within {limit} rounds")
        record: dict[str, Any] = {"dealer": players[dealer]}
        if not greedy and rnd() < MISDEAL_RATE:
            record["misdeal"] = True
            points = [0] * n
            if misdeal_set:
                points[dealer] = SET
            sweeper = -1
        else:
            points, sweeper = _play_round(
                record, players, dealer, rnd, greedy, club_to_dealer, sweep_wins, card_play
            )
        for s in range(n):
            scores[s] += points[s]
        rounds.append(record)
        dealer = dealer + 1 if dealer + 1 < n else 0
        if find_winner(scores, sweeper, sweep_wins) is not None:
            return rounds


def _play_round(
    record: dict[str, Any],
    players: tuple[str, ...],
    dealer: int,
    rnd: Callable[[], float],
    greedy: bool,
    club_to_dealer: bool,
    sweep_wins: bool,
    card_play: bool,
) -> tuple[list[int], int]:
    """Deal, bid, drop and play one round; fill `record`; return the points and the seat
    that took all five tricks (-1: nobody)."""
    n = len(players)
    # Shuffle by sorting on random keys: one pass in C, where a Python Fisher-Yates loop
    # would cost much of a round's budget. Written out in each simulator: a call per round
    # is measurable here.
    keys = [rnd() for _ in _RANGE]
    order = sorted(_RANGE, key=keys.__getitem__)
    bits = _PACK_BIT
    hands = [
        bits[order[i]] | bits[order[i + 1]] | bits[order[i + 2]] | bits[order[i + 3]]
        | bits[order[i + 4]]
        for i in range(0, 5 * n, 5)
    ]  # fmt: skip
    upcard = PACK_CARDS[order[5 * n]]
    up_suit = SUIT_OF[upcard]
    seq = [(dealer + k) % n for k in range(1, n + 1)]  # from the dealer's left, dealer last

    # Bidding (Game play): a club upcard is trump with no bidding; otherwise round one
    # offers the upcard's suit, round two any other suit, and all passing means no trump.
    declarer = -1
    trump = NO_TRUMP
    takes = False
    if up_suit == CLUBS:
        trump = CLUBS
        takes = club_to_dealer
    else:
        for s in seq:
            hand = hands[s] | BIT[upcard] if s == dealer else hands[s]
            bid = (
                greedy_orders(hand, up_suit)
                if greedy
                else rnd() < BID_RATE[_bid_strength(hand, up_suit)]
            )
            if bid:
                declarer = s
                trump = up_suit
                takes = True
                break
        else:
            for s in seq:
                suit = -1
                if greedy:
                    suit = greedy_names(hands[s], up_suit)
                else:
                    k = int(rnd() * 3)
                    t = k if k < up_suit else k + 1
                    if rnd() < BID_RATE[_bid_strength(hands[s], t)]:
                        suit = t
                if suit >= 0:
                    declarer = s
                    trump = suit
                    break
    if takes:
        # The dealer takes the upcard and discards another card.
        hand = hands[dealer]
        discard = greedy_discard(hand, trump) if greedy else pick(hand, rnd)
        hands[dealer] = hand ^ BIT[discard] | BIT[upcard]

    # Drops, clockwise from the declarer's left; dirty clubs and no-trump hands have none.
    out: list[int] = []
    if declarer >= 0:
        for k in range(1, n):
            s = (declarer + k) % n
            # When taking all five tricks wins, the last one in stays to stop it: greedy
            # always, random mostly.
            last = sweep_wins and len(out) == n - 2
            if greedy:
                drop = greedy_drops(hands[s], trump, last)
            else:
                weak = not _holds_a_trick(hands[s], trump)
                drop = rnd() < (LAST_DROP_RATE if last else DROP_RATE[weak])
            if drop:
                out.append(s)
        out.sort()

    in_play = [s for s in range(n) if s not in out]
    record["upcard"] = CARD_NAMES[upcard]
    record["trump"] = None if trump == NO_TRUMP else LETTERS[trump]
    record["declarer"] = None if declarer < 0 else players[declarer]
    if out:
        record["out"] = [players[s] for s in out]
    if card_play:
        record["play"] = {
            "hands": {
                players[s]: [CARD_NAMES[c] for c in mask_to_cards(hands[s])] for s in in_play
            },
            "tricks": [],
        }
        play_tricks: list[list[str]] = record["play"]["tricks"]

    # The play: the first in the hand to the dealer's left leads, then each trick's winner.
    follow = FOLLOW[trump]
    beaters = BEATERS[trump]
    m = len(in_play)
    held_cards = [hands[s] for s in in_play]
    pos = first_leader(dealer, in_play, n)
    counts = [0] * n
    for _ in range(TRICKS):
        led = -1
        best = -1
        best_pos = pos
        trick: list[int] = []
        for j in range(m):
            p = pos + j
            if p >= m:
                p -= m
            hand = held_cards[p]
            if led < 0:
                card = greedy_card(hand, -1, -1, trump) if greedy else pick(hand, rnd)
                led = best = card
            else:
                legal = hand & follow[led] or hand
                if greedy:
                    card = greedy_card(hand, led, best, trump)
                else:
                    count = legal.bit_count()
                    if count > 1:
                        k = int(rnd() * count)
                        while k:
                            legal &= legal - 1
                            k -= 1
                    card = (legal & -legal).bit_length() - 1
                if beaters[best] & BIT[card]:
                    best = card
                    best_pos = p
            held_cards[p] = hand ^ BIT[card]
            trick.append(card)
        if card_play:
            play_tricks.append([CARD_NAMES[c] for c in trick])
        pos = best_pos
        counts[in_play[best_pos]] += 1

    record["tricks"] = {players[s]: counts[s] for s in in_play}
    points = [0] * n
    sweeper = -1
    for s in in_play:
        c = counts[s]
        if c < (CONTRACT if s == declarer else 1):
            points[s] = SET
        else:
            points[s] = -c
            if c == TRICKS:
                sweeper = s
    return points, sweeper
