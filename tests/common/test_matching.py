"""When two written names are the same name (common.matching)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.matching import look_alikes, match_key, near_misses, spelled, typos


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("rosa diaz", "Rosa Díaz"),
        ("Pete OBrien", "Pete O'Brien"),
        ("Pete O Brien", "Pete O'Brien"),
        ("pete o\u2019brien", "Pete O'Brien"),
        ("  MAX   ", "Max"),
        ("Zoë  Saldaña", "zoe saldana"),
        ("Strauß", "STRAUSS"),
        ("\uff2a\uff4f\uff48\uff4e", "John"),  # fullwidth letters
        ("ANNE MARIE COSTELLO", "Anne-Marie Costello"),
        ("annemarie costello", "Anne-Marie Costello"),
        ("padraig mc gettigan", "Pádraig McGettigan"),
        ("Mac Donald", "MacDonald"),
        ("Seán Mac Giolla Phádraig", "Sean MacGiolla Phadraig"),
        ("Bo", "B O"),
    ],
)
def test_names_that_differ_only_in_case_accents_punctuation_or_spaces_match(
    typed: str, stored: str
) -> None:
    assert match_key(typed) == match_key(stored)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Rosa Díaz", "Rosa Diez"),
        ("Max", "Maxine"),
        ("Ann Lee", "Anne Lee"),
        # Mc and Mac are different prefixes (different families), never folded together.
        ("McDonald", "MacDonald"),
        ("Mc Donald", "Mac Donald"),
        ("Padraig McGettigan", "Padraig MacGettigan"),
    ],
)
def test_different_names_do_not_match(one: str, other: str) -> None:
    assert match_key(one) != match_key(other)


def test_letters_of_other_scripts_are_kept() -> None:
    assert match_key("Ηλέκτρα Παπαδοπούλου") == "ηλεκτραπαπαδοπουλου"
    assert match_key("山田 太郎") == "山田太郎"


def test_written_alike_means_only_case_and_spaces_differ() -> None:
    assert spelled("  rosa   DÍAZ ") == spelled("Rosa Díaz")
    assert spelled("Rosa Diaz") != spelled("Rosa Díaz")
    assert spelled("Anne Marie") != spelled("Anne-Marie")


def test_look_alikes_are_the_same_name_written_otherwise() -> None:
    known = ["Anne-Marie Costello", "Pádraig McGettigan", "Pádraig MacGettigan", "Max"]
    assert look_alikes("ANNE MARIE COSTELLO", known) == ["Anne-Marie Costello"]
    assert look_alikes("padraig mc gettigan", known) == ["Pádraig McGettigan"]
    assert look_alikes("MAX", known) == []  # only case differs: the same name as written


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("Rosa Dias", ["Rosa Díaz", "Rosa Diez"]),  # two close players: both offered
        ("Rsoa Díaz", ["Rosa Díaz", "Rosa Diez"]),  # a swap is one typo: closest first
        ("Anne Costelo", ["Anne Costello"]),  # a letter missing
        ("Padraig MacGettigan", ["Pádraig McGettigan"]),  # a letter extra
        ("Rosa Dyaz", ["Rosa Díaz", "Rosa Diez"]),
        ("Ros Dizz", []),  # three typos
        ("Mxa", ["Max"]),
        ("Mxo", []),  # a short name allows one typo only
        ("Rosa Díaz", ["Rosa Diez"]),  # the same name is not a near miss
    ],
)
def test_near_misses_are_one_or_two_typos_away(typed: str, offered: list[str]) -> None:
    known = ["Rosa Díaz", "Rosa Diez", "Rosa Ortiz", "Anne Costello", "Pádraig McGettigan", "Max"]
    assert near_misses(typed, known) == offered


def test_near_misses_come_closest_first_and_are_limited() -> None:
    known = ["Rosa Dia", "Rosa Diaz", "Rosa Dix"]
    assert near_misses("Rosa Diax", known) == ["Rosa Dia", "Rosa Diaz", "Rosa Dix"]
    assert near_misses("Rosa Diax", known, limit=1) == ["Rosa Dia"]
    assert near_misses("   ", known) == []


def test_typos_counts_edits_up_to_the_most() -> None:
    assert typos("kitten", "sitting", 3) == 3
    assert typos("kitten", "sitting", 2) is None
    assert typos("ab", "ba", 1) == 1
    assert typos("", "abc", 3) == 3


# Generated names: words of letters (Latin, with a few accented ones) joined by spaces.
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_word = st.text(alphabet=_LETTERS, min_size=1, max_size=10)
_names = st.lists(_word, min_size=1, max_size=4).map(" ".join)
_accents = ["\u0301", "\u0300", "\u0308", "\u0303", "\u0327", "\u030c"]
_separators = ["-", " ", "'", "\u2019", "", "  ", ". "]


@given(st.text())
def test_the_key_of_a_key_is_itself(name: str) -> None:
    assert match_key(match_key(name)) == match_key(name)


@given(st.text())
def test_a_key_has_no_capitals_marks_punctuation_or_spaces(name: str) -> None:
    key = match_key(name)
    assert all(c.isalnum() for c in key)  # no space, mark, punctuation or symbol


@given(_names, st.data())
def test_hyphens_spaces_and_apostrophes_between_letters_do_not_count(
    name: str, data: st.DataObject
) -> None:
    letters = name.replace(" ", "")
    cuts = data.draw(st.lists(st.integers(1, max(1, len(letters) - 1)), max_size=4))
    rebuilt = letters
    for cut in sorted(set(cuts), reverse=True):
        rebuilt = rebuilt[:cut] + data.draw(st.sampled_from(_separators)) + rebuilt[cut:]
    assert match_key(rebuilt) == match_key(name)


@given(_names, st.data())
def test_case_and_accents_do_not_count(name: str, data: st.DataObject) -> None:
    changed = "".join(
        data.draw(st.sampled_from([c.lower(), c.upper()]))
        + (data.draw(st.sampled_from(["", *_accents])) if c.isalpha() else "")
        for c in name
    )
    composed = unicodedata.normalize("NFC", changed)  # "é" as one character, as typed
    assert match_key(composed) == match_key(name)
    assert match_key(changed) == match_key(name)


@given(_names, st.data())
def test_names_that_differ_in_a_letter_never_share_a_key(name: str, data: st.DataObject) -> None:
    positions = [i for i, c in enumerate(name) if c.isalpha()]
    at = data.draw(st.sampled_from(positions))
    other = data.draw(st.sampled_from([c for c in _LETTERS if c.lower() != name[at].lower()]))
    changed = name[:at] + other + name[at + 1 :]
    assert match_key(changed) != match_key(name)
    assert near_misses(changed, [name]) == [name]


@given(_names, _names)
def test_near_misses_never_offer_the_same_name_and_are_symmetric(one: str, other: str) -> None:
    if match_key(one) == match_key(other):
        assert near_misses(one, [other]) == []
    else:
        distance = typos(match_key(one), match_key(other), 2)
        assert (distance is not None) == (typos(match_key(other), match_key(one), 2) is not None)
