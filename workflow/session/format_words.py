"""Why a player moves when the director rebalances the tables, in the reader's language.

`tournaments.format.rebalancing` is pure Python: each proposed move carries its reason in
English (`Rebalance.reason`, as the API gives it) and, beside it, a code and the numbers
the reason names. This table words each code in the active language. A move without a
code known here keeps its English reason. In English both read exactly alike
(tests/workflow/session/test_format_words.py).
"""

from __future__ import annotations

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
