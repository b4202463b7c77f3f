"""Playing cards as faces on the pages: the seat page, the watch page and the projector
write a card as its rank and suit symbol, red for hearts and diamonds, and read out in
words by a screen reader ("Queen of spades"), never as the record's code ("QS").

One helper for every page: `card` gives a code's face, the filter `card_face` draws it
(`{% load card_faces %}`, `{{ code|card_face }}`), `suit_words` names a trump suit.
static/cards.js (`huckleyCard`) draws the same faces in the same words in the browser:
a change here is a change there."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

SUITS = {
    "S": ("\u2660", "spades"),
    "H": ("\u2665", "hearts"),
    "D": ("\u2666", "diamonds"),
    "C": ("\u2663", "clubs"),
}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}


def card(code: str) -> tuple[str, str, bool]:
    """A card code of the game record as (face, words, red?): "QS" is ("Q♠", "queen of
    spades", False); Bluke's "BH" the high Bluke, Ten-Point Buck's "7w" a white 7 and
    "0w" the Doe."""
    code = str(code)
    if code == "BH":
        return ("Hi Bluke", "the high Bluke", False)
    if code == "BL":
        return ("Lo Bluke", "the low Bluke", False)
    if code.endswith("w") and code[:-1].isdigit():
        number = code[:-1]
        if number == "0":
            return ("Doe", "the Doe (white 0)", False)
        if number == "10":
            return ("Buck", "the Buck (white 10)", False)
        return (f"W{number}", f"white {number}", False)
    if code.isdigit():
        return (code, code, False)
    rank, suit = code[:-1], SUITS.get(code[-1:])
    if suit is None:
        return (code, code, False)
    short = ("10" if rank == "T" else rank) + suit[0]
    return (short, f"{RANKS.get(rank, rank)} of {suit[1]}", code[-1] in "HD")


def card_name(code: str) -> str:
    """The card in words, as a label reads it on its own: "Queen of spades"."""
    words = card(code)[1]
    return words[:1].upper() + words[1:]


@register.filter
def card_face(code: str | None) -> SafeString | str:
    """The card as a face: its rank and suit symbol in the suit's colour, named in words
    for a screen reader. Nothing for no card."""
    if code is None or code == "":
        return ""
    face, _, red = card(str(code))
    return format_html(
        '<span class="playing-card{}" role="img" aria-label="{}">{}</span>',
        " red" if red else "",
        card_name(str(code)),
        face,
    )


@register.filter
def suit_words(letter: str | None) -> str:
    """A suit's letter in words with its symbol: "S" is "spades ♠"."""
    if letter is None:
        return ""
    return f"{SUITS[letter][1]} {SUITS[letter][0]}" if letter in SUITS else str(letter)
