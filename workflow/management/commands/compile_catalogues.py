"""`manage.py compile_catalogues`: every translation catalogue under locale/
(locale/<language>/LC_MESSAGES/<domain>.po) compiled to the .mo file Django reads, with
polib: no GNU gettext on the machine. `make run`, `make venue` and `make test` run it
when a .po file changed, and so do the deployed units before they start
(docs/operations.md); the .mo files are not committed.

A translation whose placeholders (%(name)s, %s, {name}) are not its original's would
raise when the page fills it in: it is left out, with a warning, and the page shows the
original words instead.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

_PERCENT = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0 +]*\d*(?:\.\d+)?[sdif]")
_BRACES = re.compile(r"\{[^{}]*\}")


def placeholders(text: str, flags: list[str]) -> tuple[set[str], list[str]]:
    """The placeholders of a message as its flags say it is filled in (python-format:
    %(name)s and %s; python-brace-format: {name}): the named ones, which a translation
    may reorder, repeat or leave out, and the positional ones (%s), in order, which it
    must keep as they are."""
    named: set[str] = set()
    positional: list[str] = []
    if "python-format" in flags or "%(" in text:
        for found in _PERCENT.findall(text.replace("%%", "")):
            if found.startswith("%("):
                named.add(found)
            else:
                positional.append(found)
    if "python-brace-format" in flags:
        named |= set(_BRACES.findall(text.replace("{{", "").replace("}}", "")))
    return named, positional


def broken(entry: polib.POEntry) -> list[str]:
    """Why this entry's translations cannot stand in for its original; empty when they
    can: a translation that names a placeholder its original has not (the page's values
    have no such name), or changes the positional ones."""
    flags = list(entry.flags)
    if "%(" in entry.msgid and "python-format" not in flags:
        flags.append("python-format")
    originals = [placeholders(entry.msgid, flags)]
    if entry.msgid_plural:
        originals.append(placeholders(entry.msgid_plural, flags))
    names = set().union(*(named for named, _ in originals))
    orders = [positional for _, positional in originals]
    texts = dict(entry.msgstr_plural) if entry.msgid_plural else {0: entry.msgstr}
    why = []
    for text in texts.values():
        if not text:
            continue
        named, positional = placeholders(text, flags)
        if not named <= names or positional not in orders:
            why.append(f"{sorted(named)} {positional} instead of {sorted(names)} {orders[0]}")
    return why


def catalogues() -> list[Path]:
    return sorted(
        po for path in settings.LOCALE_PATHS for po in Path(path).glob("*/LC_MESSAGES/*.po")
    )


def compile_catalogue(po_path: Path) -> list[str]:
    """Write `po_path`'s .mo beside it (atomically: a running server reads the old or the
    new file, never half of one); the warnings for the entries left out."""
    catalogue = polib.pofile(str(po_path))
    warnings = []
    for entry in catalogue.translated_entries():
        reasons = broken(entry)
        if reasons:
            warnings.append(
                f"{po_path}:{entry.linenum}: {entry.msgid!r} left out: {'; '.join(reasons)}"
            )
            entry.msgstr = ""
            entry.msgstr_plural = dict.fromkeys(entry.msgstr_plural, "")
    mo_path = po_path.with_suffix(".mo")
    fd, temporary = tempfile.mkstemp(dir=po_path.parent, suffix=".mo.tmp")
    os.close(fd)
    try:
        catalogue.save_as_mofile(temporary)
        os.chmod(temporary, 0o644)
        os.replace(temporary, mo_path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return warnings


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po to .mo with polib (no GNU gettext needed)."
    # It runs at install, before anything else is set up: nothing of the project to check.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "paths", nargs="*", help="Only these .po files (default: every one under locale/)."
        )
        parser.add_argument(
            "--force", action="store_true", help="Also those whose .mo is newer than the .po."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths = [Path(p) for p in options["paths"]] or catalogues()
        for po_path in paths:
            mo_path = po_path.with_suffix(".mo")
            fresh = mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime
            if fresh and not options["force"] and not options["paths"]:
                continue
            for warning in compile_catalogue(po_path):
                self.stderr.write(warning)
            self.stdout.write(f"Compiled {mo_path}")
