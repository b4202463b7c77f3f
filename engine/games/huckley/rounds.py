"""Checking and scoring the rounds of a Huckley Buck or Hucklebuck game record.

One function per round (`check_round`) turns a round's fields into the points it gives,
or into every problem it has; `score_game` runs the rounds in order, keeps the running
scores (never below zero), finds the winner and stops at the first invalid round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, Problem, Table, names, names_and, problem, show
from engine.cards import parse_card
from engine.games._common.play import not_an_upcard
from engine.games._common.rounds import (
    FIVE_TRICKS,
    compare_with_play,
    counts_from_winners,
    game_over,
    has_tricks,
    misdeal_with_tricks,
    not_a_round,
    read_out,
    read_player_numbers,
    read_trick_winners,
    tricks_for_dropped,
    tricks_not_five,
    wrong_dealer,
)
from engine.games.huckley.play import CARD_HINT, check_play

HOOK: Final = 3
TRICKS: Final = 5
PENALTY_KINDS: Final = ("misdeal", "renege", "incorrect_hand", "wrong_discards", "undeclared_draw")
#: A misdeal penalty means the cards were thrown in, so it cannot sit in a played round.
THROWN_IN_ONLY: Final = frozenset({"misdeal"})
#: Reneges happen in play and an undeclared draw lets play go on without the dealer's
#: hand (IHBA, DEALER NOT ANNOUNCING...), so neither fits a round that was thrown in.
PLAYED_ONLY: Final = frozenset({"renege", "undeclared_draw"})


@dataclass(frozen=True, slots=True)
class Variant:
    """What tells the games of the family apart."""

    kill: bool  # the IHBA play rules (trump, kill, over-trump) rather than follow-suit only
    upcard_to_anyone: bool  # the upcard tops the draw pile rather than going to the dealer


@dataclass(slots=True)
class RoundScore:
    points: list[int]  # change per seat before flooring
    hooks: list[int]  # seats, one entry per hook, in seat order
    winners: list[int] | None  # seat that won each trick, when known


def check_round(
    table: Table, variant: Variant, rnd: Any, number: int, dealer: int
) -> RoundScore | list[Problem]:
    """The points of one round, or every problem found in it."""
    if type(rnd) is not dict:
        return not_a_round(number, "dealer, out, tricks, ...", rnd)
    players = table.players
    seat = table.seat
    n = len(players)
    errors: list[Problem] = []
    get = rnd.get
    dealer_name = players[dealer]

    given = get("dealer")
    if given is not None and given != dealer_name:
        errors.append(wrong_dealer(number, players, dealer, given))

    misdeal = get("misdeal")
    if misdeal is not None and type(misdeal) is not bool:
        errors.append(problem(number, "bad_field", "misdeal must be true or false.", "misdeal"))
        misdeal = None

    # Penalties: each names a player at the table and one of the known kinds.
    penalties: list[tuple[int, str]] = []
    raw = get("penalties")
    if raw is not None:
        if type(raw) is not list:
            errors.append(
                problem(
                    number,
                    "bad_field",
                    'penalties must be a list of {"player": name, "kind": kind}.',
                    "penalties",
                )
            )
        else:
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
                            f"{show(kind)} is not a penalty; the kinds are "
                            f"{', '.join(PENALTY_KINDS)}.",
                            "penalties",
                            name if s is not None else None,
                        )
                    )
                elif s is not None:
                    penalties.append((s, kind))

    # Drops: known names, once each, no more than the table allows (ruling 1).
    out: list[int] = []
    raw = get("out")
    if raw is not None:
        out = read_out(number, raw, players, seat, errors)
    if out:
        if n < 5 or len(out) > n - 4:
            dropped = [players[s] for s in out]
            if n < 5:
                errors.append(
                    problem(
                        number,
                        "drop_not_allowed",
                        f"{names(dropped)} dropped, but nobody may drop at a table of {n}; "
                        "drops are allowed from 5 players on.",
                        "out",
                        dropped[0] if len(dropped) == 1 else None,
                    )
                )
            else:
                errors.append(
                    problem(
                        number,
                        "too_many_out",
                        f"{len(out)} players dropped ({names(dropped)}); at a table of {n} "
                        f"at most {n - 4} may drop",
                        "out",
                    )
                )
        if dealer in out and not table.options["dealer_may_drop"]:
            errors.append(
                problem(
                    number,
                    "dealer_cannot_drop",
                    f"{dealer_name} dealt and dropped, but this game is played with "
                    "the dealer always in (option dealer_may_drop is off).",
                    "out",
                    dealer_name,
                )
            )

    if misdeal:
        return _misdeal(number, players, rnd, dealer, penalties, errors)

    # A played round.
    out_set = set(out)
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
                    f"Only the dealer ({dealer_name}) can be penalized for not announcing "
                    f"the draw, not {name}.",
                    "penalties",
                    name,
                )
            )
        penalized[s] = penalized.get(s, 0) + 1
    in_play = [s for s in range(n) if s not in out_set and s not in penalized]
    if not in_play:
        errors.append(
            problem(
                number,
                "no_player_in_play",
                "Every player dropped or lost the hand to a penalty, so nobody is left to "
                "take the 5 tricks; if the cards were thrown in, mark the round as a misdeal.",
                "penalties" if penalized else "out",
            )
        )
        return errors

    counts = read_player_numbers(number, FIVE_TRICKS, get("tricks"), players, seat, errors)
    winners = read_trick_winners(number, TRICKS, get("trick_winners"), players, seat, errors)

    raw_play = get("play")
    upcard = get("upcard")
    if raw_play is not None:
        if errors:
            # Which hands are in play depends on the fields above; fix those first.
            return errors
        played = check_play(
            number=number,
            players=players,
            seat=seat,
            dealer=dealer,
            in_play=in_play,
            upcard=upcard,
            raw=raw_play,
            kill=variant.kill,
            upcard_to_anyone=variant.upcard_to_anyone,
        )
        if isinstance(played, list):
            return played
        compare_with_play(number, players, played, counts, winners, errors)
        # The cards give tricks and winners that agree, all to players in play.
        counts = played.counts
        winners = played.winners
    else:
        if upcard is not None and parse_card(upcard) is None:
            errors.append(not_an_upcard(number, upcard, CARD_HINT))
        if winners is not None:
            stray = [s for s in dict.fromkeys(winners) if s in out_set or s in penalized]
            for s in stray:
                errors.append(_no_tricks_for(number, players[s], s in out_set, "trick_winners"))
            counts = counts_from_winners(
                number, players, winners, counts, errors, compare=not stray
            )
    if counts is None:
        if not errors:
            errors.append(
                problem(
                    number,
                    "tricks_missing",
                    "No tricks are entered for this round; enter how many tricks each player "
                    "who stayed in took (or mark the round as a misdeal).",
                    "tricks",
                )
            )
        return errors

    for s in range(n):
        if counts[s] and (s in out_set or s in penalized):
            errors.append(_no_tricks_for(number, players[s], s in out_set, "tricks", counts[s]))
    if sum(counts) != TRICKS:
        errors.append(
            tricks_not_five(number, players, counts, in_play, tricks=TRICKS, unit="round")
        )
    if errors:
        return errors

    points = [0] * n
    hooks: list[int] = []
    for s in range(n):
        k = penalized.get(s)
        if k is not None:
            # Ruling 4: the penalty hooks are all this player takes; the hand was out of
            # play, so there is no second hook for having no tricks.
            points[s] = -HOOK * k
            hooks.extend([s] * k)
        elif s not in out_set:
            c = counts[s]
            if c:
                points[s] = c
            else:
                points[s] = -HOOK
                hooks.append(s)
    return RoundScore(points, hooks, winners)


def _no_tricks_for(number: int, name: str, dropped: bool, field: str, count: int = 0) -> Problem:
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


def _misdeal(
    number: int,
    players: Sequence[str],
    rnd: dict[str, Any],
    dealer: int,
    penalties: list[tuple[int, str]],
    errors: list[Problem],
) -> RoundScore | list[Problem]:
    """A round thrown in (ruling 5): no tricks; the dealer is hooked unless the penalties
    name who is."""
    errors.extend(misdeal_with_tricks(number, rnd, "round"))
    for s, kind in penalties:
        if kind in PLAYED_ONLY:
            errors.append(
                problem(
                    number,
                    "penalty_kind_conflict",
                    f"A {kind} penalty on {players[s]} needs a round that was played, but "
                    "this one is marked as a misdeal.",
                    "penalties",
                    players[s],
                )
            )
    if errors:
        return errors
    hooked = sorted(s for s, _ in penalties) or [dealer]
    points = [0] * len(players)
    for s in hooked:
        points[s] -= HOOK
    return RoundScore(points, hooked, None)


def find_winner(
    before: Sequence[int],
    after: Sequence[int],
    winners: Sequence[int] | None,
    target: int,
    by_trick_order: bool,
) -> tuple[int | None, list[int]]:
    """Who wins after a round: (winner seat or None, seats that reached the target).

    Ruling 6 (`trick_order`): of several who reach the target in one round, the first to
    reach it as the tricks fall wins. Hucklebuck (`highest_score`): the highest score wins
    and an exact tie at the top plays on.
    """
    reached = [s for s, v in enumerate(after) if v >= target]
    if len(reached) <= 1:
        return (reached[0] if reached else None), reached
    if by_trick_order:
        if winners is None:
            return None, reached
        running = list(before)
        for s in winners:
            running[s] += 1
            if running[s] >= target:
                return s, reached
        return None, reached
    top = max(after[s] for s in reached)
    tops = [s for s in reached if after[s] == top]
    return (tops[0] if len(tops) == 1 else None), reached


def score_game(table: Table, rounds: list[Any], *, variant: Variant) -> GameResult:
    players = table.players
    n = len(players)
    target: int = table.options["target"]
    by_trick_order = table.options["tie_break"] == "trick_order"
    scores = [0] * n
    result = GameResult(rounds=[], scores={})
    out_rounds = result.rounds
    if table.first_dealer is None:
        # Only possible for a game with no rounds yet (see engine.record).
        result.scores = dict.fromkeys(players, 0)
        return result
    dealer = table.first_dealer
    for index, rnd in enumerate(rounds):
        number = index + 1
        if result.finished:
            result.errors.append(game_over(number, str(index), f"{show(result.winner)} won"))
            break
        checked = check_round(table, variant, rnd, number, dealer)
        if type(checked) is list:
            result.errors.extend(checked)
            result.next_dealer = players[dealer]
            break
        assert isinstance(checked, RoundScore)
        before = scores[:]
        points = checked.points
        for s in range(n):
            v = scores[s] + points[s]
            scores[s] = v if v > 0 else 0
        if max(scores) >= target:
            winner_seat, reached = find_winner(
                before, scores, checked.winners, target, by_trick_order
            )
            if winner_seat is None and by_trick_order:
                scores = before
                who = [players[s] for s in reached]
                both = "both" if len(who) == 2 else "all"
                result.errors.append(
                    problem(
                        number,
                        "trick_winners_required",
                        f"{names_and(who)} {both} reach {target} in this "
                        "round, and the first to reach it wins: enter trick_winners, who won "
                        "each of the 5 tricks in order.",
                        "trick_winners",
                    )
                )
                result.next_dealer = players[dealer]
                break
            if winner_seat is not None:
                result.finished = True
                result.winner = players[winner_seat]
        out_rounds.append(
            {
                "dealer": players[dealer],
                "points": dict(zip(players, points, strict=True)),
                "hooks": [players[s] for s in checked.hooks],
                "scores": dict(zip(players, scores, strict=True)),
            }
        )
        dealer = dealer + 1 if dealer + 1 < n else 0
    else:
        result.next_dealer = None if result.finished else players[dealer]
    result.scores = dict(zip(players, scores, strict=True))
    return result
