"""Reading the penalties and drops of a Huckley Buck or Hucklebuck round.

The rest of a round (a misdeal, the tricks, the cards, the points) is read in
`engine.games.huckley.rounds`, which calls these in the order its problems are reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.base import GameSetup, Problem, names, problem, show
from engine.games._common.rounds import has_tricks, read_out, tricks_for_dropped

#: Drops are allowed only at tables of five or more, and at most n - 4 players drop
#: (docs/rules.md, ruling 1). The entry form and the simulator ask these too.
DROPS_FROM: Final = 5


def max_drops(players: int) -> int:
    """How many players may drop in one round at a table of `players`."""
    return players - 4 if players >= DROPS_FROM else 0


PENALTY_KINDS: Final = ("misdeal", "renege", "incorrect_hand", "wrong_discards", "undeclared_draw")
#: A misdeal penalty means the cards were thrown in, so it cannot sit in a played round.
THROWN_IN_ONLY: Final = frozenset({"misdeal"})
#: Reneges happen in play and an undeclared draw lets play go on without the dealer's
#: hand (IHBA, DEALER NOT ANNOUNCING...), so neither fits a round that was thrown in.
PLAYED_ONLY: Final = frozenset({"renege", "undeclared_draw"})


def read_penalties(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw: Any,
    errors: list[Problem],
) -> list[tuple[int, str]]:
    """`penalties` as (seat, kind): each names a player at the table and a known kind."""
    penalties: list[tuple[int, str]] = []
    if raw is None:
        return penalties
    if type(raw) is not list:
        errors.append(
            problem(
                number,
                "bad_field",
                'penalties must be a list of {"player": name, "kind": kind}.',
                "penalties",
            )
        )
        return penalties
    for entry in raw:
        if type(entry) is not dict or "player" not in entry or "kind" not in entry:
            errors.append(
                problem(
                    number,
                    "bad_field",
                    f'Each penalty needs a "player" and a "kind", not {show(entry)}.',
                    "penalties",
                )
            )
            continue
        name = entry["player"]
        kind = entry["kind"]
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(
                problem(
                    number,
                    "unknown_player",
                    f"The penalty names {show(name)}, who is not at this table "
                    f"({names(list(players))}).",
                    "penalties",
                )
            )
        if type(kind) is not str or kind not in PENALTY_KINDS:
            errors.append(
                problem(
                    number,
                    "unknown_penalty",
                    f"{show(kind)} is not a penalty; the kinds are {', '.join(PENALTY_KINDS)}.",
                    "penalties",
                    name if s is not None else None,
                )
            )
        elif s is not None:
            penalties.append((s, kind))
    return penalties


def read_drops(
    setup: GameSetup, number: int, dealer: int, raw: Any, errors: list[Problem]
) -> list[int]:
    """`out`: known names, once each, no more than the table allows (ruling 1)."""
    if raw is None:
        return []
    players = setup.players
    n = len(players)
    out = read_out(number, raw, players, setup.seat, errors)
    if not out:
        return out
    dropped = [players[s] for s in out]
    if n < DROPS_FROM:
        errors.append(
            problem(
                number,
                "drop_not_allowed",
                f"{names(dropped)} dropped, but nobody may drop at a table of {n}; "
                f"drops are allowed from {DROPS_FROM} players on.",
                "out",
                dropped[0] if len(dropped) == 1 else None,
            )
        )
    elif len(out) > max_drops(n):
        errors.append(
            problem(
                number,
                "too_many_out",
                f"{len(out)} players dropped ({names(dropped)}); at a table of {n} "
                f"at most {max_drops(n)} may drop",
                "out",
            )
        )
    if dealer in out and not setup.options["dealer_may_drop"]:
        dealer_name = players[dealer]
        errors.append(
            problem(
                number,
                "dealer_cannot_drop",
                f"{dealer_name} dealt and dropped, but this game is played with "
                "the dealer always in (the dealer may not drop).",
                "out",
                dealer_name,
            )
        )
    return out


def penalized_in_play(
    number: int,
    players: Sequence[str],
    dealer: int,
    penalties: list[tuple[int, str]],
    out_set: set[int],
    errors: list[Problem],
) -> dict[int, int]:
    """Penalty hooks per seat in a played round, with the penalties that cannot be there."""
    penalized: dict[int, int] = {}
    for s, kind in penalties:
        name = players[s]
        if kind in THROWN_IN_ONLY:
            errors.append(
                problem(
                    number,
                    "penalty_kind_conflict",
                    f"A misdeal penalty on {name} means the cards were thrown in; mark the "
                    "round as a misdeal, or choose the penalty that was called.",
                    "penalties",
                    name,
                )
            )
        elif s in out_set:
            errors.append(
                problem(
                    number,
                    "penalty_on_dropped_player",
                    f"{name} dropped this round, so has no hand to be penalized; "
                    f"remove the {kind} penalty or take {name} off the out list.",
                    "penalties",
                    name,
                )
            )
        elif kind == "undeclared_draw" and s != dealer:
            errors.append(
                problem(
                    number,
                    "undeclared_draw_not_dealer",
                    f"Only the dealer ({players[dealer]}) can be penalized for not announcing "
                    f"the draw, not {name}.",
                    "penalties",
                    name,
                )
            )
        penalized[s] = penalized.get(s, 0) + 1
    return penalized


def no_tricks_for(number: int, name: str, dropped: bool, field: str, count: int = 0) -> Problem:
    if dropped:
        return tricks_for_dropped(number, name, field, count)
    return problem(
        number,
        "tricks_for_penalized_player",
        f"{name}'s hand went out of play with the penalty, yet {name} {has_tricks(count)}; "
        f"enter the tricks as replayed without {name}'s hand.",
        field,
        name,
    )
