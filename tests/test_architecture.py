"""The layers of docs/architecture.md are checked by `make lint` (`lint-imports`): every
package of the project is in a layer, so a module is checked the moment it exists, and an
upward import anywhere fails the lint."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Folders of Python that are not the product: the tests themselves, the benchmarks (run as
# scripts), our own checks for the lint tools, and what the tools and the virtual
# environment keep.
NOT_THE_PRODUCT = {
    "tests", "bench", "lint", "deploy", "docs", "templates", "static", "var", "mutants",
}  # fmt: skip

# The longest a module of the product, the benchmarks or the tests may be: past it, a
# module is more than one subject, and is split along its seams.
MODULE_LINES_MAX = 500


def importlinter(root: Path = ROOT) -> dict[str, Any]:
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    section: dict[str, Any] = config["tool"]["importlinter"]
    return section


def packages_on_disk(root: Path = ROOT) -> set[str]:
    """Every top-level Python package in the checkout (a folder with an `__init__.py`)."""
    return {
        path.parent.name
        for path in root.glob("*/__init__.py")
        if path.parent.name not in NOT_THE_PRODUCT and not path.parent.name.startswith(".")
    }


def layered_packages(root: Path = ROOT) -> list[str]:
    """The packages named by the layers contract, top first."""
    (layers,) = [c for c in importlinter(root)["contracts"] if c["id"] == "layers"]
    named: list[str] = []
    for layer in layers["layers"]:
        named.extend(part.strip(" ()") for part in layer.replace(":", "|").split("|"))
    return named


def packages_outside_the_layers(root: Path = ROOT) -> set[str]:
    return packages_on_disk(root) - set(layered_packages(root))


def test_every_package_of_the_project_is_in_exactly_one_layer() -> None:
    named = layered_packages()
    assert len(named) == len(set(named)), "a package is named in two layers"
    assert packages_outside_the_layers() == set()


def test_the_layers_name_whole_packages_so_a_new_module_is_checked_at_once() -> None:
    assert all("." not in package for package in layered_packages())
    assert set(importlinter()["root_packages"]) == set(layered_packages())


def test_the_packages_that_are_installed_are_the_layered_ones() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = {p.rstrip("*") for p in config["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert included == set(layered_packages())


def test_a_new_package_that_no_layer_names_is_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    for package in packages_on_disk():
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    assert packages_outside_the_layers(tmp_path) == set()

    (tmp_path / "newapp").mkdir()
    (tmp_path / "newapp" / "__init__.py").write_text("")

    assert packages_outside_the_layers(tmp_path) == {"newapp"}


def copy_of_the_project(tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(ROOT / "pyproject.toml", copy)
    ignore = shutil.ignore_patterns("__pycache__", "migrations", "*.html", "*.js", "*.css")
    # `lint` holds the contract types of our own that the configuration names.
    for package in [*layered_packages(), "lint"]:
        shutil.copytree(ROOT / package, copy / package, ignore=ignore)
    return copy


def lint_imports(copy: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(lint), "--no-logo", "--no-cache"],
        cwd=copy,
        # The copy first on the path, so that the linter reads it and not this checkout.
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(copy), "HOME": str(copy)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# A module added below its importer, in a package that had no such module before, and an
# import between the two packages of one layer that must stay independent.
UPWARD = [
    ("scoring/sneaky.py", "from workflow.session import movements\n", "scoring.sneaky"),
    ("engine/games/sneaky.py", "import scoring.models\n", "engine.games.sneaky"),
    ("tournaments/sneaky.py", "import ratings.calc\n", "tournaments.sneaky"),
    ("common/sneaky.py", "from tournaments import models\n", "common.sneaky"),
    # The format is pure: a new module of its package may not import Django.
    ("tournaments/format/sneaky.py", "import django.db\n", "tournaments.format.sneaky"),
    ("web/views/sneaky.py", "from api.views import sessions\n", "web.views.sneaky"),
    # Inside the workflow: the club sits below the session, and the table cards beside the
    # club.
    ("workflow/club/sneaky.py", "from workflow.session import selectors\n", "workflow.club.sneaky"),
    ("workflow/tables/sneaky.py", "from workflow.club import prizes\n", "workflow.tables.sneaky"),
    ("workflow/session/sneaky.py", "from workflow.front import door\n", "workflow.session.sneaky"),
    # The engine imports the standard library and the format only: not an installed
    # package (installed or not), nor the project's own `common`.
    ("engine/sneaky.py", "import numpy\n", "engine.sneaky"),
    ("engine/games/sneaky.py", "from common import errors\n", "engine.games.sneaky"),
]


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = copy_of_the_project(tmp_path_factory.mktemp("layers"))
    clean = lint_imports(copy)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    return copy


@pytest.mark.parametrize(("where", "source", "module"), UPWARD)
def test_a_new_module_with_an_upward_import_fails_the_lint(
    project_copy: Path, where: str, source: str, module: str
) -> None:
    path = project_copy / where
    path.write_text(source)
    try:
        result = lint_imports(project_copy)
    finally:
        path.unlink()
    assert result.returncode != 0
    assert module in result.stdout


# An upward import added to an existing module of play/ (its layers are its modules, so a
# new module would be in none of them).
PLAY_UPWARD = [
    ("play/presence.py", "from play import services\n", "play.presence"),
    ("play/selectors.py", "from play import rounds\n", "play.selectors"),
]


@pytest.mark.parametrize(("where", "source", "module"), PLAY_UPWARD)
def test_an_upward_import_inside_play_fails_the_lint(
    project_copy: Path, where: str, source: str, module: str
) -> None:
    path = project_copy / where
    before = path.read_text()
    path.write_text(before + source)
    try:
        result = lint_imports(project_copy)
    finally:
        path.write_text(before)
    assert result.returncode != 0
    assert module in result.stdout


def test_the_pure_contract_is_an_allow_list_of_the_standard_library_and_each_other() -> None:
    (pure,) = [c for c in importlinter()["contracts"] if c["id"] == "pure"]
    assert pure["type"] == "allow_list"
    assert set(pure["allowed_modules"]) == set(pure["source_modules"])


def long_modules(root: Path = ROOT) -> dict[str, int]:
    """The Python modules of the product packages, bench/, lint/ and tests/ longer than the
    maximum, with their lengths in lines (migrations are generated, and left out)."""
    found = {}
    for package in [*layered_packages(root), "bench", "lint", "tests"]:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MODULE_LINES_MAX:
                found[str(path.relative_to(root))] = lines
    return found


def test_no_module_of_the_product_the_benchmarks_or_the_tests_is_over_500_lines() -> None:
    assert long_modules() == {}


def inner_layers() -> dict[str, set[str]]:
    """For each package with a layers contract of its own (api, web, workflow, play), the
    modules and sub-packages its layers name."""
    found: dict[str, set[str]] = {}
    for contract in importlinter()["contracts"]:
        if contract["type"] == "layers" and contract.get("containers"):
            (container,) = contract["containers"]
            found[container] = {
                part.strip(" ()") for layer in contract["layers"] for part in layer.split("|")
            }
    return found


def children_on_disk(package: str, root: Path = ROOT) -> set[str]:
    """The modules and sub-packages directly inside `package` (migrations left out)."""
    return {
        path.stem if path.is_file() else path.name
        for path in (root / package).iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists() and path.name != "migrations")
    }


@pytest.mark.parametrize("package", ["api", "web", "workflow", "play"])
def test_every_module_of_a_package_with_inner_layers_is_in_one_of_them(package: str) -> None:
    # A module in none of its package's layers would be checked by no inner contract.
    assert package in inner_layers()
    assert children_on_disk(package) == inner_layers()[package]
