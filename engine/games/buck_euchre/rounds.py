"""Checking and scoring the rounds of a Buck Euchre game record.

`check_round` turns one round's fields (`upcard`, `trump`, `declarer`, `out`, `tricks`,
`trick_winners`, `play`, `misdeal`) into the points it gives, or into every problem it
has, reading the upcard, trump, the declarer, the drops and the tricks one part at a time.
`EuchreRounds` plugs the game into the round driver (engine/games/_common/driver.py):
scores run from the starting score down, and the game ends when a player takes all five
tricks or a score reaches zero or less. Scores are points still to lose, so lower is
better and a score may go below zero. The rules as implemented, with their sources, are in
docs/rules-buck-euchre.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, GameSetup, Problem, names, problem, show
from engine.cards import SUIT_OF
from engine.games._common.driver import (
    RoundRules,
    RoundScore,
    check_misdeal,
    score_rounds,
)
from engine.games._common.play import missing_upcard
from engine.games._common.rounds import (
    EMPTY,
    FIVE_TRICKS,
    compare_with_play,
    counts_from_winners,
    game_over,
    misdeal_with_tricks,
    read_player_numbers,
    read_trick_winners,
    tricks_for_dropped,
    tricks_not_five,
)
from engine.games.buck_euchre.cards import CLUBS, NO_TRUMP
from engine.games.buck_euchre.fields import (
    check_calls,
    check_discard,
    hand_kind,
    read_declarer,
    read_drops,
    read_trump,
    read_upcard,
)
from engine.games.buck_euchre.play import check_play

#: What a player who is set (euchred) adds to the score.
SET: Final = 5
TRICKS: Final = 5
#: Tricks the declarer must take (Game play: "at least three of the five tricks").
CONTRACT: Final = 3


@dataclass(slots=True)
class EuchreRound(RoundScore):
    """A scored hand: `hooks` are the seats set; `sweeper` took all five tricks, or -1."""

    sweeper: int


class EuchreRounds(RoundRules[EuchreRound]):
    """The hands of one Buck Euchre game: scores count down from `start`, and the game
    ends on a sweep or when a score reaches zero or less."""

    def __init__(self, setup: GameSetup) -> None:
        super().__init__(setup)
        self.start = setup.options["start"]
        self.sweep_wins: bool = setup.options["sweep_wins"]

    fields = "dealer, upcard, trump, declarer, out, tricks, ..."

    def check_round(
        self, rnd: dict[str, Any], number: int, dealer: int, errors: list[Problem]
    ) -> EuchreRound | list[Problem]:
        """The points of one round, or every problem found in it."""
        setup = self.setup
        players = setup.players
        misdeal = check_misdeal(number, rnd, errors) if "misdeal" in rnd else None
        if rnd.get("penalties") not in EMPTY:
            errors.append(
                problem(
                    number,
                    "penalty_not_in_rules",
                    "Buck Euchre has no penalties: a player is only set (+5) for taking too few "
                    "tricks, which the engine works out from the tricks. Remove penalties.",
                    "penalties",
                )
            )
        if misdeal:
            return _misdeal(setup, number, rnd, dealer, errors)
        upcard = read_upcard(number, rnd.get("upcard"), errors)
        club_upcard = upcard >= 0 and SUIT_OF[upcard] == CLUBS
        trump, trump_ok = read_trump(number, rnd, club_upcard, errors)
        declarer, declarer_ok = read_declarer(
            number, players, setup.seat, rnd.get("declarer"), errors
        )
        dirty = no_trump = False
        if trump_ok and declarer_ok:
            dirty, no_trump = hand_kind(number, players, upcard, trump, declarer, errors)
        if trump_ok and declarer_ok and rnd.get("calls") is not None:
            check_calls(
                number,
                players,
                setup.seat,
                rnd["calls"],
                dealer=dealer,
                upcard=upcard,
                trump=trump,
                declarer=declarer,
                dirty=dirty,
                errors=errors,
            )
        if trump_ok and declarer_ok and rnd.get("discard") is not None:
            # The dealer takes the upcard when its suit is ordered up or accepted, and in
            # dirty clubs when the club's option says so.
            took = upcard >= 0 and (
                (declarer >= 0 and SUIT_OF[upcard] == trump)
                or (dirty and setup.options["club_upcard_to_dealer"])
            )
            check_discard(
                number,
                players,
                rnd["discard"],
                dealer=dealer,
                upcard=upcard,
                took=took,
                raw_play=rnd.get("play"),
                errors=errors,
            )
        raw_out = rnd.get("out")
        out = (
            []
            if raw_out is None
            else read_drops(number, players, setup.seat, raw_out, declarer, dirty, no_trump, errors)
        )
        out_set = set(out)
        in_play = [s for s in range(len(players)) if s not in out_set]
        hand = _Hand(dealer, upcard, trump, declarer, out_set, in_play)
        counts = _read_tricks(setup, number, rnd, hand, errors)
        if counts is None:
            return errors
        for s in out:
            if counts[s]:
                errors.append(tricks_for_dropped(number, players[s], "tricks", counts[s]))
        if sum(counts) != TRICKS:
            errors.append(
                tricks_not_five(number, players, counts, in_play, tricks=TRICKS, unit="hand")
            )
        if errors:
            return errors
        return _score(len(players), in_play, counts, declarer)

    def end(
        self, before: list[int], after: list[int], checked: EuchreRound, number: int
    ) -> list[int] | Problem | None:
        return find_winner(after, checked.sweeper, self.sweep_wins)

    def game_over(self, number: int, index: int, winner: str | list[str] | None) -> Problem:
        who = (
            f"{names(winner)} shared the win" if isinstance(winner, list) else f"{show(winner)} won"
        )
        return game_over(number, str(index), who)


@dataclass(slots=True)  # not frozen: a frozen init costs a round measurable time
class _Hand:
    """Who dealt, the upcard (-1 when not given), trump, the declarer (-1: none), and who
    dropped and who plays: what reading the tricks and the cards needs to know."""

    dealer: int
    upcard: int
    trump: int
    declarer: int
    out: set[int]
    in_play: list[int]


def _read_tricks(
    setup: GameSetup, number: int, rnd: dict[str, Any], hand: _Hand, errors: list[Problem]
) -> list[int] | None:
    """Tricks per seat from `tricks`, `trick_winners` and `play`; None when they cannot
    be read (the problems are in `errors`)."""
    players = setup.players
    seat = setup.seat
    counts = read_player_numbers(number, FIVE_TRICKS, rnd.get("tricks"), players, seat, errors)
    winners = read_trick_winners(number, TRICKS, rnd.get("trick_winners"), players, seat, errors)
    raw_play = rnd.get("play")
    if raw_play is not None:
        if hand.upcard < 0 and rnd.get("upcard") is None:
            errors.append(missing_upcard(number, ", so the engine knows where it went"))
        if errors:
            # Who is in the hand and what is trump come from the fields above; fix those.
            return None
        taker, why_taken = _upcard_taker(
            setup, players, hand.dealer, hand.declarer, hand.upcard, hand.trump, hand.out
        )
        played = check_play(
            number=number,
            players=players,
            seat=seat,
            dealer=hand.dealer,
            in_play=hand.in_play,
            upcard=hand.upcard,
            taker=taker,
            why_taken=why_taken,
            trump=hand.trump,
            raw=raw_play,
        )
        if isinstance(played, list):
            errors.extend(played)
            return None
        compare_with_play(number, players, played, counts, winners, errors)
        # The cards give tricks and winners that agree, all to players in the hand.
        return played.counts
    if winners is not None:
        stray = [s for s in dict.fromkeys(winners) if s in hand.out]
        for s in stray:
            errors.append(tricks_for_dropped(number, players[s], "trick_winners"))
        counts = counts_from_winners(number, players, winners, counts, errors, compare=not stray)
    if counts is None and rnd.get("tricks") is None and rnd.get("trick_winners") is None:
        errors.append(
            problem(
                number,
                "tricks_missing",
                "No tricks are entered for this round; enter how many tricks each player "
                "in the hand took (or mark the round as a misdeal).",
                "tricks",
            )
        )
    return counts


def _score(n: int, in_play: list[int], counts: list[int], declarer: int) -> EuchreRound:
    """Scoring (the text's list, When the hand is over): dropped players nothing; the
    declarer +5 below 3 tricks; anyone else in the hand +5 with no trick; otherwise minus
    a point a trick. In dirty clubs and no-trump hands there is no declarer, so everyone
    is held to one trick (ruling)."""
    points = [0] * n
    sets: list[int] = []
    sweeper = -1
    for s in in_play:
        c = counts[s]
        if c < (CONTRACT if s == declarer else 1):
            points[s] = SET
            sets.append(s)
        else:
            points[s] = -c
            if c == TRICKS:
                sweeper = s
    return EuchreRound(points, sets, sweeper)


def _upcard_taker(
    table: GameSetup,
    players: Sequence[str],
    dealer: int,
    declarer: int,
    upcard: int,
    trump: int,
    out: set[int],
) -> tuple[int, str]:
    """Whose hand in play holds the upcard (-1: nobody's) and why, for messages."""
    if trump == NO_TRUMP:
        return -1, "it was turned down when everyone passed"
    if SUIT_OF[upcard] != trump:
        return -1, "it was turned down after the first round and trump was named in the second"
    if declarer < 0:
        if not table.options["club_upcard_to_dealer"]:
            return (
                -1,
                "in dirty clubs it stays on the stub (this game does not give it to the dealer)",
            )
        why = "in dirty clubs (this game gives it to the dealer)"
    elif declarer == dealer:
        why = "on accepting its suit as trump"
    else:
        why = f"when {players[declarer]} ordered it up"
    if dealer in out:
        return -1, f"the dealer, {players[dealer]}, took it {why} and then dropped"
    return dealer, why


def _misdeal(
    table: GameSetup, number: int, rnd: dict[str, Any], dealer: int, errors: list[Problem]
) -> EuchreRound | list[Problem]:
    """A deal thrown in: no tricks, nobody scores (unless the club sets the dealer), and
    the deal passes to the left like after any hand."""
    errors.extend(misdeal_with_tricks(number, rnd, "hand"))
    if errors:
        return errors
    points = [0] * len(table.players)
    if table.options["misdeal_set"]:
        points[dealer] = SET
        return EuchreRound(points, [dealer], -1)
    return EuchreRound(points, [], -1)


def find_winner(scores: Sequence[int], sweeper: int, sweep_wins: bool) -> list[int] | None:
    """Who wins after a round, as seats, or None while the game goes on.

    Taking all five tricks wins outright (the first line of the scoring list). Otherwise
    the game ends once a score is zero or less: the lowest score wins, and players level
    on it tie (When the hand is over, last paragraph).
    """
    if sweeper >= 0 and sweep_wins:
        return [sweeper]
    low = min(scores)
    if low > 0:
        return None
    return [s for s, v in enumerate(scores) if v == low]


def score_game(setup: GameSetup, rounds: list[Any]) -> GameResult:
    """Check and score the hands of one game (see `EuchreRounds`)."""
    return score_rounds(EuchreRounds(setup), rounds)
