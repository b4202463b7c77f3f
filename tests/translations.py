"""The Spanish written for the words built in Python, compiled for a test.

`spanish_catalogue()` compiles the Spanish catalogue (locale/es/LC_MESSAGES/django.po) into a
temporary LOCALE_PATHS with polib, so a test reads the Spanish without `compilemessages`
and without depending on a compiled file in the tree; Django drops its cached catalogues
when LOCALE_PATHS changes (django.test.signals)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polib
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale/es/LC_MESSAGES/django.po"


@contextmanager
def spanish_catalogue() -> Iterator[None]:
    """LOCALE_PATHS holding only the Spanish catalogue, compiled."""
    source = CATALOGUE
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "es" / "LC_MESSAGES"
        target.mkdir(parents=True)
        polib.pofile(str(source)).save_as_mofile(str(target / "django.mo"))
        with override_settings(LOCALE_PATHS=[tmp]):
            yield
