"""`manage.py compile_catalogues`: the .po files compiled to .mo with polib alone (no GNU
gettext), read back by Python's own gettext; a translation whose placeholders are not
its original's left out with a warning; the shipped catalogues have none."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from workflow.management.commands.compile_catalogues import broken, catalogues

HEADER = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: es\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

"""


def write(root: Path, body: str) -> Path:
    po = root / "es" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(HEADER + body, encoding="utf-8")
    return po


def test_a_catalogue_is_compiled_and_read_back_by_gettext(tmp_path: Path) -> None:
    po = write(
        tmp_path,
        'msgid "Table"\nmsgstr "Mesa"\n\n'
        '#, python-format\nmsgid "%(count)s game"\nmsgid_plural "%(count)s games"\n'
        'msgstr[0] "%(count)s partida"\nmsgstr[1] "%(count)s partidas"\n\n'
        '#, fuzzy\nmsgid "Seat"\nmsgstr "Silla"\n',
    )
    out = io.StringIO()
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command("compile_catalogues", stdout=out)

    with po.with_suffix(".mo").open("rb") as mo:
        read = gettext.GNUTranslations(mo)
    assert read.gettext("Table") == "Mesa"
    assert read.ngettext("%(count)s game", "%(count)s games", 3) == "%(count)s partidas"
    assert read.gettext("Seat") == "Seat"  # fuzzy: not trusted yet
    assert "Compiled" in out.getvalue()


def test_only_a_changed_catalogue_is_compiled_again(tmp_path: Path) -> None:
    po = write(tmp_path, 'msgid "Table"\nmsgstr "Mesa"\n')
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command("compile_catalogues", stdout=io.StringIO())
        out = io.StringIO()
        call_command("compile_catalogues", stdout=out)
        assert out.getvalue() == ""
        call_command("compile_catalogues", "--force", stdout=out)
        assert str(po.with_suffix(".mo")) in out.getvalue()


def test_a_translation_that_would_raise_is_left_out_with_a_warning(tmp_path: Path) -> None:
    po = write(
        tmp_path,
        '#, python-format\nmsgid "Table %(number)s"\nmsgstr "Mesa %(numero)s"\n\n'
        '#, python-brace-format\nmsgid "Seat {seat}"\nmsgstr "Silla {silla}"\n\n'
        '#, python-format\nmsgid "Round %(n)s of %(total)s"\nmsgstr "%(total)s: ronda %(n)s"\n\n'
        '#, python-format\nmsgid "%(name)s sits out"\n'
        'msgstr "%(name)s descansa: %(name)s vuelve luego"\n\n'
        '#, python-format\nmsgid "%s and %s"\nmsgstr "%s y %s y %s"\n',
    )
    err = io.StringIO()
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command("compile_catalogues", stdout=io.StringIO(), stderr=err)

    with po.with_suffix(".mo").open("rb") as mo:
        read = gettext.GNUTranslations(mo)
    assert read.gettext("Table %(number)s") == "Table %(number)s"
    assert read.gettext("Seat {seat}") == "Seat {seat}"
    assert read.gettext("Round %(n)s of %(total)s") == "%(total)s: ronda %(n)s"  # reordered
    # a named placeholder said twice is filled twice; a positional one more would raise
    assert read.gettext("%(name)s sits out") == "%(name)s descansa: %(name)s vuelve luego"
    assert read.gettext("%s and %s") == "%s and %s"
    assert "'Table %(number)s' left out" in err.getvalue()
    assert "'Seat {seat}' left out" in err.getvalue()


def test_the_shipped_catalogues_have_no_translation_that_would_raise() -> None:
    import polib

    found = catalogues()
    assert {p.parent.parent.name for p in found} >= {"es"}
    for po in found:
        for entry in polib.pofile(str(po)).translated_entries():
            assert not broken(entry), f"{po}:{entry.linenum} {entry.msgid!r}: {broken(entry)}"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_spanish_is_shipped_with_its_plural_rule(domain: str) -> None:
    import polib

    po = polib.pofile(str(settings.BASE_DIR / "locale" / "es" / "LC_MESSAGES" / f"{domain}.po"))
    assert po.metadata["Language"] == "es"
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert po.metadata["Content-Type"] == "text/plain; charset=UTF-8"
