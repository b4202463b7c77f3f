"""Player names as people type them: spaces folded, and the characters that hide or
turn text around refused with a message that says which and where. Pure Python; the
services that create or rename players call `clean_names`."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from common.errors import UserError

#: Unicode categories a name may not contain: control characters (a bell, an escape),
#: format characters (bidi overrides such as U+202E that turn the text around it, and
#: invisible ones such as the zero-width space that make two names look alike), surrogates,
#: private-use and unassigned code points. Line and paragraph separators are whitespace and
#: are folded into spaces like the rest.
_FORBIDDEN_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


#: The zero-width non-joiner and joiner are spelling in Persian, Arabic and Indic names
#: ("نیلو‌فر"): allowed between two letters, refused anywhere else.
_JOINERS = frozenset({"\u200c", "\u200d"})


def _joins_letters(name: str, i: int) -> bool:
    def letter(j: int) -> bool:
        return 0 <= j < len(name) and unicodedata.category(name[j])[0] in {"L", "M"}

    return letter(i - 1) and letter(i + 1)


def _refuse_hidden_characters(name: str) -> None:
    for i, char in enumerate(name):
        if char in _JOINERS and _joins_letters(name, i):
            continue
        if unicodedata.category(char) in _FORBIDDEN_IN_NAMES:
            what = unicodedata.name(char, "").lower() or "control character"
            shown = name.encode("ascii", "backslashreplace").decode()[:40]
            raise UserError(
                "name_hidden_character",
                f"The name “{shown}” contains an invisible or control character "
                f"(U+{ord(char):04X}, {what}). Type the name again with letters, digits, "
                "spaces and punctuation only.",
            )


def clean_names(names: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for raw in names:
        name = " ".join(raw.split())
        if not name:
            continue
        _refuse_hidden_characters(name)
        if len(name) > 60:
            raise UserError("name_too_long", f"“{name[:20]}…” is longer than 60 characters.")
        seen.setdefault(name.casefold(), name)
    return list(seen.values())
