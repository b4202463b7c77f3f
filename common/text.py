"""The one rule for text a person types as a name or a title: a player's, a session's, a
season's, a club's. Pure Python (`unicodedata`); every path that stores such a name (the
API, the pages, the roster import, the club file, the management commands) asks
`refuse_hidden_characters` before anything is written, and nothing is dropped or
rewritten behind the person's back: a name is stored as typed or refused.

Refused, wherever they stand, because they cannot be seen, or because they turn or hide
the text around them on the projector, in the PDFs, the CSV exports and a terminal:

- control characters (`Cc`: a bell, an escape, DEL, NEXT LINE U+0085, a tab or a newline
  inside a name);
- format characters (`Cf`: bidi overrides and isolates such as U+202E and U+2066, the
  zero-width space, the byte order mark, soft hyphen, and the tag characters
  U+E0000-U+E007F that can spell hidden text; subdivision flags such as England's are
  built from tags and so are refused too);
- line and paragraph separators (`Zl`, `Zp`: U+2028, U+2029);
- private-use code points (`Co`), surrogates (`Cs`) and noncharacters (U+FDD0-U+FDEF and
  the last two of every plane, U+FFFE and U+FFFF);
- unassigned code points (`Cn`), except in the emoji blocks U+1F000-U+1FAFF, where new
  emoji land before this Python's Unicode tables know them.

Kept, because that is how people write: every letter, mark, digit, punctuation and symbol,
emoji with their variation selectors (U+FE0F, a mark) and skin tones. Two joiners are
format characters with a job, and are kept only where they do it:

- the zero-width joiner U+200D between two emoji builds one emoji (👩‍💻, 🏳️‍🌈);
- the zero-width non-joiner U+200C and joiner U+200D between two letters of a script that
  joins (Arabic, Syriac, N'Ko, Mongolian, the Indic scripts) are spelling: "نیلو‌فر".

Between two Latin letters ("a\u200db") or at either end, a joiner only hides something,
and is refused like the zero-width space.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext, gettext_noop

from common.errors import UserError

HIDDEN_CHARACTER = "name_hidden_character"

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_JOINING_SCRIPTS = (
    "ARABIC",
    "SYRIAC",
    "NKO",
    "MONGOLIAN",
    "DEVANAGARI",
    "BENGALI",
    "GURMUKHI",
    "GUJARATI",
    "ORIYA",
    "TAMIL",
    "TELUGU",
    "KANNADA",
    "MALAYALAM",
    "SINHALA",
)
#: Control characters have no name in `unicodedata`; these are the ones a message names.
_CONTROL_NAMES = {
    "\x00": "NULL",
    "\x07": "BELL",
    "\x08": "BACKSPACE",
    "\t": "CHARACTER TABULATION",
    "\n": "LINE FEED",
    "\x0b": "LINE TABULATION",
    "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
}
_EMOJI_MODIFIERS = frozenset({"\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))})


def _noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def _pictograph(char: str) -> bool:
    code = ord(char)
    category = unicodedata.category(char)
    return category == "So" or (category == "Cn" and 0x1F000 <= code <= 0x1FAFF)


def _joining_letter(char: str) -> bool:
    if unicodedata.category(char)[0] not in {"L", "M"}:
        return False
    return unicodedata.name(char, "").startswith(_JOINING_SCRIPTS)


def _joiner_does_its_job(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if not before or not after:
        return False
    if _joining_letter(before) and _joining_letter(after):
        return True
    if text[i] != _ZWJ:
        return False
    j = i - 1
    while j > 0 and text[j] in _EMOJI_MODIFIERS:
        j -= 1
    return _pictograph(text[j]) and _pictograph(after)


def _refused(text: str, i: int) -> bool:
    char = text[i]
    code = ord(char)
    category = unicodedata.category(char)
    if _noncharacter(code):
        return True
    if category == "Cn":
        return not 0x1F000 <= code <= 0x1FAFF
    if char in (_ZWNJ, _ZWJ):
        return not _joiner_does_its_job(text, i)
    return category in _REFUSED_CATEGORIES


def hidden_character(text: str) -> str | None:
    """The first character of `text` that the rule refuses, or None."""
    for i in range(len(text)):
        if _refused(text, i):
            return text[i]
    return None


def character_name(char: str) -> str:
    """`U+202E (RIGHT-TO-LEFT OVERRIDE)`: how a message names a character."""
    name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "")
    if not name:
        category = unicodedata.category(char)
        name = {
            "Cc": "a control character",
            "Co": "a private-use character",
            "Cs": "a lone surrogate",
        }.get(category, "a noncharacter" if _noncharacter(ord(char)) else "unassigned")
    return f"U+{ord(char):04X} ({name})"


def shown(text: str, *, limit: int = 40) -> str:
    """`text` with every refused character written as an escape (`\\u202e`), so that a
    message or a terminal line shows where it is instead of obeying it."""
    out = []
    for i, char in enumerate(text[:limit]):
        if _refused(text, i):
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out) + ("…" if len(text) > limit else "")


def hidden_character_message(text: str, char: str, *, what: str = "Names") -> str:
    """`what` is English, marked with `gettext_noop` where it is written, and translated
    here."""
    return gettext(
        "%(what)s can't contain the invisible character %(character)s, and “%(text)s” has "
        "one. Type it again with letters, digits, spaces, punctuation and emoji only."
    ) % {"what": gettext(what), "character": character_name(char), "text": shown(text)}


def refuse_hidden_characters(
    text: str, *, what: str = gettext_noop("Names"), field: str | None = None
) -> None:
    """Raise `UserError` (`name_hidden_character`, 400) naming the first character the rule
    refuses. `what` starts the message: "Names", "Session names", "Season names"."""
    char = hidden_character(text)
    if char is not None:
        message = hidden_character_message(text, char, what=what)
        raise UserError(HIDDEN_CHARACTER, message, field=field)
