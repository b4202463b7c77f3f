"""Rule 4: the order of a table after a sitting, its tie-breaks, and the reason each line
of the director's preview gives (docs/format.md, "Ranking a table")."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Generic

import engine
from tournaments.format.rules import K, check_unique


@dataclass(frozen=True)
class SittingResult(Generic[K]):
    """One player's record over one sitting at one table."""

    player: K
    score: int
    games_won: int
    hooks: int
    last_game_score: int


@dataclass(frozen=True)
class Placing(Generic[K]):
    """A player's place at their table after a sitting, and why (docs/format.md rule 4).

    `decided_by` names the criterion that separated this player from the one placed just
    above ("score", "games_won", "hooks", "last_game_score" or "coin_flip"); None for 1st.
    """

    player: K
    place: int
    result: SittingResult[K]
    decided_by: str | None
    reason: str


CRITERIA = ("score", "games_won", "hooks", "last_game_score")

# For the reason text: what a level criterion is called, and how the better and the worse
# side of a difference read ("ahead with fewer hooks (1 against 2)", "behind on games won
# (0 against 1)"): the words name the criterion once, and "against" sets the two numbers
# side by side as a person says them.
_LEVEL_WORDS = {
    "score": "points",
    "games_won": "games won",
    "hooks": "hooks",
    "last_game_score": "last game",
}
_AHEAD_WORDS = {
    "games_won": "ahead on games won",
    "hooks": "ahead with fewer hooks",
    "last_game_score": "ahead on the last game",
}
_BEHIND_WORDS = {
    "games_won": "behind on games won",
    "hooks": "behind with more hooks",
    "last_game_score": "behind on the last game",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _compare(
    this: SittingResult[K], other: SittingResult[K], decided_by: str, other_name: str, ahead: bool
) -> str:
    """How `this` compares with the neighbour `other`, separated by `decided_by`."""
    if decided_by == "score":
        side = "ahead of" if ahead else "behind"
        return f"{side} {other_name} on points ({this.score} against {other.score})"
    level = CRITERIA if decided_by == "coin_flip" else CRITERIA[: CRITERIA.index(decided_by)]
    text = f"level with {other_name} on {_join([_LEVEL_WORDS[c] for c in level])}"
    if decided_by == "coin_flip":
        return f"{text}, {'won' if ahead else 'lost'} the coin flip"
    mine, theirs = getattr(this, decided_by), getattr(other, decided_by)
    words = _AHEAD_WORDS if ahead else _BEHIND_WORDS
    return f"{text}, {words[decided_by]} ({mine} against {theirs})"


def order_by_totals(
    totals: Sequence[SittingResult[K]],
    *,
    lower_is_better: bool,
    name: Callable[[K], str] = str,
) -> list[Placing[K]]:
    """Place the players of a table that has no result yet in the current sitting (no
    finished game there), by what each has so far in the session (docs/format.md rule 4,
    "Before a table's first result"): total points (higher first, or lower when
    `lower_is_better`), then more games won, then fewer hooks; players level on all three
    are listed by name. No coin is flipped: nothing has been decided at the table yet, and
    the sitting's own order (`order_table`) takes over at its first finished game. Each
    `SittingResult` holds the player's session totals (`last_game_score` is not read).
    `decided_by` is "session_totals" for every player."""
    check_unique((r.player for r in totals), "the table's totals")
    sign = engine.score_key(1, lower_is_better=lower_is_better)
    ordered = sorted(
        totals, key=lambda r: (sign * r.score, -r.games_won, r.hooks, name(r.player), r.player)
    )
    return [
        Placing(
            player=r.player,
            place=i + 1,
            result=r,
            decided_by="session_totals",
            reason=(
                f"no result at this table yet in this sitting: {_points(r.score)} in the "
                "session so far"
            ),
        )
        for i, r in enumerate(ordered)
    ]


def order_table(
    results: Sequence[SittingResult[K]],
    *,
    lower_is_better: bool,
    rng: random.Random,
    name: Callable[[K], str] = str,
) -> list[Placing[K]]:
    """Place the players of one table after a sitting (docs/format.md rule 4).

    By total score (higher is better, or lower when `lower_is_better`), then more games
    won, fewer hooks, a better score in the last game (higher, or lower when
    `lower_is_better`), then a coin flip drawn from `rng`; the service passes
    `make_rng(seed, "coin", sitting_no, table_rank)`. `rng` is only drawn from when
    players are level on everything, and tied players are sorted before the draw, so the
    outcome does not depend on the order of `results`.
    """
    check_unique((r.player for r in results), "the table's results")
    sign = engine.score_key(1, lower_is_better=lower_is_better)

    def key(r: SittingResult[K]) -> tuple[int, int, int, int]:
        return (sign * r.score, -r.games_won, r.hooks, sign * r.last_game_score)

    ordered: list[SittingResult[K]] = []
    group: list[SittingResult[K]] = []
    for result in sorted(results, key=lambda r: (key(r), r.player)):
        if group and key(group[0]) != key(result):
            ordered.extend(_draw_lots(group, rng))
            group = []
        group.append(result)
    ordered.extend(_draw_lots(group, rng))

    decided: list[str | None] = [None]
    for above, below in pairwise(ordered):
        differs = (c for c, a, b in zip(CRITERIA, key(above), key(below), strict=True) if a != b)
        decided.append(next(differs, "coin_flip"))

    placings: list[Placing[K]] = []
    for i, result in enumerate(ordered):
        parts = [f"{ordinal(i + 1)}: {_points(result.score)}"]
        decided_by = decided[i]
        if decided_by is not None:
            above = ordered[i - 1]
            parts.append(_compare(result, above, decided_by, name(above.player), ahead=False))
        # A tie-break with the player below is shown on this line too, so both sides of
        # every tie-break are visible; a plain difference in points needs no comment.
        if i + 1 < len(ordered) and decided[i + 1] != "score":
            below_by = decided[i + 1]
            assert below_by is not None
            below = ordered[i + 1]
            parts.append(_compare(result, below, below_by, name(below.player), ahead=True))
        placings.append(Placing(result.player, i + 1, result, decided_by, "; ".join(parts)))
    return placings


def _draw_lots(group: list[SittingResult[K]], rng: random.Random) -> list[SittingResult[K]]:
    if len(group) > 1:
        rng.shuffle(group)
    return group
