"""When two written names are the same name (common.matching)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.matching import match_key


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("rosa diaz", "Rosa Díaz"),
        ("Pete OBrien", "Pete O'Brien"),
        ("pete o\u2019brien", "Pete O'Brien"),
        ("  MAX   ", "Max"),
        ("Zoë  Saldaña", "zoe saldana"),
        ("Strauß", "STRAUSS"),
        ("\uff2a\uff4f\uff48\uff4e", "John"),  # fullwidth letters,
    ],
)
def test_names_that_differ_only_in_case_accents_punctuation_or_spaces_match(
    typed: str, stored: str
) -> None:
    assert match_key(typed) == match_key(stored)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Rosa Díaz", "Rosa Diez"), ("Max", "Maxine"), ("Ann Lee", "Anne Lee"), ("Bo", "B O")],
)
def test_different_names_do_not_match(one: str, other: str) -> None:
    assert match_key(one) != match_key(other)


def test_letters_of_other_scripts_are_kept() -> None:
    assert match_key("Ηλέκτρα Παπαδοπούλου") == "ηλεκτρα παπαδοπουλου"
    assert match_key("山田 太郎") == "山田 太郎"


@given(st.text())
def test_the_key_of_a_key_is_itself(name: str) -> None:
    assert match_key(match_key(name)) == match_key(name)


@given(st.text())
def test_a_key_has_no_capitals_marks_punctuation_or_stray_spaces(name: str) -> None:
    key = match_key(name)
    assert key == key.strip()
    assert "  " not in key
    assert all(c == " " or c.isalnum() for c in key)
