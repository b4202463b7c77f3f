"""The rule by which the strict run leaves out the pure tests (tests/purity.py): what
counts as an import that could reach the database, the cache, Celery or a server."""

from __future__ import annotations

import ast

import pytest

from tests import purity


def imported(source: str, package: str = "tests.engine") -> list[str]:
    return purity._imported(ast.parse(source), package)


def test_the_pure_packages_are_those_of_the_import_linter_contract() -> None:
    assert purity.pure_packages() == ("engine", "tournaments.format")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import engine.cards", ["engine.cards"]),
        ("from tournaments import format", ["tournaments.format"]),
        # `models` is no pure module: the import is of `tournaments`, which is not pure.
        ("from tournaments import format, models", ["tournaments.format", "tournaments"]),
        ("from django.db import connection", ["django.db"]),
        ("from . import records", ["tests.engine.records"]),
        ("from .records import game", ["tests.engine.records"]),
        ("from __future__ import annotations", []),
        ("m = __import__('django')", ["importlib"]),
        ("exec('import django')", ["importlib"]),
    ],
)
def test_what_a_module_imports(source: str, expected: list[str]) -> None:
    assert imported(source) == expected


def test_a_module_of_the_engine_and_pytest_is_pure() -> None:
    assert purity.module_is_pure("tests.engine.test_scores")


@pytest.mark.parametrize(
    "module",
    [
        # runs `python -m engine` in another process
        "tests.engine.test_cli",
        # through a helper of test_cli
        "tests.engine.test_ten_point_buck",
        "tests.engine.test_ten_point_buck_refusals",
        # Django
        "tests.workflow.session.test_sessions",
        "tests.test_purity",  # imports sys and tomllib's reader through tests.purity
        "tests.nothing_here",
    ],
)
def test_a_module_that_could_reach_beyond_the_pure_code_is_not(module: str) -> None:
    assert not purity.module_is_pure(module)


def test_the_rule_passes_no_item_it_cannot_prove(request: pytest.FixtureRequest) -> None:
    # This test asks for `request` and its module imports `sys`: not pure twice over.
    assert not purity.is_pure(request.node)
