"""A contract type of our own for import-linter (`contract_types` in `[tool.importlinter]`
of pyproject.toml): an allow-list.

`allow_list`: the source modules, and every module inside them, may import the standard
library and the allowed modules, nothing else. A `forbidden` contract names what may not
be imported and lets through whatever nobody thought to name (a new dependency, a new
package of the project); this one names what may be, so the pure engine and the format
(the `pure` contract) stay pure whatever is installed or added. Only direct imports are
checked: an allowed module is held to the same contract, or is the standard library.
"""

from __future__ import annotations

import sys
from typing import Any

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


def _within(name: str, packages: set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


class AllowListContract(Contract):
    """The source modules import the standard library and the allowed modules only.

    Configuration:
        - source_modules:  the modules checked, with every module inside them.
        - allowed_modules: what they may import besides the standard library (with every
                           module inside them); a source module may import its own
                           package only if it is listed here as well.
    """

    type_name = "allow_list"

    source_modules = fields.ListField(subfield=fields.ModuleField())
    allowed_modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        sources = {m.name for m in self.source_modules}  # type: ignore[attr-defined]
        allowed = {m.name for m in self.allowed_modules}  # type: ignore[attr-defined]
        checked: set[str] = set()
        for source in sources:
            if source not in graph.modules:
                raise ValueError(f"Module '{source}' does not exist.")
            checked |= {source} | graph.find_descendants(source)
        refused: list[dict[str, Any]] = []
        for importer in sorted(checked):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                top = imported.partition(".")[0]
                if _within(imported, allowed) or top in sys.stdlib_module_names:
                    continue
                lines = sorted(
                    d["line_number"]
                    for d in graph.get_import_details(importer=importer, imported=imported)
                )
                refused.append({"importer": importer, "imported": imported, "lines": lines})
        return ContractCheck(kept=not refused, metadata={"refused": refused})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for found in check.metadata["refused"]:
            lines = ", ".join(f"l.{n}" for n in found["lines"]) or "line unknown"
            output.print_error(
                f"{found['importer']} is not allowed to import {found['imported']} ({lines})"
            )
            output.new_line()
