"""When two written names are the same name: the one rule that "find my table", the door,
adding players to a session or the club, sign-up and the roster import all use.

A name is compared by its *match key*: case folded, accents taken off (the marks that
Unicode's compatibility decomposition splits from a letter), and everything that is not
a letter or a digit dropped: punctuation, symbols and spaces. So "rosa diaz" is Rosa
Díaz, "ANNE MARIE COSTELLO" is Anne-Marie Costello, and "Pete OBrien", "Pete O Brien"
and "pete o\u2019brien" (a typographic apostrophe) are Pete O'Brien.

Spaces do not count at all, because people split and join names in every way: "Mc
Gettigan" and "McGettigan", "Mac Donald" and "MacDonald", "Anne Marie" and "Annemarie"
are the same names. The prefixes themselves are kept as written: Mc and Mac are never
folded into one another (as some phone books do), because McDonald and MacDonald are
different families, and a night with both must not seat one at the other's table. So
"padraig mc gettigan" is Pádraig McGettigan, but "Padraig MacGettigan" is a near miss.

Two names are *written alike* (`spelled`) when only case and runs of spaces differ:
between names of the same key, that says which one a person typed ("Rosa Díaz" rather
than "Rosa Diaz" when a club has both), and whether to ask "Did you mean …?" about a
name written otherwise. A name with no match is asked about its *near misses*
(`near_misses`): names one typo away (two for a long name), a letter wrong, missing,
extra, or two letters swapped. Pure Python but for `did_you_mean`'s words (translated).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from django.utils.translation import gettext

#: Keys shorter than this allow one typo for a near miss; longer ones two.
TWO_TYPOS_FROM = 8
#: The most names `near_misses` offers.
NEAR_LIMIT = 6


def _kept(char: str) -> bool:
    """Letters and digits stay; spaces, combining marks (the accents NFKD split off),
    punctuation, symbols and control or format characters go."""
    return unicodedata.category(char)[0] in {"L", "N"}


# Kept for the names of a club or a night, compared again for each name typed.
@lru_cache(maxsize=8192)
def match_key(name: str) -> str:
    """The form of `name` that two names share when they are the same name."""
    # Decomposed on both sides of the case fold: a compatibility form may decompose to a
    # capital (U+210C, black-letter H, to "H"), and a folded letter may decompose further.
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", name).casefold())
    return "".join(char for char in decomposed if _kept(char))


def spelled(name: str) -> str:
    """`name` as it is written, but for case and runs of spaces: two names the same so
    are written alike ("rosa  díaz" and "Rosa Díaz"; not "Rosa Diaz")."""
    return " ".join(name.split()).casefold()


def look_alikes(name: str, known: Iterable[str]) -> list[str]:
    """The names of `known` that are `name` by `match_key` but written differently beyond
    case and spaces ("Rosa Díaz" for "rosa diaz"): whom "Did you mean …?" asks about."""
    key, plain = match_key(name), spelled(name)
    return [k for k in known if match_key(k) == key and spelled(k) != plain]


def typos(one: str, other: str, most: int) -> int | None:
    """How many typos turn the key `one` into the key `other` (a letter changed, added,
    dropped, or two neighbours swapped), or None when it is more than `most`."""
    if abs(len(one) - len(other)) > most:
        return None
    # The optimal string alignment distance, row by row, given up once a row is past `most`.
    before: list[int] = []
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        current = [i] + [0] * len(other)
        for j, b in enumerate(other, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > most:
            return None
        before, row = row, current
    return row[-1] if row[-1] <= most else None


def near_misses(name: str, known: Iterable[str], *, limit: int = NEAR_LIMIT) -> list[str]:
    """The names of `known` that `name` nearly is: not the same name, but one typo away
    (two when its key has `TWO_TYPOS_FROM` letters or more), closest first, then by name.
    Whom "Did you mean …?" offers for a name that is nobody's; two close players are
    both offered, never one guessed."""
    key = match_key(name)
    if not key:
        return []
    most = 2 if len(key) >= TWO_TYPOS_FROM else 1
    found: dict[str, int] = {}
    for other in known:
        other_key = match_key(other)
        if other_key == key:
            continue
        distance = typos(key, other_key, most)
        if distance is not None:
            found[other] = min(distance, found.get(other, distance))
    return sorted(found, key=lambda n: (found[n], spelled(n), n))[:limit]


def did_you_mean(look: dict[str, list[str]]) -> str:
    """The question for typed names that look like names already known, in plain words."""
    asked = "; ".join(
        gettext("for “%(typed)s”, did you mean %(names)s?")
        % {"typed": typed, "names": gettext(" or ").join(sorted(found))}
        for typed, found in look.items()
    )
    return asked[0].upper() + asked[1:]
