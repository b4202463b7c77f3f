"""Whole games of Ten-Point Buck played by the engine itself.

Each round is dealt from a shuffled 56-card deck, every player bids, and the ten tricks
are played card by card with legal decisions (random ones, or a simple greedy player),
so a simulated record is a real game that the checker must accept; with ``card_play``
it carries the cards to prove it. All randomness comes from the `random.Random` handed
in, drawn only through ``rng.random()`` (whose stream Python keeps stable) so that a seed
replays the same game on any Python version.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from engine.base import EngineUsageError, GameSetup
from engine.games.ten_point_buck.cards import (
    BIT_RANK_MASK,
    BIT_STRENGTH,
    DECK_SIZE,
    DOE_AND_BUCK,
    DOE_BONUS,
    NAME_OF_BIT,
    SLOT,
    VALUE_MASK,
    VALUE_OF_BIT,
    WHITE_MASK,
    bits_of,
    points_of,
)
from engine.games.ten_point_buck.play import HAND_SIZE, TRICKS, first_leader
from engine.games.ten_point_buck.rounds import HUNTING_POINTS, game_end

#: A game that has not ended after this many rounds past its length is a bug.
EXTRA_ROUNDS_LIMIT: Final = 1000
BIT: Final = tuple(1 << b for b in range(DECK_SIZE))
DOE_BIT: Final = SLOT[0]
BUCK_BIT: Final = SLOT[10]
#: What the play needs of each bit: (its mask, its rank mask, strength, value).
BIT_INFO: Final = tuple(
    (BIT[b], BIT_RANK_MASK[b], BIT_STRENGTH[b], VALUE_OF_BIT[b]) for b in range(DECK_SIZE)
)
NORMAL_MASK: Final = ((1 << DECK_SIZE) - 1) & ~WHITE_MASK
#: The cards of a value above each value: what beats a card of that value, colour apart.
ABOVE_VALUE: Final[tuple[int, ...]] = tuple(
    sum(VALUE_MASK[w] for w in range(v + 1, 11)) for v in range(11)
)


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def greedy_card(legal: int, in_trick: int, best_bit: int, short: bool) -> int:
    """A simple player: while short of the bid, take the trick as cheaply as it can (the
    Doe on the Buck first); otherwise throw its weakest card.

    Within the normal cards and within the white ones, bit order is strength order, so
    the weakest card is the lowest normal bit (else the lowest white one).
    """
    normals = legal & NORMAL_MASK
    whites = legal & WHITE_MASK
    if not short:
        return _low(normals or whites)
    if best_bit < 0:
        # Leading: the strongest card.
        return (whites or normals).bit_length() - 1
    if legal & DOE_BIT and in_trick & BUCK_BIT:
        return _low(DOE_BIT)
    above = ABOVE_VALUE[VALUE_OF_BIT[best_bit]]
    if BIT[best_bit] & WHITE_MASK:
        win = whites & above & ~BUCK_BIT if in_trick & DOE_BIT else whites & above
    else:
        win = normals & above or whites
    if win:
        return _low(win & NORMAL_MASK or win)
    return _low(normals or whites)


def greedy_bid(hand: int) -> int:
    """A simple bid: the points of the white cards and half those of the normal 7s to 9s."""
    return points_of(hand & WHITE_MASK) + points_of(hand & ABOVE_VALUE[6] & NORMAL_MASK) // 2


def simulate_game(
    table: GameSetup, rng: random.Random, strategy: str, card_play: bool
) -> list[dict[str, Any]]:
    assert table.first_dealer is not None
    players = table.players
    n = len(players)
    length: int = table.options["rounds"]
    shared = table.options["tie_break"] == "shared"
    greedy = strategy == "greedy"
    rnd = rng.random
    scores = [0] * n
    dealer = table.first_dealer
    rounds: list[dict[str, Any]] = []
    while True:
        if len(rounds) >= length + EXTRA_ROUNDS_LIMIT:
            raise EngineUsageError(f"the game did not finish within {len(rounds)} rounds")
        record, points = _play_round(players, dealer, rnd, greedy, card_play)
        for s in range(n):
            scores[s] += points[s]
        rounds.append(record)
        dealer = dealer + 1 if dealer + 1 < n else 0
        top = game_end(scores, len(rounds), length)
        if top is not None and (len(top) == 1 or shared):
            return rounds


def _play_round(
    players: tuple[str, ...],
    dealer: int,
    rnd: Callable[[], float],
    greedy: bool,
    card_play: bool,
) -> tuple[dict[str, Any], list[int]]:
    """Deal, bid and play one round: its record and each seat's Hunting Points."""
    n = len(players)
    # Shuffle by sorting on random keys: one pass in C, where a Python Fisher-Yates loop
    # would cost much of a round's budget. Written out in each simulator: a call per round
    # is measurable here.
    keys = [rnd() for _ in range(DECK_SIZE)]
    deck = sorted(range(DECK_SIZE), key=keys.__getitem__)
    bit_of = BIT.__getitem__
    hands = [sum(map(bit_of, deck[i : i + HAND_SIZE])) for i in range(0, HAND_SIZE * n, HAND_SIZE)]
    in_play = sum(map(VALUE_OF_BIT.__getitem__, deck[: HAND_SIZE * n]))

    # Bids, from the dealer's left round to the dealer (Bidding). Any whole number from 0
    # is legal; the random player bids around a fair share of the points in play, the
    # greedy one by its white and high cards.
    fair = in_play / n
    if greedy:
        bids = [greedy_bid(hand) for hand in hands]
    else:
        bids = [int(rnd() * 2 * fair) for _ in range(n)]

    if card_play:
        play_hands = {players[s]: [NAME_OF_BIT[b] for b in bits_of(hands[s])] for s in range(n)}
        play_tricks: list[list[str]] = []
    captured = [0] * n
    pos = first_leader(dealer, n)
    bonus = -1
    for _ in range(TRICKS):
        in_trick = 0
        best = -1
        best_bit = -1
        best_pos = pos
        trick_points = 0
        doe_pos = -1
        trick: list[int] = []
        p = pos
        for _j in range(n):
            hand = hands[p]
            legal = hand & ~in_trick or hand
            if greedy:
                b = greedy_card(legal, in_trick, best_bit, captured[p] < bids[p])
            elif legal & (legal - 1):
                # A uniformly random legal card: skip k of its bits (inline: the hot loop).
                k = int(rnd() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                b = (legal & -legal).bit_length() - 1
            else:
                b = legal.bit_length() - 1
            bit, rank, strength, value = BIT_INFO[b]
            hands[p] = hand ^ bit
            in_trick |= rank
            if strength > best:
                best = strength
                best_bit = b
                best_pos = p
            if b == 0:
                doe_pos = p
            trick_points += value
            if card_play:
                trick.append(b)
            p = p + 1 if p + 1 < n else 0
        if in_trick & DOE_AND_BUCK == DOE_AND_BUCK:
            best_pos = doe_pos
            bonus = doe_pos
        captured[best_pos] += trick_points
        if card_play:
            play_tricks.append([NAME_OF_BIT[b] for b in trick])
        pos = best_pos

    record: dict[str, Any] = {
        "dealer": players[dealer],
        "bids": dict(zip(players, bids, strict=True)),
        "points": dict(zip(players, captured, strict=True)),
        "doe_bonus": players[bonus] if bonus >= 0 else None,
    }
    if card_play:
        record["play"] = {"hands": play_hands, "tricks": play_tricks}
    table = HUNTING_POINTS
    points = [table[b - c if b >= c else c - b] for b, c in zip(bids, captured, strict=True)]
    if bonus >= 0:
        points[bonus] += DOE_BONUS
    return record, points
