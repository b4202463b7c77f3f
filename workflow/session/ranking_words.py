"""The reason given for each place at a table, in the reader's language.

`tournaments.format.ranking` is pure Python and words each placing's reason in English
(`Placing.reason`, which the API and the stored movements keep). A page reads the same
reason from the placing's own values, through this table of messages: the place, the
points, the neighbour, the criterion that decided (`Placing.decided_by`). In English the
two read exactly alike (tests/workflow/session/test_ranking_words.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import gettext, ngettext, pgettext

from tournaments.format.ranking import CRITERIA, Placing, SittingResult
from tournaments.format.rules import K
from workflow.session import format_words


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st, as the language writes them."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("ordinal", "%(n)sth") % {"n": n}
    if n % 10 == 1:
        return pgettext("ordinal", "%(n)sst") % {"n": n}
    if n % 10 == 2:
        return pgettext("ordinal", "%(n)snd") % {"n": n}
    return pgettext("ordinal", "%(n)srd") % {"n": n}


def points(n: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", abs(n)) % {"n": n}


def _level_words() -> dict[str, str]:
    return {
        "score": pgettext("level on", "points"),
        "games_won": pgettext("level on", "games won"),
        "hooks": pgettext("level on", "hooks"),
        "last_game_score": pgettext("level on", "last game"),
    }


def _difference(decided_by: str, ahead: bool) -> str:
    """How the better or the worse side of a difference reads, its two numbers to fill."""
    if ahead:
        return {
            "games_won": gettext("ahead on games won (%(mine)s against %(theirs)s)"),
            "hooks": gettext("ahead with fewer hooks (%(mine)s against %(theirs)s)"),
            "last_game_score": gettext("ahead on the last game (%(mine)s against %(theirs)s)"),
        }[decided_by]
    return {
        "games_won": gettext("behind on games won (%(mine)s against %(theirs)s)"),
        "hooks": gettext("behind with more hooks (%(mine)s against %(theirs)s)"),
        "last_game_score": gettext("behind on the last game (%(mine)s against %(theirs)s)"),
    }[decided_by]


def _compare(
    this: SittingResult[K], other: SittingResult[K], decided_by: str, other_name: str, ahead: bool
) -> str:
    """How `this` compares with the neighbour `other`, separated by `decided_by`."""
    if decided_by == "score":
        said = (
            gettext("ahead of %(name)s on points (%(mine)s against %(theirs)s)")
            if ahead
            else gettext("behind %(name)s on points (%(mine)s against %(theirs)s)")
        )
        return said % {"name": other_name, "mine": this.score, "theirs": other.score}
    level = CRITERIA if decided_by == "coin_flip" else CRITERIA[: CRITERIA.index(decided_by)]
    words = _level_words()
    text = gettext("level with %(name)s on %(criteria)s") % {
        "name": other_name,
        "criteria": format_words.join([words[c] for c in level]),
    }
    if decided_by == "coin_flip":
        flip = (
            gettext("%(level)s, won the coin flip")
            if ahead
            else gettext("%(level)s, lost the coin flip")
        )
        return flip % {"level": text}
    mine, theirs = getattr(this, decided_by), getattr(other, decided_by)
    difference = _difference(decided_by, ahead) % {"mine": mine, "theirs": theirs}
    return f"{text}, {difference}"


def reasons(placings: Sequence[Placing[K]], name: Callable[[K], str] = str) -> dict[K, str]:
    """Each player's reason for their place at one table (`Placing.reason`, worded in the
    active language), from the table's placings."""
    ordered = sorted(placings, key=lambda p: p.place)
    found: dict[K, str] = {}
    for i, placing in enumerate(ordered):
        result = placing.result
        if placing.decided_by == "session_totals":
            found[placing.player] = gettext(
                "no result at this table yet in this sitting: %(points)s in the session so far"
            ) % {"points": points(result.score)}
            continue
        parts = [
            gettext("%(place)s: %(points)s")
            % {"place": ordinal(placing.place), "points": points(result.score)}
        ]
        if placing.decided_by is not None:
            above = ordered[i - 1]
            parts.append(
                _compare(result, above.result, placing.decided_by, name(above.player), False)
            )
        if i + 1 < len(ordered) and ordered[i + 1].decided_by != "score":
            below = ordered[i + 1]
            below_by = below.decided_by
            assert below_by is not None
            parts.append(_compare(result, below.result, below_by, name(below.player), True))
        found[placing.player] = "; ".join(parts)
    return found
