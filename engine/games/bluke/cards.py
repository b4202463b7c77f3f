"""Bluke's 54-card pack as small integers: the 52 cards of `engine.cards` plus two Blukes.

Card numbers 0-51 are those of `engine.cards` (``suit * 13 + rank``), so its masks and
tables (``SUIT_MASK``, ``ABOVE``) still answer every question about the plain cards. The
jokers come last: 52 is the Lo Bluke (``BL``) and 53 the Hi Bluke (``BH``), so that a
plain ``>`` between the two says which one wins, and a hand is a 54-bit mask.

The Blukes get the pseudo-suit 4 (`BLUKE_SUIT`). A hand with no trump (a Bluke turned up,
or every card dealt) is played with ``trump == BLUKE_SUIT``: no plain card is then a
trump, and in `bluke-nj` the Blukes alone make up the trump suit.
"""

from __future__ import annotations

from typing import Any, Final

from engine.cards import CARD_NAMES as PLAIN_NAMES
from engine.cards import PARSE as PLAIN_PARSE
from engine.cards import RANK_OF as PLAIN_RANK_OF
from engine.cards import SUIT_MASK as PLAIN_SUIT_MASK
from engine.cards import SUIT_OF as PLAIN_SUIT_OF
from engine.cards import SUIT_WORDS, spellings
from engine.cards import describe as describe_mask

DECK_SIZE: Final = 54
LO_BLUKE: Final = 52
HI_BLUKE: Final = 53
BLUKE_SUIT: Final = 4
#: Bit mask of the two Blukes.
BLUKES: Final = (1 << LO_BLUKE) | (1 << HI_BLUKE)
FULL_DECK_MASK: Final = (1 << DECK_SIZE) - 1

CARD_NAMES: Final[tuple[str, ...]] = (*PLAIN_NAMES, "BL", "BH")
SUIT_OF: Final[tuple[int, ...]] = (*PLAIN_SUIT_OF, BLUKE_SUIT, BLUKE_SUIT)
#: Rank of each card: 0 (two) to 12 (ace); the Lo Bluke 0 and the Hi Bluke 1 of their own.
RANK_OF: Final[tuple[int, ...]] = (*PLAIN_RANK_OF, 0, 1)
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(DECK_SIZE))
#: Bit mask of each suit, the Blukes' pseudo-suit last.
SUIT_MASK: Final[tuple[int, ...]] = (*PLAIN_SUIT_MASK, BLUKES)


def _parse_table() -> dict[str, int]:
    table = dict(PLAIN_PARSE)
    for name, card in (("BL", LO_BLUKE), ("BH", HI_BLUKE)):
        for spelling in spellings(name):
            table[spelling] = card
    return table


#: Every accepted spelling of a card, to its number (case-insensitive, ``10`` for ``T``,
#: ``BH`` and ``BL`` for the Blukes).
PARSE: Final[dict[str, int]] = _parse_table()


def parse_card(text: Any) -> int | None:
    """The card number written as ``text``, or None when it is not a card."""
    return PARSE.get(text) if type(text) is str else None


def describe(mask: int) -> str:
    """A mask as the scorer would read it off the table: ``"QH, AH, BL"``."""
    return describe_mask(mask, CARD_NAMES)


def trump_of(upcard: int | None) -> int:
    """The trump suit an upcard makes: its suit, or `BLUKE_SUIT` (no trump) for a Bluke or
    for a hand with every card dealt (no upcard)."""
    return BLUKE_SUIT if upcard is None else SUIT_OF[upcard]


def trump_words(trump: int) -> str:
    return "no trump" if trump == BLUKE_SUIT else f"{SUIT_WORDS[trump]} trump"
