"""No module reaches into another's privates: a name that starts with `_` is its own
module's business. What two modules share is public, documented and tested as such.

Every .py module of the packages import-linter checks (`root_packages` in pyproject.toml,
read now, so a new app is covered the day it is listed) is read with `ast` and checked
for `from x import _name` and for `x._name` where `x` is another module of the project.
Dunders (`__version__`) are not private; a package's own `_`-prefixed modules
(`engine.games._common`) are private to that package and may be imported inside it.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in _packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _inside(module: str, owner: str) -> bool:
    """`module` is `owner` itself or, for a private module, inside the package that owns it."""
    parts = owner.split(".")
    while parts and _private(parts[-1]):
        parts.pop()
    home = ".".join(parts)
    return module == owner or (home != owner and (module == home or module.startswith(home + ".")))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def offences(module: str, path: Path, modules: dict[str, Path]) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    where = str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    found: list[str] = []
    bound: dict[str, str] = {}  # a local name -> the project module it names
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, path.name == "__init__.py")
            if source == "__future__":
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in modules:  # a module imported from its package
                    if _private(alias.name) and not _inside(module, full):
                        found.append(f"{where}:{node.lineno}: from {source} import {alias.name}")
                    bound[alias.asname or alias.name] = full
                elif _private(alias.name) and source in modules and source != module:
                    found.append(f"{where}:{node.lineno}: from {source} import {alias.name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        chain: list[str] = []
        value: ast.expr = node.value
        while isinstance(value, ast.Attribute):
            chain.insert(0, value.attr)
            value = value.value
        if not isinstance(value, ast.Name) or value.id not in bound:
            continue
        owner = ".".join([bound[value.id], *chain])
        if owner in modules and owner != module:
            found.append(f"{where}:{node.lineno}: {value.id}.{'.'.join([*chain, node.attr])}")
    return sorted(found, key=lambda f: int(f.split(":")[1]))


def test_no_module_uses_a_private_name_of_another() -> None:
    modules = _modules()
    assert "scoring.services" in modules  # the walk found the project
    found = [o for name, path in modules.items() for o in offences(name, path, modules)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_the_check_sees_both_kinds_of_reach(tmp_path: Path) -> None:
    """A guard on the check itself: each form it forbids is found, the allowed ones not."""
    modules = {"app.a": tmp_path / "a.py", "app.b": tmp_path / "b.py", "app": tmp_path}
    source = tmp_path / "b.py"
    source.write_text(
        "from app.a import _lock, public\n"
        "from app import a\n"
        "import app.a as alias\n"
        "a._who(1)\n"
        "alias._clean\n"
        "a.__doc__\n"
        "a.public._private_of_an_object\n"
        "self_thing = object()\n"
    )
    found = offences("app.b", source, modules)
    assert [f.split(": ", 1)[1] for f in found] == [
        "from app.a import _lock",
        "a._who",
        "alias._clean",
    ]
