"""The 56-card Ten-Point Buck deck as small integers and bit masks.

Source: the Ten-Point Buck rules text, Components, with the ruling that reads it
(docs/rules-ten-point-buck.md).
For each value 1..10 one card is white (a trump); the normal cards are nine 1s, eight
2s, ... one 9; the Doe is the white 0. Every card is worth its value in points, 220 in
all.

A deck holds several identical cards (nine normal 1s), so a hand is a multiset. It is
still a bit mask: each *kind* of card (``7`` or ``7w``) owns a block of bits, one bit
per copy in the deck, and a hand holding two normal 7s has two bits of the 7 block set.
Which two does not matter: taking a card out of a hand clears any set bit of its block.
The legal-play rule then stays one ``&`` per card, as in `engine.cards`.

Bits run by value, and within a value the normal copies come before the white card, so a
mask lists lowest value first: the Doe is bit 0 and the Buck bit 55.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from engine.cards import describe as describe_mask
from engine.cards import mask_to_cards

#: The kinds of card. Kind k of the white cards is the white card of value k (0 = the
#: Doe, 10 = the Buck); kinds 11..19 are the normal 1..9.
WHITE_KINDS: Final = 11
KINDS: Final = 20
DOE: Final = 0
BUCK: Final = 10
#: The Doe's bonus, in Hunting Points, for taking a trick that holds the Doe and the Buck.
DOE_BONUS: Final = 2


def _kind_value(kind: int) -> int:
    return kind if kind < WHITE_KINDS else kind - 10


#: Value (and points) of each kind.
KIND_VALUE: Final[tuple[int, ...]] = tuple(_kind_value(k) for k in range(KINDS))
KIND_WHITE: Final[tuple[bool, ...]] = tuple(k < WHITE_KINDS for k in range(KINDS))
#: How to write each kind: ``7`` for a normal 7, ``7w`` for the white one (the spec).
KIND_NAMES: Final[tuple[str, ...]] = tuple(
    f"{KIND_VALUE[k]}w" if KIND_WHITE[k] else str(KIND_VALUE[k]) for k in range(KINDS)
)
#: Copies of each kind in the deck: one white card per value; 10 - v normal cards of
#: value v (nine 1s ... one 9); no normal 0 or 10.
KIND_COPIES: Final[tuple[int, ...]] = tuple(
    1 if KIND_WHITE[k] else 10 - KIND_VALUE[k] for k in range(KINDS)
)


def _layout() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bit block of each kind, and the kind of each bit."""
    order = [DOE]
    for value in range(1, 10):
        order += [10 + value, value]  # the normal copies, then the white card
    order.append(BUCK)
    slot = [0] * KINDS
    kind_of_bit: list[int] = []
    for kind in order:
        first = len(kind_of_bit)
        kind_of_bit += [kind] * KIND_COPIES[kind]
        slot[kind] = ((1 << KIND_COPIES[kind]) - 1) << first
    return tuple(slot), tuple(kind_of_bit)


#: The bits of each kind (one per copy) and the kind of each bit.
SLOT: Final = _layout()[0]
KIND_OF_BIT: Final = _layout()[1]
DECK_SIZE: Final = len(KIND_OF_BIT)
FULL_DECK: Final = (1 << DECK_SIZE) - 1
DECK_POINTS: Final = sum(KIND_VALUE[k] for k in KIND_OF_BIT)
VALUE_OF_BIT: Final[tuple[int, ...]] = tuple(KIND_VALUE[k] for k in KIND_OF_BIT)
NAME_OF_BIT: Final[tuple[str, ...]] = tuple(KIND_NAMES[k] for k in KIND_OF_BIT)
#: Every card of a value, normal and white: the cards the legal-play rule bars once a
#: card of that value ("rank") is in the trick.
VALUE_MASK: Final[tuple[int, ...]] = tuple(
    sum(SLOT[k] for k in range(KINDS) if KIND_VALUE[k] == v) for v in range(11)
)
#: The same, per kind and per bit, so the hot loops index once.
KIND_RANK_MASK: Final[tuple[int, ...]] = tuple(VALUE_MASK[KIND_VALUE[k]] for k in range(KINDS))
BIT_RANK_MASK: Final[tuple[int, ...]] = tuple(VALUE_MASK[v] for v in VALUE_OF_BIT)
WHITE_MASK: Final = sum(SLOT[k] for k in range(WHITE_KINDS))

#: How strongly each kind takes a trick: any white card (the Doe included) beats every
#: normal card, a higher white beats a lower one, and among normal cards the higher
#: value wins (Tricks). Equal strengths only happen between normal cards of one value,
#: and then the first played keeps the trick. The Doe beating the Buck is not a matter
#: of strength: it is checked once per trick.
KIND_STRENGTH: Final[tuple[int, ...]] = tuple(
    100 + KIND_VALUE[k] if KIND_WHITE[k] else KIND_VALUE[k] for k in range(KINDS)
)
BIT_STRENGTH: Final[tuple[int, ...]] = tuple(KIND_STRENGTH[k] for k in KIND_OF_BIT)
#: The rank bits of a trick holding both the Doe and the Buck.
DOE_AND_BUCK: Final = VALUE_MASK[0] | VALUE_MASK[10]


