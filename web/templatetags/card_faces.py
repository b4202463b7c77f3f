"""Playing cards as faces on the pages: the seat page, the watch page and the projector
write a card as its rank and suit symbol, red for hearts and diamonds, and read out in
words by a screen reader ("Queen of spades"), never as the record's code ("QS").

One helper for every page: `card` gives a code's face, the filter `card_face` draws it
(`{% load card_faces %}`, `{{ code|card_face }}`), `suit_words` names a trump suit.
static/cards.js (`huckleyCard`) draws the same faces in the same words in the browser:
a change here is a change there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext, pgettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

register = template.Library()

# The words are lazy: each is read in the language of the page that shows it.
SUITS: dict[str, tuple[str, StrOrPromise]] = {
    "S": ("\u2660", pgettext_lazy("suit", "spades")),
    "H": ("\u2665", pgettext_lazy("suit", "hearts")),
    "D": ("\u2666", pgettext_lazy("suit", "diamonds")),
    "C": ("\u2663", pgettext_lazy("suit", "clubs")),
}
RANKS: dict[str, StrOrPromise] = {
    "A": pgettext_lazy("card rank", "ace"),
    "K": pgettext_lazy("card rank", "king"),
    "Q": pgettext_lazy("card rank", "queen"),
    "J": pgettext_lazy("card rank", "jack"),
    "T": "10",
}


def card(code: str) -> tuple[str, str, bool]:
    """A card code of the game record as (face, words, red?): "QS" is ("Q♠", "queen of
    spades", False); Bluke's "BH" the high Bluke, Ten-Point Buck's "7w" a white 7 and
    "0w" the Doe."""
    code = str(code)
    if code == "BH":
        return ("Hi Bluke", gettext("the high Bluke"), False)
    if code == "BL":
        return ("Lo Bluke", gettext("the low Bluke"), False)
    if code.endswith("w") and code[:-1].isdigit():
        number = code[:-1]
        if number == "0":
            return ("Doe", gettext("the Doe (white 0)"), False)
        if number == "10":
            return ("Buck", gettext("the Buck (white 10)"), False)
        return (f"W{number}", gettext("white %(number)s") % {"number": number}, False)
    if code.isdigit():
        return (code, code, False)
    rank, suit = code[:-1], SUITS.get(code[-1:])
    if suit is None:
        return (code, code, False)
    short = ("10" if rank == "T" else rank) + suit[0]
    words = pgettext("a card", "%(rank)s of %(suit)s") % {
        "rank": RANKS.get(rank, rank),
        "suit": suit[1],
    }
    return (short, words, code[-1] in "HD")


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
