"""Card-level play of Bluke and New Jersey Bluke: legal cards, trick winners, replay.

Hands are 54-bit masks (see `engine.games.bluke.cards`). Both games rank the cards the
same way: the Hi Bluke, then the Lo Bluke, above every trump; a trump above any plain
card; otherwise the highest card of the suit to follow takes the trick. They differ in
what a player must play:

* `bluke`: follow suit if able, but a Bluke may be played at any time. When a Bluke is
  led, the first plain card played sets the suit to follow (ruling).
* `bluke-nj`: the Blukes belong to the trump suit, so they follow a trump lead, a Bluke
  lead is a trump lead, and a Bluke may not be played while the player can follow a plain
  suit that was led. With no trump, the two Blukes are a trump suit of their own.

Both rules come down to two masks per trick: ``follow``, the cards that follow the lead,
and ``always``, the cards playable whatever was led (the Blukes in `bluke`, nothing in
`bluke-nj`). A player holding a card of ``follow`` must play one of ``follow | always``;
one who does not may play anything. Until a `bluke` trick has a plain card, ``follow`` is
every card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.base import Problem
from engine.cards import SUIT_WORD, SUIT_WORDS
from engine.games._common.play import (
    PlayResult,
    card_not_in_hand,
    not_a_card,
    not_a_play,
    read_hands,
    read_tricks,
    renege,
)
from engine.games.bluke.cards import (
    BIT,
    BLUKE_SUIT,
    BLUKES,
    CARD_NAMES,
    FULL_DECK_MASK,
    LO_BLUKE,
    PARSE,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    describe,
    parse_card,
)

CARD_HINT: Final = "write rank then suit, like 7H or TD, or BH / BL for a Bluke"
_RENEGE_ADVICE: Final = (
    "Check the cards entered; if the hand was really played so, enter the round without "
    "play, with the bids and tricks the table agreed."
)


Table3 = tuple[tuple[tuple[int, ...], ...], ...]


def follow_table(suit_of: Sequence[int], suit_mask: Sequence[int]) -> Table3:
    """``[nj][trump][card]``: the follow mask of a trick once `card` is led.

    Built from a card numbering's suit tables, so the simulator can use its own numbering.
    """
    blukes = suit_mask[BLUKE_SUIT]
    full = (1 << len(suit_of)) - 1
    table = []
    for nj in (False, True):
        per_trump = []
        for trump in range(5):
            follow = []
            for suit in suit_of:
                if not nj:
                    follow.append(full if suit == BLUKE_SUIT else suit_mask[suit])
                elif suit in (trump, BLUKE_SUIT):
                    # A trump or a Bluke led: the trump suit, Blukes included, follows.
                    follow.append(suit_mask[trump] | blukes)
                else:
                    follow.append(suit_mask[suit])
            per_trump.append(tuple(follow))
        table.append(tuple(per_trump))
    return tuple(table)


def power_table(suit_of: Sequence[int], rank_of: Sequence[int]) -> Table3:
    """``[trump][led][card]``: how strongly `card` bids for a trick whose suit to follow
    is `led`; the highest power takes the trick.

    Blukes above trumps above the suit led (Hi above Lo, each by rank); any other card
    cannot win (-1). After a Bluke lead (`led` = the Blukes' pseudo-suit) a Bluke is
    already winning, so the suit later set to follow never decides the trick.
    """
    return tuple(
        tuple(
            tuple(
                200 + rank
                if suit == BLUKE_SUIT
                else 100 + rank
                if suit == trump
                else rank
                if suit == led
                else -1
                for suit, rank in zip(suit_of, rank_of, strict=True)
            )
            for led in range(5)
        )
        for trump in range(5)
    )


#: LEAD_FOLLOW[nj][trump][card] and POWER[trump][led][card] in `engine.games.bluke.cards`
#: numbering.
LEAD_FOLLOW: Final = follow_table(SUIT_OF, SUIT_MASK)
POWER: Final = power_table(SUIT_OF, RANK_OF)
#: ALWAYS[nj]: the cards a player may play whatever was led.
ALWAYS: Final = (BLUKES, 0)


def trick_follow(trick: Sequence[int], trump: int, nj: bool) -> int:
    """The follow mask of a trick once `trick` (non-empty) has been played."""
    follow = LEAD_FOLLOW[nj][trump][trick[0]]
    if follow == FULL_DECK_MASK:
        for card in trick:
            if card < LO_BLUKE:
                return SUIT_MASK[SUIT_OF[card]]
    return follow


def legal_cards(hand: int, trick: Sequence[int], trump: int, nj: bool) -> int:
    """The cards of `hand` that may be played to `trick` (the cards so far, leader first)."""
    if not trick:
        return hand
    legal = hand & trick_follow(trick, trump, nj)
    return legal | hand & ALWAYS[nj] if legal else hand


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Index in `trick` (leader first) of the card that takes it."""
    power = POWER[trump][SUIT_OF[trick[0]]]
    return max(range(len(trick)), key=lambda j: power[trick[j]])


def renege_reason(hand: int, card: int, trick: Sequence[int], trump: int, nj: bool) -> str:
    """Which rule playing `card` broke, and what the player had to play instead."""
    follow = trick_follow(trick, trump, nj)
    held = hand & follow
    lead = trick[0]
    if nj:
        if follow & BLUKES:
            if trump == BLUKE_SUIT:
                return (
                    f"had to follow the Bluke lead with the other Bluke ({describe(held)}): "
                    "with no trump the Blukes are a trump suit of their own"
                )
            what = "Bluke lead, a trump lead," if lead >= LO_BLUKE else "trump lead"
            return (
                f"had to follow the {what} with a trump (Blukes count as trumps in this "
                f"game; trumps held: {describe(held)})"
            )
        suit = SUIT_OF[lead]
        why = (
            "; a Bluke belongs to the trump suit and may not be played while the player "
            "can follow a plain suit"
            if card >= LO_BLUKE
            else ""
        )
        return (
            f"had to follow suit to the {SUIT_WORD[suit]} lead "
            f"({SUIT_WORDS[suit]} held: {describe(held)}){why}"
        )
    suit = SUIT_OF[next(c for c in trick if c < LO_BLUKE)]
    may_bluke = " or a Bluke" if hand & BLUKES else ""
    if lead >= LO_BLUKE:
        setter = next(c for c in trick if c < LO_BLUKE)
        return (
            f"had to play a {SUIT_WORD[suit]}{may_bluke}: after the {CARD_NAMES[lead]} lead "
            f"the first plain card, {CARD_NAMES[setter]}, set {SUIT_WORDS[suit]} as the suit "
            f"to follow ({SUIT_WORDS[suit]} held: {describe(held)})"
        )
    return (
        f"had to follow suit to the {SUIT_WORD[suit]} lead with a {SUIT_WORD[suit]}"
        f"{may_bluke} ({SUIT_WORDS[suit]} held: {describe(held)})"
    )


def _not_a_card(number: int, text: Any, where: str, player: str | None) -> Problem:
    return not_a_card(number, text, where, player, CARD_HINT)


def check_play(
    *,
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    size: int,
    upcard: int | None,
    trump: int,
    nj: bool,
    raw: Any,
) -> PlayResult | list[Problem]:
    """Check a round's `play` (every player's `size` cards and the `size` tricks) and derive
    its tricks. `upcard` is the checked upcard (None when every card was dealt)."""
    if type(raw) is not dict or type(raw.get("hands")) is not dict:
        return [not_a_play(number, f"{size} cards", size)]
    raw_hands: dict[Any, Any] = raw["hands"]
    raw_tricks = raw.get("tricks")
    sound = _read_sound_play(raw_hands, raw_tricks, players, size, upcard)
    if sound is None:
        careful = _read_play(number, players, seat, size, upcard, raw_hands, raw_tricks)
        if isinstance(careful, list):
            return careful
        sound = careful
    hands, tricks = sound
    return replay(
        number=number,
        players=players,
        dealer=dealer,
        trump=trump,
        nj=nj,
        hands=hands,
        tricks=tricks,
    )


def _read_sound_play(
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
    players: Sequence[str],
    size: int,
    upcard: int | None,
) -> tuple[list[int], list[list[int]]] | None:
    """The hands (masks, in seat order) and tricks (card numbers) of a play with nothing
    wrong in its shape, or None at the first irregularity.

    The common case of a sound record is read here in a few tight loops; anything odd
    goes back to `_read_play`, which says what is wrong.
    """
    n = len(players)
    if len(raw_hands) != n or type(raw_tricks) is not list or len(raw_tricks) != size:
        return None
    get = PARSE.get
    used = 0 if upcard is None else BIT[upcard]
    hands = []
    try:
        for name in players:
            cards = raw_hands.get(name)
            if type(cards) is not list or len(cards) != size:
                return None
            mask = 0
            for text in cards:
                c = get(text)
                if c is None:
                    return None
                mask |= BIT[c]
            if used & mask or mask.bit_count() != size:
                return None
            used |= mask
            hands.append(mask)
        tricks = []
        for trick in raw_tricks:
            if type(trick) is not list or len(trick) != n:
                return None
            cards_played = [get(text, -1) for text in trick]
            if -1 in cards_played:
                return None
            tricks.append(cards_played)
    except TypeError:
        # An unhashable value where a card belongs.
        return None
    return hands, tricks


def _read_play(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    size: int,
    upcard: int | None,
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
) -> tuple[list[int], list[list[int]]] | list[Problem]:
    """Every problem with the shape of `play`, or its hands and tricks when there is none."""
    errors: list[Problem] = []
    n = len(players)
    hand_of_seat = read_hands(
        number,
        players,
        seat,
        raw_hands,
        errors,
        in_play=range(n),
        parse=parse_card,
        not_a_card=_not_a_card,
        card_names=CARD_NAMES,
        upcard=upcard,
        takers=(),
        size=size,
        size_rule=f"this hand deals {size} to each player",
        missing_rule="; every player holds a hand in every round",
        upcard_rule="; the upcard is turned up from the cards left over after the deal, so "
        "nobody holds it",
    )
    tricks = read_tricks(
        number,
        raw_tricks,
        errors,
        count=size,
        size=n,
        parse=parse_card,
        not_a_card=_not_a_card,
        count_rule=f"a hand of {size} cards each plays {size}",
        size_rule=f"with {n} players each trick has {n}",
    )
    if errors:
        return errors
    return [hand_of_seat[s] for s in range(n)], tricks


def replay(
    *,
    number: int,
    players: Sequence[str],
    dealer: int,
    trump: int,
    nj: bool,
    hands: list[int],
    tricks: list[list[int]],
) -> PlayResult | list[Problem]:
    """Play the tricks card by card from `hands` (masks in seat order, used up as played);
    the tricks each seat took, or the first card that breaks a rule."""
    n = len(players)
    lead_follow = LEAD_FOLLOW[nj][trump]
    powers = POWER[trump]
    power = powers[0]
    always = ALWAYS[nj]
    pos = dealer + 1 if dealer + 1 < n else 0
    counts = [0] * n
    winners: list[int] = []
    for t, trick in enumerate(tricks, start=1):
        follow = 0
        best = -1
        best_pos = pos
        p = pos
        for j, card in enumerate(trick):
            hand = hands[p]
            bit = 1 << card
            if not hand & bit:
                held = describe(hand) or "no cards"
                return [
                    card_not_in_hand(number, t, j, CARD_NAMES[card], players[p], held, players[pos])
                ]
            if j == 0:
                follow = lead_follow[card]
                power = powers[SUIT_OF[card]]
                best = power[card]
            else:
                legal = hand & follow
                if legal and not (legal | hand & always) & bit:
                    name = players[p]
                    why = f"{name} {renege_reason(hand, card, trick[:j], trump, nj)}"
                    return [renege(number, t, name, CARD_NAMES[card], why, _RENEGE_ADVICE)]
                if power[card] > best:
                    best = power[card]
                    best_pos = p
                if follow == FULL_DECK_MASK and card < LO_BLUKE:
                    # bluke: the first plain card after a Bluke lead sets the suit.
                    follow = SUIT_MASK[SUIT_OF[card]]
            hands[p] = hand ^ bit
            p = p + 1 if p + 1 < n else 0
        counts[best_pos] += 1
        winners.append(best_pos)
        pos = best_pos
    return PlayResult(counts, winners)