def _parse_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for kind, name in enumerate(KIND_NAMES):
        table[name] = kind
        if KIND_WHITE[kind]:
            table[name[:-1] + "W"] = kind
    return table


#: Every accepted spelling of a card (``7``, ``7w``, ``7W``) to its kind.
PARSE: Final[dict[str, int]] = _parse_table()


def parse_card(text: Any) -> int | None:
    """The kind of card written as `text`, or None when it is not a Ten-Point Buck card."""
    return PARSE.get(text) if type(text) is str else None


def card_hint(text: Any) -> str:
    """What is wrong with a card that did not parse, for a scorer to put right."""
    if type(text) is str:
        stripped = text.strip().lower()
        if stripped == "10":
            return "there is no normal 10: the only 10 is the Buck, written 10w"
        if stripped == "0":
            return "there is no normal 0: the only 0 is the Doe, written 0w"
    return "write the value 0-10, with w for a white card: 7, 7w, 0w (the Doe), 10w (the Buck)"


#: The bits set in a mask, lowest first: its cards, one bit per copy.
bits_of: Final = mask_to_cards


def describe(mask: int) -> str:
    """The cards of a mask as a scorer reads them, lowest first: ``"1, 1, 4w, 9"``."""
    return describe_mask(mask, NAME_OF_BIT)


def points_of(mask: int) -> int:
    return sum(VALUE_OF_BIT[b] for b in bits_of(mask))


@cache
def undealt_points_range(players: int, doe_and_buck_dealt: bool) -> tuple[int, int]:
    """The fewest and most points the undealt cards can hold at a table of `players`.

    Ten cards each are dealt and the rest set aside (Setup), so the points in play are
    220 minus the undealt cards' points, which a summary cannot know; this is how far
    they can range. When the Doe's bonus was won, the Doe and the Buck were dealt.
    """
    values = sorted(VALUE_OF_BIT)
    if doe_and_buck_dealt:
        values.remove(0)
        values.remove(10)
    undealt = DECK_SIZE - 10 * players
    if undealt <= 0:
        return 0, 0
    return sum(values[:undealt]), sum(values[-undealt:])


# Tallies: a hand as counts per kind, for replaying a record.
#
# A record lists cards as text, and reading it card by card into the bit masks above
# costs more than the replay itself. A tally packs the count of each kind into a 7-bit
# field instead, so a hand is read as one `sum(map(...))` in C, and the deck check over
# all hands is one addition: a count above the kind's copies carries into the field's
# top bit. Every play question stays an `&` (a kind not held has an all-zero field).

TALLY_WIDTH: Final = 7
#: One card of each kind, its whole field, and the fields of every kind of its value.
TALLY_ONE: Final[tuple[int, ...]] = tuple(1 << (TALLY_WIDTH * k) for k in range(KINDS))
TALLY_FIELD: Final[tuple[int, ...]] = tuple(63 * TALLY_ONE[k] for k in range(KINDS))
TALLY_RANK: Final[tuple[int, ...]] = tuple(
    sum(TALLY_FIELD[j] for j in range(KINDS) if KIND_VALUE[j] == KIND_VALUE[k])
    for k in range(KINDS)
)
#: Added to the tally of all hands together (at most 50 of a kind), it sets the top bit
#: of a field exactly when that kind is dealt more often than the deck holds it.
TALLY_SLACK: Final = sum((63 - KIND_COPIES[k]) * TALLY_ONE[k] for k in range(KINDS))
TALLY_OVER: Final = sum(64 * TALLY_ONE[k] for k in range(KINDS))
#: Each spelling of a card to its tally of one, to its value, and to what the replay
#: needs of it: (one, rank fields, strength).
TALLY_OF: Final[dict[str, int]] = {text: TALLY_ONE[k] for text, k in PARSE.items()}
VALUE_OF_TEXT: Final[dict[str, int]] = {text: KIND_VALUE[k] for text, k in PARSE.items()}
PLAY_INFO: Final[dict[str, tuple[int, int, int]]] = {
    text: (TALLY_ONE[k], TALLY_RANK[k], KIND_STRENGTH[k]) for text, k in PARSE.items()
}
#: The rank fields of a trick holding both the Doe and the Buck.
TALLY_DOE_AND_BUCK: Final = TALLY_FIELD[DOE] | TALLY_FIELD[BUCK]


def tally_kinds(tally: int) -> list[int]:
    """The kinds in a tally, once per card, lowest value first (normal before white)."""
    kinds = []
    for k in sorted(range(KINDS), key=lambda k: (KIND_VALUE[k], KIND_WHITE[k])):
        kinds += [k] * ((tally >> (TALLY_WIDTH * k)) & 63)
    return kinds


def describe_tally(tally: int) -> str:
    """A tally as a scorer reads it, lowest first: ``"1, 1, 4w, 9"``."""
    return ", ".join(KIND_NAMES[k] for k in tally_kinds(tally))
