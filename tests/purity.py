"""Which tests can give the same answer whatever the database, the cache, Celery and the
servers are: the rule by which the strict run of `.ci/run` leaves them out
(HUCKLEY_DEPENDENT_ONLY=1; `make test` runs them all). Computed from the code at
collection, never kept by hand:

A test is pure when
- its module, and every module of `tests/` it imports (and theirs, and their packages'
  `__init__`), imports only: the pure packages (the `pure` contract of
  `[tool.importlinter]` in pyproject.toml, which `make lint` keeps free of Django),
  pytest and Hypothesis, and the standard library except what reaches another process,
  the network, the environment or a module named at run time (`IMPURE_STDLIB`);
- every fixture it uses is pytest's own (`tmp_path`, `monkeypatch`, the parameters...),
  Hypothesis's, one defined in such a pure module, or one of pytest-django's autouse
  fixtures, which only act on a test that asks for the database (next rule) or a live
  server (not a pure fixture), or on a unittest class (an import of Django);
- it has no `django_db`, `services` or `browser` marker.

Everything else runs in both runs: a test that cannot be proved pure this way counts as
one that can depend on them.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"

# The standard library's ways to another process, the network, the environment, or a
# module chosen at run time (which could be Django).
IMPURE_STDLIB = frozenset(
    {
        "asyncio", "concurrent", "ctypes", "http", "importlib", "multiprocessing", "os",
        "pty", "runpy", "shutil", "signal", "smtplib", "socket", "socketserver", "ssl",
        "subprocess", "sys", "threading", "urllib", "wsgiref", "xmlrpc",
    }
)  # fmt: skip
RUN_TIME = frozenset({"__import__", "exec", "eval", "compile"})
TEST_LIBRARIES = frozenset({"pytest", "_pytest", "hypothesis"})
MARKERS = ("django_db", "services", "browser")


@cache
def pure_packages() -> tuple[str, ...]:
    """The source modules of the `pure` import-linter contract."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["id"] == "pure":
            return tuple(contract["source_modules"])
    raise LookupError("pyproject.toml has no import-linter contract with id 'pure'")


def _within(name: str, packages: tuple[str, ...] | frozenset[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _test_module_file(name: str) -> Path | None:
    """The file of a module of the `tests` package, or None if there is none."""
    path = REPO.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(tree: ast.AST, package: str) -> list[str]:
    """The modules a source imports (for `from a import b`, `a.b` when that is a pure
    module or one of `tests/`, else `a`)."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            if module == "__future__":
                continue
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if _within(full, pure_packages()) or (
                    _within(full, ("tests",)) and _test_module_file(full)
                ):
                    names.append(full)  # a module: `from tournaments import format`
                else:
                    names.append(module)  # a name in `module`
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in RUN_TIME:
            names.append("importlib")  # code or a module named at run time
    return names


@cache
def module_is_pure(name: str) -> bool:
    """Whether the module `name` of `tests/` imports only what the rule allows, through
    every module of `tests/` it reaches."""
    return _pure(name, frozenset())


def _pure(name: str, seen: frozenset[str]) -> bool:
    if name in seen:
        return True
    file = _test_module_file(name)
    if file is None:
        return False
    seen = seen | {name}
    package = name if file.name == "__init__.py" else name.rpartition(".")[0]
    parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
    for parent in parents:
        if not _pure(parent, seen):
            return False
    for imported in _imported(ast.parse(file.read_text(), str(file)), package):
        if _within(imported, ("tests",)):
            if not _pure(imported, seen):
                return False
        elif not _allowed(imported):
            return False
    return True


def _allowed(name: str) -> bool:
    """A module outside `tests/` that a pure test may import."""
    top = name.partition(".")[0]
    if _within(name, pure_packages()) or top in TEST_LIBRARIES:
        return True
    return top in sys.stdlib_module_names and top not in IMPURE_STDLIB


def _harness(item: pytest.Item) -> set[str]:
    """The autouse fixtures of the installed plugins (pytest-django's, Faker's) and what
    they ask for: the harness around every test, whatever it is."""
    info = item._fixtureinfo  # type: ignore[attr-defined]
    manager: Any = item.session._fixturemanager
    todo = list(manager._getautousenames(item))
    found: set[str] = set()
    while todo:
        name = todo.pop()
        definitions = info.name2fixturedefs.get(name)
        if name in found or not definitions:
            continue
        module = getattr(definitions[-1].func, "__module__", "") or ""
        if _within(module, ("tests",)):
            continue
        found.add(name)
        todo.extend(definitions[-1].argnames)
    return found


def is_pure(item: pytest.Item) -> bool:
    if not isinstance(item, pytest.Function) or any(item.get_closest_marker(m) for m in MARKERS):
        return False
    module = getattr(item.module, "__name__", "")
    if not (_within(module, ("tests",)) and module_is_pure(module)):
        return False
    # Every database fixture of pytest-django (db, transactional_db, live_server, ...)
    # needs this one.
    if "django_db_setup" in item.fixturenames:
        return False
    info = item._fixtureinfo  # type: ignore[attr-defined]
    harness = _harness(item)
    asked = set(info.argnames)  # what the test and its own fixtures ask for by name
    for name in item.fixturenames:
        definitions = info.name2fixturedefs.get(name)
        if not definitions:
            continue  # `request`: checked below, with what asks for it
        module = getattr(definitions[-1].func, "__module__", "") or ""
        if _within(module, ("tests",)):
            if not module_is_pure(module):
                return False
            asked.update(definitions[-1].argnames)
        elif not (_within(module, ("_pytest", "hypothesis")) or name in harness):
            return False
    # Through `request` a test or one of its fixtures could ask for any fixture at run time.
    return "request" not in asked and all(
        name in info.name2fixturedefs or name == "request" for name in item.fixturenames
    )
