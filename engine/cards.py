"""Playing cards of the standard 52-card pack as small integers.

The trick games check and simulate thousands of rounds a second, so a card is never an
object: it is ``suit * 13 + rank`` (rank 0 is the two, 12 the ace; suits in the order
S, H, D, C), and a hand is a bit mask with bit ``card`` set for each card held. Every
question the play rules ask ("does the hand hold a heart?", "which of its hearts beat the
jack?") is then one ``&`` against a table built once at import time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

SUITS: Final = "SHDC"
RANKS: Final = "23456789TJQKA"
SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_WORD: Final = ("spade", "heart", "diamond", "club")
DECK_SIZE: Final = 52

#: Canonical text of each card, indexed by card number: ``"2S"`` .. ``"AC"``.
CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
#: Suit (0-3) and rank (0-12) of each card number.
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(DECK_SIZE))
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(DECK_SIZE))
#: The one-bit mask of each card number.
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(DECK_SIZE))
#: Bit mask of all cards of a suit.
SUIT_MASK: Final[tuple[int, ...]] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
#: Bit mask of the cards of the same suit that rank above a card.
ABOVE: Final[tuple[int, ...]] = tuple(
    SUIT_MASK[c // 13] & ~((1 << (c + 1)) - 1) for c in range(DECK_SIZE)
)
FULL_DECK_MASK: Final = (1 << DECK_SIZE) - 1


def spellings(name: str) -> set[str]:
    """The ways input may write a two-letter card name: either letter in either case."""
    return {name, name.lower(), name[0] + name[1].lower(), name[0].lower() + name[1]}


def _parse_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for card, name in enumerate(CARD_NAMES):
        written = spellings(name)
        if name[0] == "T":
            # The spec lets input write the ten as "10".
            written |= {"10" + name[1], "10" + name[1].lower()}
        for spelling in written:
            table[spelling] = card
    return table


#: Every accepted spelling of a card, to its number (case-insensitive, ``10`` for ``T``).
PARSE: Final[dict[str, int]] = _parse_table()


def parse_card(text: Any) -> int | None:
    """The card number written as ``text``, or None when it is not a card."""
    return PARSE.get(text) if type(text) is str else None


def mask_to_cards(mask: int) -> list[int]:
    """The cards in a mask, lowest card number first.

    Only the bits count, so this serves any pack that gives each card one bit (Bluke's 54
    cards, each copy of a Ten-Point Buck card), not only the 52 numbered here.
    """
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def describe(mask: int, card_names: Sequence[str] = CARD_NAMES) -> str:
    """A mask as the scorer would read it off the table: ``"QH, AH"``.

    `card_names` names each bit, for a pack other than the 52 cards numbered here.
    """
    return ", ".join(card_names[c] for c in mask_to_cards(mask))
