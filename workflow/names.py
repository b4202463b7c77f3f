"""Player names as people type them: the characters that hide or turn text around
refused by the one rule for names (`common.text`), then spaces folded. Pure Python; the
services that create players by name call `clean_names`."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext, gettext_noop

from common.errors import UserError
from common.matching import spelled
from common.text import refuse_hidden_characters


def clean_names(names: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for raw in names:
        # The rule reads the name as typed: folding spaces first would turn a line
        # separator or a NEXT LINE (U+0085) into a space and hide it.
        refuse_hidden_characters(raw, what=gettext_noop("Player names"))
        name = " ".join(raw.split())
        if not name:
            continue
        if len(name) > 60:
            raise UserError(
                "name_too_long",
                gettext("“%(name)s…” is longer than 60 characters.") % {"name": name[:20]},
            )
        seen.setdefault(spelled(name), name)  # written alike: the same name
    return list(seen.values())
