"""The engine's refusals as the pages show them: in Spanish under Spanish, keyed by the
engine's code (scoring/engine_words.py), and the engine's own words in English."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation

import engine
from scoring import engine_words
from tests.languages import catalogues  # noqa: F401 (a fixture)

NO_TRICKS = {
    "format": "buck-game/1",
    "rules": "huckley-buck",
    "players": ["Ann", "Bob", "Cy", "Di"],
    "first_dealer": "Ann",
    "rounds": [{"dealer": "Ann"}],
}


@pytest.fixture
def spanish() -> Iterator[None]:
    with translation.override("es"):
        yield


pytestmark = pytest.mark.usefixtures("catalogues")


def test_a_round_the_engine_refuses_reads_in_spanish(spanish: None) -> None:
    [problem] = engine.check(NO_TRICKS)["errors"]
    assert problem["code"] == "tricks_missing"
    assert engine_words.problem_message(problem) == (
        "Mano 1: No hay bazas anotadas en esta mano; anota cuántas bazas ganó cada "
        "jugador que siguió en la mano (o marca la mano como reparto nulo)."
    )
    [in_words] = engine_words.problems_in_words([problem])
    assert in_words["code"] == "tricks_missing"
    assert in_words["field"] == "tricks"


def test_a_refused_move_reads_in_spanish(spanish: None) -> None:
    english = "You must follow suit to the hearts lead with one of your hearts (QH), not 9S."
    assert engine_words.move_message("must_follow", english) == (
        "Debes seguir el palo: juega una carta del palo de salida."
    )


def test_english_keeps_the_engines_own_words() -> None:
    [problem] = engine.check(NO_TRICKS)["errors"]
    with translation.override("en"):
        assert engine_words.problem_message(problem) == problem["message"]
        assert engine_words.move_message("must_follow", "Follow hearts.") == "Follow hearts."


def test_a_code_the_table_does_not_know_keeps_the_engines_words(spanish: None) -> None:
    problem = {"round": 2, "code": "a_new_code", "message": "Something new.", "field": None}
    assert engine_words.problem_message(problem) == "Something new."


def test_every_code_the_engine_uses_has_its_sentence() -> None:
    """A new engine code without a sentence would show in English on a Spanish page."""
    codes: dict[str, set[str]] = {"problem": set(), "MoveRefused": set()}
    for path in Path(engine.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node.func, "id", "") if isinstance(node, ast.Call) else ""
            if name in codes:
                assert isinstance(node, ast.Call)
                at = 1 if name == "problem" else 0
                code = node.args[at] if len(node.args) > at else None
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes[name].add(code.value)
    assert codes["problem"]
    assert codes["MoveRefused"]
    assert codes["problem"] <= set(engine_words.PROBLEMS)
    assert codes["MoveRefused"] <= set(engine_words.MOVES)
