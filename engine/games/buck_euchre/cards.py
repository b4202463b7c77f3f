"""The 24-card Buck Euchre pack and its bowers, as lookup tables.

Cards keep the engine's numbering (``suit * 13 + rank``, see `engine.cards`), so the
shared parser reads them and the nine (rank 7) to the ace (rank 12) are the pack. What
the trump suit changes is looked up here, in one table per trump suit plus one for a
hand played without trump (index `NO_TRUMP`):

* the jack of trump (right bower) ranks highest and the jack of the other suit of the
  same colour (left bower) second, above the ace of trump;
* the left bower belongs to trump: it follows a trump lead, leads trump, and does not
  follow its own printed suit.

With these tables a legal-card question is one ``&`` and a trick winner one ``&`` per
card, as in the Huckley Buck games.
"""

from __future__ import annotations

from typing import Any, Final

from engine.cards import BIT, CARD_NAMES, PARSE, RANK_OF, SUIT_OF, SUIT_WORD, SUIT_WORDS

NO_TRUMP: Final = 4
CLUBS: Final = 3
NINE: Final = 7
JACK: Final = 9
ACE: Final = 12
#: The suit of the same colour: spades and clubs are black, hearts and diamonds red.
SAME_COLOUR: Final = (3, 2, 1, 0)
#: The 24 cards, 9 to ace in each suit (ruling; the source's "32-card" is a slip).
PACK_CARDS: Final[tuple[int, ...]] = tuple(
    s * 13 + r for s in range(4) for r in range(NINE, ACE + 1)
)
PACK: Final = sum(BIT[c] for c in PACK_CARDS)
ACES: Final = sum(BIT[s * 13 + ACE] for s in range(4))
#: Every accepted spelling of a card of the pack (`engine.cards.PARSE` without the 2-8).
PACK_PARSE: Final[dict[str, int]] = {text: c for text, c in PARSE.items() if PACK & BIT[c]}


def right_bower(trump: int) -> int:
    return trump * 13 + JACK


def left_bower(trump: int) -> int:
    return SAME_COLOUR[trump] * 13 + JACK


def _suit(card: int, trump: int) -> int:
    if trump != NO_TRUMP and card == left_bower(trump):
        return trump
    return SUIT_OF[card]


def _strength(card: int, trump: int) -> int:
    """An order on all cards under one trump: trumps above everything, bowers on top."""
    if trump == NO_TRUMP:
        return RANK_OF[card]
    if card == right_bower(trump):
        return 100 + 20
    if card == left_bower(trump):
        return 100 + 19
    return RANK_OF[card] + (100 if SUIT_OF[card] == trump else 0)


#: SUIT[t][card]: the suit a card belongs to when t is trump (the left bower is trump).
SUIT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_suit(c, t) for c in range(52)) for t in range(5)
)
#: STRENGTH[t][card]: higher beats lower within a suit; any trump beats any plain card.
STRENGTH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_strength(c, t) for c in range(52)) for t in range(5)
)
#: SUIT_CARDS[t][s]: the pack's cards of suit s when t is trump.
SUIT_CARDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(BIT[c] for c in PACK_CARDS if SUIT[t][c] == s) for s in range(4)) for t in range(5)
)
#: FOLLOW[t][card]: what follows suit to `card` led: the cards of its suit under trump t.
FOLLOW: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(SUIT_CARDS[t][SUIT[t][c]] for c in range(52)) for t in range(5)
)


def _beaters(card: int, trump: int) -> int:
    # `card` is winning the trick, so it is of the suit led or a trump: it is beaten by a
    # higher card of its own suit, or by any trump when it is not one.
    suit = SUIT[trump][card]
    mask = 0
    for c in PACK_CARDS:
        if SUIT[trump][c] == suit and STRENGTH[trump][c] > STRENGTH[trump][card]:
            mask |= BIT[c]
    if trump != NO_TRUMP and suit != trump:
        mask |= SUIT_CARDS[trump][trump]
    return mask


#: BEATERS[t][card]: the cards that take the trick from `card` when it is winning it.
BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_beaters(c, t) for c in range(52)) for t in range(5)
)


def parse_pack_card(text: Any) -> int | None:
    """The card of the pack written as `text`, or None (for a card outside the pack too)."""
    return PACK_PARSE.get(text) if type(text) is str else None


def in_pack(card: int) -> bool:
    return bool(PACK & BIT[card])


def name(card: int, trump: int) -> str:
    """A card as a scorer reads it, saying so when it is a bower: ``"JD (left bower)"``."""
    if trump != NO_TRUMP:
        if card == right_bower(trump):
            return f"{CARD_NAMES[card]} (right bower)"
        if card == left_bower(trump):
            return f"{CARD_NAMES[card]} (left bower, a {SUIT_WORD[trump]})"
    return CARD_NAMES[card]


def describe(mask: int, trump: int) -> str:
    """The cards of a mask, strongest first, bowers named: ``"JH (right bower), AH"``."""
    cards = [c for c in PACK_CARDS if mask & BIT[c]]
    cards.sort(key=STRENGTH[trump].__getitem__, reverse=True)
    return ", ".join(name(c, trump) for c in cards)


def suit_word(suit: int, plural: bool = False) -> str:
    return (SUIT_WORDS if plural else SUIT_WORD)[suit]
