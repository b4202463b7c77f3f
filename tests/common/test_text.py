"""The one rule for names and titles (common/text.py): what it refuses, what it keeps,
and how it says so. No database: the paths that use it are tested in
tests/common/test_hidden_characters.py."""

from __future__ import annotations

import pytest

from common.errors import UserError
from common.text import character_name, hidden_character, refuse_hidden_characters, shown

#: The characters of the issue "No 500 when the room races", item 2, each with the words
#: a refusal names it by.
HIDDEN = [
    ("\u0007", "U+0007 (BELL)"),
    ("\u001b", "U+001B (ESCAPE)"),
    ("\u007f", "U+007F (DELETE)"),
    ("\u0085", "U+0085 (NEXT LINE)"),
    ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("\u2066", "U+2066 (LEFT-TO-RIGHT ISOLATE)"),
    ("\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u200d", "U+200D (ZERO WIDTH JOINER)"),
    ("\u200c", "U+200C (ZERO WIDTH NON-JOINER)"),
    ("\ufeff", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
    ("\ue000", "U+E000 (a private-use character)"),
    ("\uffff", "U+FFFF (a noncharacter)"),
    ("\U000e0041", "U+E0041 (TAG LATIN CAPITAL LETTER A)"),
    ("\u2028", "U+2028 (LINE SEPARATOR)"),
    ("\u2029", "U+2029 (PARAGRAPH SEPARATOR)"),
]

#: Names people write, emoji included, that must be kept exactly as typed.
KEPT = [
    "Zoë O'Brien-Smith",
    "Łukasz Żak",
    "山田 太郎",
    "نیلو\u200cفر",  # Persian spells with a zero-width non-joiner between letters
    "क्\u200dष",  # Devanagari: a joiner asks for the half form
    "Ann 🃏",
    "👩\u200d💻 Coders",  # woman technologist: woman, ZWJ, laptop
    "🏳\ufe0f\u200d🌈 night",  # rainbow flag: flag, variation selector, ZWJ, rainbow
    "👍🏽 Bo",  # a skin tone
    "1\ufe0f\u20e3 table",  # keycap one
    "🇬🇧 Cy",  # a flag of two regional indicators
    "Di ❤\ufe0f",
    "👨🏽\u200d🍳 chef",  # a skin tone before the joiner
    "🫨 Ed",  # Unicode 15 (unassigned in older tables): new emoji keep working
]


@pytest.mark.parametrize(("char", "words"), HIDDEN, ids=[w for _, w in HIDDEN])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_every_hidden_character_is_refused_wherever_it_stands(
    char: str, words: str, where: str
) -> None:
    name = {"start": f"{char}Ann", "middle": f"An{char}n", "end": f"Ann{char}"}[where]
    with pytest.raises(UserError) as refused:
        refuse_hidden_characters(name)
    assert refused.value.code == "name_hidden_character"
    assert refused.value.status == 400
    assert f"Names can't contain the invisible character {words}" in refused.value.message


@pytest.mark.parametrize("name", KEPT)
def test_names_in_any_script_and_emoji_are_kept(name: str) -> None:
    assert hidden_character(name) is None
    refuse_hidden_characters(name)


def test_a_joiner_between_two_latin_letters_is_refused() -> None:
    assert hidden_character("a\u200db") == "\u200d"
    assert hidden_character("a\u200cb") == "\u200c"


def test_a_joiner_between_a_letter_and_an_emoji_is_refused() -> None:
    assert hidden_character("a\u200d🃏") == "\u200d"


def test_every_noncharacter_is_refused() -> None:
    for code in [0xFDD0, 0xFDEF, 0xFFFE, 0x1FFFE, 0x10FFFF]:
        assert hidden_character(f"Ann{chr(code)}") == chr(code), hex(code)


def test_the_message_shows_the_name_with_the_character_escaped() -> None:
    with pytest.raises(UserError) as refused:
        refuse_hidden_characters("Bo\u202eb", what="Session names", field="name")
    assert refused.value.message.startswith(
        "Session names can't contain the invisible character U+202E (RIGHT-TO-LEFT OVERRIDE)"
    )
    assert "“Bo\\u202eb”" in refused.value.message
    assert "\u202e" not in refused.value.message
    assert refused.value.field == "name"


def test_shown_escapes_only_what_the_rule_refuses() -> None:
    assert shown("Zoë\u0007 👩\u200d💻 \U000e0041") == "Zoë\\x07 👩\u200d💻 \\U000e0041"


def test_a_control_character_without_a_name_is_named_by_its_kind() -> None:
    assert character_name("\x01") == "U+0001 (a control character)"
