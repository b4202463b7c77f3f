"""Whole games of Bluke or New Jersey Bluke played by the engine itself.

Every hand of the schedule is dealt from a shuffled 54-card pack, an upcard turned, bids
made and the tricks played card by card with legal decisions (random ones, or a simple
greedy player), so a simulated record is a real game: the
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

from engine.base import EngineUsageError, GameSetup
from engine.cards import RANKS, SUITS, mask_to_cards
from engine.games.bluke.cards import BLUKE_SUIT, BLUKES, DECK_SIZE, HI_BLUKE, LO_BLUKE
from engine.games.bluke.play import ALWAYS, follow_table, power_table
from engine.games.bluke.rounds import Variant, hand_sizes, max_cards_problem

# The simulator numbers the plain cards rank-major (``rank * 4 + suit``) rather than as
# `engine.games.bluke.cards` does: then the lowest bit of any mask is its lowest card and
# the highest bit its highest, whatever the suits, which is what a greedy player asks
# all the time. Blukes stay 52 (Lo) and 53 (Hi). Only the names written out matter to
# the record, and those come from `CARD_NAMES` below.
SUIT_OF: Final = (*(c % 4 for c in range(52)), BLUKE_SUIT, BLUKE_SUIT)
RANK_OF: Final = (*(c // 4 for c in range(52)), 0, 1)
CARD_NAMES: Final = (*(RANKS[c // 4] + SUITS[c % 4] for c in range(52)), "BL", "BH")
BIT: Final = tuple(1 << c for c in range(DECK_SIZE))
SUIT_MASK: Final = (*(sum(BIT[r * 4 + s] for r in range(13)) for s in range(4)), BLUKES)
NOT_BLUKES: Final = (1 << LO_BLUKE) - 1
#: The cards of the same suit above a card (none above a Bluke: they are handled apart).
ABOVE: Final = (*(SUIT_MASK[c % 4] & ~((1 << (c + 1)) - 1) for c in range(52)), 0, 0)
#: WIN_OVER[trump][card]: the cards that take a trick from `card`.
WIN_OVER: Final = tuple(
    (
        *(ABOVE[c] | BLUKES | (0 if SUIT_OF[c] == trump else SUIT_MASK[trump]) for c in range(52)),
        BIT[HI_BLUKE],
        0,
    )
    for trump in range(5)
)
#: THROW[trump]: the plain cards that are not trumps, a greedy player's first discards.
THROW: Final = tuple(NOT_BLUKES & ~SUIT_MASK[trump] for trump in range(5))
LEAD_FOLLOW: Final = follow_table(SUIT_OF, SUIT_MASK)
POWER: Final = power_table(SUIT_OF, RANK_OF)
FULL_DECK_MASK: Final = (1 << DECK_SIZE) - 1

#: Random strategy: how often a bid is drawn from the whole range rather than from up to
#: one more than a fair share of the tricks (which keeps most games' scores believable).
WILD_BID_RATE: Final = 0.1
ACES: Final = sum(BIT[12 * 4 + s] for s in range(4))
#: Queen, king and ace of each suit: the trumps a greedy bidder counts on.
HIGH_TRUMPS: Final = (*(sum(BIT[r * 4 + s] for r in (10, 11, 12)) for s in range(4)), 0)


def greedy_bid(hand: int, size: int, low: int, trump: int) -> int:
    """Greedy: bid the sure-looking tricks, Blukes, high trumps and plain aces (`hand` in
    this module's rank-major numbering)."""
    sure = BLUKES | HIGH_TRUMPS[trump] | ACES & ~SUIT_MASK[trump]
    return max(low, min(size, (hand & sure).bit_count()))


def greedy_lead(hand: int, need: bool, trump: int) -> int:
    """Greedy lead, as a card's bit: short of the bid (`need`), a Bluke, else the top
    trump, else the highest card; otherwise the lowest plain card."""
    if need:
        pick = hand & BLUKES or hand & SUIT_MASK[trump] or hand
        return 1 << (pick.bit_length() - 1)
    pick = hand & THROW[trump] or hand & NOT_BLUKES or hand
    return pick & -pick


def greedy_follow(legal: int, best: int, need: bool, trump: int) -> int:
    """Greedy follow, as a card's bit: short of the bid, the cheapest legal card that takes
    the trick from `best`; otherwise (or unable) the lowest plain card, else the lowest
    trump, else the Lo Bluke."""
    throw = THROW[trump]
    pick = legal & WIN_OVER[trump][best] if need else 0
    if pick:
        # Plain winners are all of the suit led and trump winners all trumps, so the
        # lowest bit of the cheapest kind is the cheapest card.
        pick = pick & throw or pick & NOT_BLUKES or pick
    else:
        pick = legal & throw or legal & NOT_BLUKES or legal
    return pick & -pick


def simulate_game(
    table: GameSetup, rng: random.Random, strategy: str, card_play: bool, *, variant: Variant
) -> list[dict[str, Any]]:
    """The rounds of a whole game, one per hand of the schedule. Raises `EngineUsageError`
    for a `max_cards` the table cannot be dealt."""
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
        dealt = size * n
        # A Fisher-Yates shuffle from the top of the pack down (on rng.random(), not
        # random.shuffle, whose algorithm may change), dealing each card as it falls into
        # place and stopping once the hands and the upcard are out. The pack holds the
        # cards' bits, which is what a hand is made of.
        deck = list(BIT)
        hands = []
        left = DECK_SIZE
        for _ in players:
            mask = 0
            for span in range(left, left - size, -1):
                j = int(rnd() * span)
                mask |= deck[j]
                deck[j] = deck[span - 1]
            left -= size
            hands.append(mask)
        if dealt < DECK_SIZE:
            upcard = deck[int(rnd() * left)].bit_length() - 1
            trump = SUIT_OF[upcard]
            record["upcard"] = CARD_NAMES[upcard]
        else:
            # Every card dealt: nothing to turn up, so no trump.
            trump = BLUKE_SUIT
        bids = _bids(hands, size, n, low, trump, greedy, rnd)
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
    low: int,
    trump: int,
    greedy: bool,
    rnd: Callable[[], float],
) -> list[int]:
    """Each seat's bid. The table bids from the dealer's left, but no bid here depends on
    another, so they are drawn in seat order."""
    if greedy:
        # Count sure-looking tricks: Blukes, high trumps and plain aces.
        return [greedy_bid(hand, size, low, trump) for hand in hands]
    # Random bids mostly stay within one more than a fair share of the tricks.
    likely = min(size, max(low, -(-size // n) + 1)) - low + 1
    wild = size - low + 1
    return [low + int(rnd() * (wild if rnd() < WILD_BID_RATE else likely)) for _ in range(n)]


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
    and, with `card_play`, the cards of each trick as played.

    Random: a random legal card. Greedy: a player who has not yet made the bid leads a
    Bluke, else the top trump, else the highest card, and follows with the cheapest card
    that takes the trick; a player who has made it (or cannot take the trick) throws the
    lowest plain card, else the lowest trump, else the Lo Bluke.

    The two strategies share the loop, written out once per strategy all the same: it is
    the engine's hottest code, and a test per card of which strategy plays costs more
    than the repetition.
    """
    lead_follow = LEAD_FOLLOW[nj][trump]
    powers = POWER[trump]
    # A player holding a card that follows may play those and the `always` cards: one
    # mask, `follow | always`, once the follow mask is known.
    always = ALWAYS[nj]
    pos = dealer + 1 if dealer + 1 < n else 0
    counts = [0] * n
    tricks: list[list[str]] = []
    trick: list[int] = []
    # Seats twice over, so that the players after the leader are one slice.
    seats = [*range(n), *range(n)]
    if greedy:
        for _ in range(size):
            hand = held[pos]
            bit = greedy_lead(hand, counts[pos] < bids[pos], trump)
            held[pos] = hand ^ bit
            best = card = bit.bit_length() - 1
            follow = lead_follow[card]
            may = follow | always
            power = powers[SUIT_OF[card]]
            best_power = power[card]
            best_pos = pos
            # bluke: after a Bluke lead the first plain card sets the suit to follow.
            open_lead = follow == FULL_DECK_MASK
            if card_play:
                trick = [card]
            for p in seats[pos + 1 : pos + n]:
                hand = held[p]
                legal = hand & may if hand & follow else hand
                bit = greedy_follow(legal, best, counts[p] < bids[p], trump)
                held[p] = hand ^ bit
                card = bit.bit_length() - 1
                value = power[card]
                if value > best_power:
                    best = card
                    best_power = value
                    best_pos = p
                if open_lead and card < LO_BLUKE:
                    follow = SUIT_MASK[SUIT_OF[card]]
                    may = follow | always
                    open_lead = False
                if card_play:
                    trick.append(card)
            if card_play:
                tricks.append([CARD_NAMES[c] for c in trick])
            counts[best_pos] += 1
            pos = best_pos
        return counts, tricks
    for _ in range(size):
        legal = hand = held[pos]
        count = legal.bit_count()
        if count > 1:
            k = int(rnd() * count)
            while k:
                legal &= legal - 1
                k -= 1
        bit = legal & -legal
        held[pos] = hand ^ bit
        card = bit.bit_length() - 1
        follow = lead_follow[card]
        may = follow | always
        power = powers[SUIT_OF[card]]
        best_power = power[card]
        best_pos = pos
        open_lead = follow == FULL_DECK_MASK
        if card_play:
            trick = [card]
        for p in seats[pos + 1 : pos + n]:
            hand = held[p]
            legal = hand & may if hand & follow else hand
            count = legal.bit_count()
            if count > 1:
                k = int(rnd() * count)
                while k:
                    legal &= legal - 1
                    k -= 1
            bit = legal & -legal
            held[p] = hand ^ bit
            card = bit.bit_length() - 1
            value = power[card]
            if value > best_power:
                best_power = value
                best_pos = p
            if open_lead and card < LO_BLUKE:
                follow = SUIT_MASK[SUIT_OF[card]]
                may = follow | always
                open_lead = False
            if card_play:
                trick.append(card)
        if card_play:
            tricks.append([CARD_NAMES[c] for c in trick])
        counts[best_pos] += 1
        pos = best_pos
    return counts, tricks
