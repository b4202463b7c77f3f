"""Checking and scoring the rounds of a Huckley Buck or Hucklebuck game record.

`check_round` turns one round's fields into the points it gives, or into every problem it
has, reading the fields a part at a time (penalties, drops, a misdeal or the tricks
played). `HuckleyRounds` plugs the game into the round driver (engine/games/_common/
driver.py): scores never go below zero, and the first to the target wins (ruling 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, GameSetup, Problem, names_and, problem
from engine.cards import parse_card
from engine.games._common.driver import (
    RoundRules,
    RoundScore,
    check_misdeal,
    score_rounds,
)
from engine.games._common.play import not_an_upcard
from engine.games._common.rounds import (
    FIVE_TRICKS,
    compare_with_play,
    counts_from_winners,
    misdeal_with_tricks,
    read_player_numbers,
    read_trick_winners,
    tricks_not_five,
)
from engine.games.huckley.draws import check_calls_and_draws
from engine.games.huckley.fields import (
    PLAYED_ONLY,
    no_tricks_for,
    penalized_in_play,
    read_drops,
    read_penalties,
)
from engine.games.huckley.play import CARD_HINT, check_play

HOOK: Final = 3
TRICKS: Final = 5


@dataclass(frozen=True, slots=True)
class Variant:
    """What tells the games of the family apart."""

    kill: bool  # the IHBA play rules (trump, kill, over-trump) rather than follow-suit only
    upcard_to_anyone: bool  # the upcard tops the draw pile rather than going to the dealer


@dataclass(slots=True)
class HuckleyRound(RoundScore):
    """A scored round; `winners` is the seat that won each trick, when known (ruling 6)."""

    winners: list[int] | None


class HuckleyRounds(RoundRules[HuckleyRound]):
    """The rounds of one Huckley Buck or Hucklebuck game: a point a trick, hooks of -3,
    scores never below zero, first to the target."""

    def __init__(self, setup: GameSetup, variant: Variant) -> None:
        super().__init__(setup)
        self.variant = variant
        self.target: int = setup.options["target"]
        self.by_trick_order = setup.options["tie_break"] == "trick_order"

    fields = "dealer, out, tricks, ..."

    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> HuckleyRound | list[Problem]:
        """The points of one round, or every problem found in it."""
        setup = self.setup
        variant = self.variant
        players = setup.players
        misdeal = check_misdeal(number, rnd, errors) if "misdeal" in rnd else None
        # Most rounds have no penalties and no drops: skip the readers' calls for them.
        raw = rnd.get("penalties")
        penalties = [] if raw is None else read_penalties(number, players, setup.seat, raw, errors)
        raw = rnd.get("out")
        out = [] if raw is None else read_drops(setup, number, dealer, raw, errors)
        if misdeal:
            return _misdeal(number, players, rnd, dealer, penalties, errors)
        return _played(setup, variant, number, rnd, dealer, penalties, out, errors)

    def add(self, scores: list[int], checked: HuckleyRound) -> list[int]:
        # A hook never takes a score below zero.
        return [v + p if v + p > 0 else 0 for v, p in zip(scores, checked.points, strict=True)]

    def end(
        self, before: list[int], after: list[int], checked: HuckleyRound, number: int
    ) -> list[int] | Problem | None:
        target = self.target
        if max(after) < target:
            return None
        seat, reached = find_winner(before, after, checked.winners, target, self.by_trick_order)
        if seat is not None:
            return [seat]
        if not self.by_trick_order:
            return None  # an exact tie at the top plays on (HB ruling)
        who = [self.players[s] for s in reached]
        both = "both" if len(who) == 2 else "all"
        return problem(
            number,
            "trick_winners_required",
            f"{names_and(who)} {both} reach {target} in this "
            "round, and the first to reach it wins: enter the trick order, who won "
            "each of the 5 tricks in order.",
            "trick_winners",
        )


def _played(
    setup: GameSetup,
    variant: Variant,
    number: int,
    rnd: dict[str, Any],
    dealer: int,
    penalties: list[tuple[int, str]],
    out: list[int],
    errors: list[Problem],
) -> HuckleyRound | list[Problem]:
    """A round that was played: who was in it, the tricks each took, and the points."""
    players = setup.players
    out_set = set(out)
    penalized = (
        penalized_in_play(number, players, dealer, penalties, out_set, errors) if penalties else {}
    )
    in_play = [s for s in range(len(players)) if s not in out_set and s not in penalized]
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
    tricks = _read_tricks(setup, variant, number, rnd, dealer, in_play, out_set, penalized, errors)
    if tricks is None:
        return errors
    counts, winners = tricks
    for s in range(len(players)):
        if counts[s] and (s in out_set or s in penalized):
            errors.append(no_tricks_for(number, players[s], s in out_set, "tricks", counts[s]))
    if sum(counts) != TRICKS:
        errors.append(
            tricks_not_five(number, players, counts, in_play, tricks=TRICKS, unit="round")
        )
    if errors:
        return errors
    return _score(len(players), counts, out_set, penalized, winners)


def _read_tricks(
    setup: GameSetup,
    variant: Variant,
    number: int,
    rnd: dict[str, Any],
    dealer: int,
    in_play: list[int],
    out_set: set[int],
    penalized: dict[int, int],
    errors: list[Problem],
) -> tuple[list[int], list[int] | None] | None:
    """(tricks per seat, trick winners when known) from `tricks`, `trick_winners` and
    `play`; None when they cannot be read (the problems are in `errors`)."""
    players = setup.players
    seat = setup.seat
    counts = read_player_numbers(number, FIVE_TRICKS, rnd.get("tricks"), players, seat, errors)
    winners = read_trick_winners(number, TRICKS, rnd.get("trick_winners"), players, seat, errors)
    raw_play = rnd.get("play")
    upcard = rnd.get("upcard")
    if raw_play is not None:
        if errors:
            # Which hands are in play depends on the fields above; fix those first.
            return None
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
            errors.extend(played)
            return None
        if isinstance(raw_play, dict) and ("announcements" in raw_play or "draws" in raw_play):
            upcard_card = parse_card(upcard)
            assert upcard_card is not None  # check_play has read it
            check_calls_and_draws(
                number=number,
                players=players,
                seat=seat,
                dealer=dealer,
                out=out_set,
                upcard=upcard_card,
                upcard_to_anyone=variant.upcard_to_anyone,
                raw=raw_play,
                errors=errors,
            )
            if errors:
                return None
        compare_with_play(number, players, played, counts, winners, errors)
        # The cards give tricks and winners that agree, all to players in play.
        return played.counts, played.winners
    if upcard is not None and parse_card(upcard) is None:
        errors.append(not_an_upcard(number, upcard, CARD_HINT))
    if winners is not None:
        stray = [s for s in dict.fromkeys(winners) if s in out_set or s in penalized]
        for s in stray:
            errors.append(no_tricks_for(number, players[s], s in out_set, "trick_winners"))
        counts = counts_from_winners(number, players, winners, counts, errors, compare=not stray)
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
        return None
    return counts, winners


def _score(
    n: int,
    counts: list[int],
    out_set: set[int],
    penalized: dict[int, int],
    winners: list[int] | None,
) -> HuckleyRound:
    """A point a trick; a hook for staying in with none, or one per penalty."""
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
    return HuckleyRound(points, hooks, winners)


def _misdeal(
    number: int,
    players: Sequence[str],
    rnd: dict[str, Any],
    dealer: int,
    penalties: list[tuple[int, str]],
    errors: list[Problem],
) -> HuckleyRound | list[Problem]:
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
    return HuckleyRound(points, hooked, None)


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


def score_game(setup: GameSetup, rounds: list[Any], *, variant: Variant) -> GameResult:
    """Check and score the rounds of one game (see `HuckleyRounds`)."""
    return score_rounds(HuckleyRounds(setup, variant), rounds)
