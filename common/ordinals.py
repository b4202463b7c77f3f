"""Ordinal numbers in the reader's language: "1st", "2nd", "3rd", "11th" in English,
"1.º", "2.º" in Spanish. Each English suffix is its own message with a context (as
Django's humanize `ordinal` does), so a language writes every number its own way."""

from __future__ import annotations

from django.utils.translation import pgettext


def ordinal(n: int) -> str:
    """`n` as an ordinal: 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    if 10 <= n % 100 <= 20:
        template = pgettext("ordinal 11, 12, 13 and other", "%(n)sth")
    elif n % 10 == 1:
        template = pgettext("ordinal 1", "%(n)sst")
    elif n % 10 == 2:
        template = pgettext("ordinal 2", "%(n)snd")
    elif n % 10 == 3:
        template = pgettext("ordinal 3", "%(n)srd")
    else:
        template = pgettext("ordinal 11, 12, 13 and other", "%(n)sth")
    return template % {"n": n}
