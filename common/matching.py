"""When two written names are the same name: the one rule that "find my table", adding
players to a session or the club and the roster import all use.

A name is compared by its *match key*: case folded, accents taken off (the marks that
Unicode's compatibility decomposition splits from a letter), punctuation and symbols
dropped, and runs of spaces folded into one. "rosa diaz" and "Rosa Díaz" have the same
key; so have "Pete OBrien", "Pete O'Brien" and "pete o\u2019brien" (a typographic
apostrophe). Pure Python.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from django.utils.translation import gettext


def _kept(char: str) -> bool:
    """Letters, digits and spaces stay; combining marks (the accents NFKD split off),
    punctuation, symbols and control or format characters go."""
    return char.isspace() or unicodedata.category(char)[0] in {"L", "N"}


def match_key(name: str) -> str:
    """The form of `name` that two names share when they are the same name."""
    # Decomposed on both sides of the case fold: a compatibility form may decompose to a
    # capital (U+210C, black-letter H, to "H"), and a folded letter may decompose further.
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", name).casefold())
    return " ".join("".join(char for char in decomposed if _kept(char)).split())


def look_alikes(name: str, known: Iterable[str]) -> list[str]:
    """The names of `known` that are `name` by `match_key` but written differently beyond
    case and spaces ("Rosa Díaz" for "rosa diaz"): whom "Did you mean …?" asks about."""
    key, plain = match_key(name), " ".join(name.split()).casefold()
    return [k for k in known if match_key(k) == key and " ".join(k.split()).casefold() != plain]


def did_you_mean(look: dict[str, list[str]]) -> str:
    """The question for typed names that look like names already known, in plain words."""
    asked = "; ".join(
        gettext("for “%(typed)s”, did you mean %(names)s?")
        % {"typed": typed, "names": gettext(" or ").join(sorted(found))}
        for typed, found in look.items()
    )
    return asked[0].upper() + asked[1:]
