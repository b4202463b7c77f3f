"""Why a player moves when the director rebalances the tables, and why a pair of the
club's keep-apart wishes sits together after all, in the reader's language.

`tournaments.format` is pure Python: a proposed move (`Rebalance`) and a pair not kept
apart (`NotKeptApart`) carry their reason in English, as the API gives it, and beside it a
code and the names and numbers the reason gives. This table words each code in the active
language; without a code known here, the English reason is shown. In English both read
exactly alike (tests/workflow/session/test_format_words.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from tournaments.format.rebalancing import Rebalance


def rebalance_reason(move: Rebalance[Any]) -> str:
    """`move.reason`, worded in the active language."""
    v = dict(move.values)
    up = move.to_rank < move.from_rank
    if move.code == "closes":
        return gettext("table %(source)s closes: moves up to table %(dest)s") % v
    if move.code == "too_many_opens":
        return (
            gettext(
                "table %(source)s has %(had)s players, at most %(most)s can play: moves down "
                "to table %(dest)s, which opens"
            )
            % v
        )
    if move.code == "too_many":
        said = (
            gettext(
                "table %(source)s has %(had)s players, at most %(most)s can play: moves up to "
                "table %(dest)s"
            )
            if up
            else gettext(
                "table %(source)s has %(had)s players, at most %(most)s can play: moves down "
                "to table %(dest)s"
            )
        )
        return said % v
    if move.code == "opens":
        return gettext("table %(dest)s opens: moves down from table %(source)s") % v
    if move.code == "too_few":
        said = (
            ngettext(
                "table %(dest)s has %(short)s player, at least %(least)s are needed: moves up "
                "from table %(source)s",
                "table %(dest)s has %(short)s players, at least %(least)s are needed: moves "
                "up from table %(source)s",
                v["short"],
            )
            if up
            else ngettext(
                "table %(dest)s has %(short)s player, at least %(least)s are needed: moves "
                "down from table %(source)s",
                "table %(dest)s has %(short)s players, at least %(least)s are needed: moves "
                "down from table %(source)s",
                v["short"],
            )
        )
        return said % v
    return move.reason


def join(words: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c", in the active language."""
    if len(words) == 1:
        return words[0]
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def apart_reason(code: str, values: Mapping[str, Any], reason: str) -> str:
    """Why a pair of the club's keep-apart wishes starts at one table after all
    (`NotKeptApart`, or the copy `Sitting.not_kept_apart` keeps), worded in the active
    language; `reason`, the English the seating wrote, when the code is not known here
    (a sitting drawn before the codes were kept)."""
    if code == "one_table":
        return gettext("there is only one table")
    if code == "pinned_together":
        return gettext("%(first)s and %(second)s must both sit at table %(table)s") % values
    if code == "too_many_apart":
        return gettext(
            "%(names)s are all kept apart from each other and there are %(tables)s tables"
        ) % {"names": join(values["names"]), "tables": values["tables"]}
    if code == "partners":
        return (
            gettext(
                "%(name)s is kept apart from %(partners)s players and the other tables seat "
                "only %(seats)s"
            )
            % values
        )
    if code == "no_seating":
        return gettext(
            "no seating at tables of %(sizes)s was found that keeps this pair apart as well "
            "as the pairs kept before it"
        ) % {"sizes": join([str(s) for s in values["sizes"]])}
    return reason
