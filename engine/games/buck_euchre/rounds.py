"""Checking and scoring the rounds of a Buck Euchre game record.

`check_round` turns one round's fields (`upcard`, `trump`, `declarer`, `out`, `tricks`,
`trick_winners`, `play`, `misdeal`) into the points it gives, or into every problem it
has; `score_game` runs the rounds in order from the starting score down, ends the game
when a player takes all five tricks or a score reaches zero or less, and stops at the
first invalid round. Scores are points still to lose, so lower is better and a score may
go below zero. The rules as implemented, with their sources, are in
docs/rules-buck-euchre.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, GameSetup, Problem, literal, names, problem, show
from engine.cards import CARD_NAMES, SUIT_OF, parse_card
from engine.games._common.play import missing_upcard, not_an_upcard
from engine.games._common.rounds import (
    EMPTY,
    FIVE_TRICKS,
    compare_with_play,
    counts_from_winners,
    game_over,
    misdeal_with_tricks,
    not_a_round,
    read_out,
    read_player_numbers,
    read_trick_winners,
    tricks_for_dropped,
    tricks_not_five,
    unknown_player,
    winner_value,
    wrong_dealer,
)
from engine.games.buck_euchre.cards import CLUBS, NO_TRUMP, PACK, suit_word
from engine.games.buck_euchre.play import check_play

#: What a player who is set (euchred) adds to the score.
SET: Final = 5
TRICKS: Final = 5
#: Tricks the declarer must take (Game play: "at least three of the five tricks").
CONTRACT: Final = 3
SUIT_LETTERS: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "s": 0, "h": 1, "d": 2, "c": 3}
LETTERS: Final = "SHDC"


@dataclass(slots=True)
class RoundScore:
    points: list[int]  # change per seat
    sets: list[int]  # seats set this round, in seat order (the output's `hooks`)
    sweeper: int  # seat that took all five tricks, or -1


def _suits(trump: int) -> str:
    return suit_word(trump, True).capitalize()


def check_round(table: GameSetup, rnd: Any, number: int, dealer: int) -> RoundScore | list[Problem]:
    """The points of one round, or every problem found in it."""
    if type(rnd) is not dict:
        return not_a_round(number, "dealer, upcard, trump, declarer, out, tricks, ...", rnd)
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

    if get("penalties") not in EMPTY:
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
        return _misdeal(table, number, rnd, dealer, errors)

    # The upcard: optional in a summary round, a card of the 24-card pack when given.
    raw_up = get("upcard")
    upcard = -1
    if raw_up is not None:
        c = parse_card(raw_up)
        if c is None:
            errors.append(not_an_upcard(number, raw_up, "write rank then suit, like 9H or JC"))
        elif not PACK & (1 << c):
            errors.append(
                problem(
                    number,
                    "not_in_pack",
                    f"The upcard {CARD_NAMES[c]} is not in the Buck Euchre pack, which has the "
                    "9, 10, J, Q, K and A of each suit.",
                    "upcard",
                )
            )
        else:
            upcard = c
    club_upcard = upcard >= 0 and SUIT_OF[upcard] == CLUBS

    # Trump: a suit letter, or null when every player passed both bidding rounds.
    trump = NO_TRUMP
    trump_ok = True
    if "trump" in rnd:
        raw_trump = rnd["trump"]
        if raw_trump is not None:
            if type(raw_trump) is str and raw_trump in SUIT_LETTERS:
                trump = SUIT_LETTERS[raw_trump]
            else:
                errors.append(
                    problem(
                        number,
                        "bad_field",
                        "trump must be the letter of the trump suit (S, H, D or C), or null "
                        f"for a hand played without trump, not {literal(raw_trump)}.",
                        "trump",
                    )
                )
                trump_ok = False
    elif club_upcard:
        trump = CLUBS  # a club upcard says it all (Game play: "clubs automatically")
    else:
        errors.append(
            problem(
                number,
                "trump_missing",
                "Enter trump: the suit that was ordered up or named (S, H, D or C), or null "
                "if every player passed both bidding rounds.",
                "trump",
            )
        )
        trump_ok = False

    raw_declarer = get("declarer")
    declarer = -1
    declarer_ok = True
    if raw_declarer is not None:
        s = seat.get(raw_declarer) if type(raw_declarer) is str else None
        if s is None:
            errors.append(unknown_player(number, "declarer", raw_declarer, players))
            declarer_ok = False
        else:
            declarer = s

    # Which kind of hand: dirty clubs, no trump, or a declarer's hand.
    dirty = no_trump = False
    if trump_ok and declarer_ok:
        if club_upcard:
            dirty = True
            if trump != CLUBS:
                errors.append(
                    problem(
                        number,
                        "dirty_clubs_trump",
                        f"The upcard {CARD_NAMES[upcard]} is a club, so clubs are trump "
                        f"(dirty clubs) and there is no bidding; trump must be C, not "
                        f"{'null' if trump == NO_TRUMP else LETTERS[trump]}.",
                        "trump",
                    )
                )
            if declarer >= 0:
                errors.append(
                    problem(
                        number,
                        "dirty_clubs_declarer",
                        f"The upcard {CARD_NAMES[upcard]} is a club, so clubs became trump "
                        f"without bidding (dirty clubs) and nobody is declarer; remove "
                        f"{players[declarer]} as declarer.",
                        "declarer",
                        players[declarer],
                    )
                )
        elif trump == NO_TRUMP:
            no_trump = True
            if declarer >= 0:
                errors.append(
                    problem(
                        number,
                        "declarer_without_trump",
                        f"trump is null (everyone passed both rounds, no trump), so nobody is "
                        f"declarer; remove {players[declarer]} as declarer, or enter the suit "
                        f"{players[declarer]} named.",
                        "declarer",
                        players[declarer],
                    )
                )
        elif declarer < 0:
            if trump == CLUBS and upcard < 0:
                dirty = True  # clubs with nobody declaring: the upcard was a club
            else:
                if trump == CLUBS:
                    why = (
                        f"the upcard {CARD_NAMES[upcard]} is not a club, so clubs were named "
                        "in the second round"
                    )
                else:
                    why = "someone ordered them up or named them"
                errors.append(
                    problem(
                        number,
                        "declarer_missing",
                        f"{_suits(trump)} are trump: {why}. Enter that player as declarer.",
                        "declarer",
                    )
                )

    # Drops: only from a declarer's hand, and never the declarer.
    out: list[int] = []
    raw = get("out")
    if raw is not None:
        out = read_out(number, raw, players, seat, errors)
    if out:
        if dirty or no_trump:
            dropped = [players[s] for s in out]
            single = dropped[0] if len(dropped) == 1 else None
            why = (
                "clubs became trump from the upcard (dirty clubs)"
                if dirty
                else "nobody named trump, so the hand is played without trump"
            )
            errors.append(
                problem(
                    number,
                    "drop_not_allowed",
                    f"{names(dropped)} dropped, but {why}, and then every player plays the "
                    f"hand; take {single or 'them'} off out.",
                    "out",
                    single,
                )
            )
        if declarer in out:
            errors.append(
                problem(
                    number,
                    "declarer_cannot_drop",
                    f"{players[declarer]} is the declarer and cannot drop: the declarer plays "
                    f"the hand and must take 3 tricks. Take {players[declarer]} off out, or "
                    "correct declarer.",
                    "out",
                    players[declarer],
                )
            )

    out_set = set(out)
    in_play = [s for s in range(n) if s not in out_set]
    counts = read_player_numbers(number, FIVE_TRICKS, get("tricks"), players, seat, errors)
    winners = read_trick_winners(number, TRICKS, get("trick_winners"), players, seat, errors)

    raw_play = get("play")
    if raw_play is not None:
        if upcard < 0 and raw_up is None:
            errors.append(missing_upcard(number, ", so the engine knows where it went"))
        if errors:
            # Who is in the hand and what is trump come from the fields above; fix those.
            return errors
        taker, why_taken = _upcard_taker(table, players, dealer, declarer, upcard, trump, out_set)
        played = check_play(
            number=number,
            players=players,
            seat=seat,
            dealer=dealer,
            in_play=in_play,
            upcard=upcard,
            taker=taker,
            why_taken=why_taken,
            trump=trump,
            raw=raw_play,
        )
        if isinstance(played, list):
            return played
        compare_with_play(number, players, played, counts, winners, errors)
        # The cards give tricks and winners that agree, all to players in the hand.
        counts = played.counts
        winners = played.winners
    elif winners is not None:
        stray = [s for s in dict.fromkeys(winners) if s in out_set]
        for s in stray:
            errors.append(tricks_for_dropped(number, players[s], "trick_winners"))
        counts = counts_from_winners(number, players, winners, counts, errors, compare=not stray)
    if counts is None:
        if get("tricks") is None and get("trick_winners") is None:
            errors.append(
                problem(
                    number,
                    "tricks_missing",
                    "No tricks are entered for this round; enter how many tricks each player "
                    "in the hand took (or mark the round as a misdeal).",
                    "tricks",
                )
            )
        return errors

    for s in out:
        if counts[s]:
            errors.append(tricks_for_dropped(number, players[s], "tricks", counts[s]))
    if sum(counts) != TRICKS:
        errors.append(tricks_not_five(number, players, counts, in_play, tricks=TRICKS, unit="hand"))
    if errors:
        return errors

    # Scoring (the text's list, When the hand is over): dropped players nothing; the
    # declarer +5 below 3 tricks; anyone else in the hand +5 with no trick; otherwise
    # minus a point a trick. In dirty clubs and no-trump hands there is no declarer, so
    # everyone is held to one trick (ruling).
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
    return RoundScore(points, sets, sweeper)


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
            return -1, "in dirty clubs it stays on the stub (option club_upcard_to_dealer is off)"
        why = "in dirty clubs (option club_upcard_to_dealer)"
    elif declarer == dealer:
        why = "on accepting its suit as trump"
    else:
        why = f"when {players[declarer]} ordered it up"
    if dealer in out:
        return -1, f"the dealer, {players[dealer]}, took it {why} and then dropped"
    return dealer, why


def _misdeal(
    table: GameSetup, number: int, rnd: dict[str, Any], dealer: int, errors: list[Problem]
) -> RoundScore | list[Problem]:
    """A deal thrown in: no tricks, nobody scores (unless the club sets the dealer), and
    the deal passes to the left like after any hand."""
    errors.extend(misdeal_with_tricks(number, rnd, "hand"))
    if errors:
        return errors
    points = [0] * len(table.players)
    if table.options["misdeal_set"]:
        points[dealer] = SET
        return RoundScore(points, [dealer], -1)
    return RoundScore(points, [], -1)


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


def score_game(table: GameSetup, rounds: list[Any]) -> GameResult:
    players = table.players
    n = len(players)
    start: int = table.options["start"]
    sweep_wins: bool = table.options["sweep_wins"]
    scores = [start] * n
    result = GameResult(rounds=[], scores={})
    out_rounds = result.rounds
    if table.first_dealer is None:
        # Only possible for a game with no rounds yet (see engine.record).
        result.scores = dict.fromkeys(players, start)
        return result
    dealer = table.first_dealer
    for index, rnd in enumerate(rounds):
        number = index + 1
        if result.finished:
            winner = result.winner
            who = (
                f"{names(winner)} shared the win"
                if isinstance(winner, list)
                else f"{show(winner)} won"
            )
            result.errors.append(game_over(number, str(index), who))
            break
        checked = check_round(table, rnd, number, dealer)
        if type(checked) is list:
            result.errors.extend(checked)
            result.next_dealer = players[dealer]
            break
        assert isinstance(checked, RoundScore)
        points = checked.points
        for s in range(n):
            scores[s] += points[s]
        won = find_winner(scores, checked.sweeper, sweep_wins)
        if won is not None:
            result.finished = True
            result.winner = winner_value(players, won)
        out_rounds.append(
            {
                "dealer": players[dealer],
                "points": dict(zip(players, points, strict=True)),
                "hooks": [players[s] for s in checked.sets],
                "scores": dict(zip(players, scores, strict=True)),
            }
        )
        dealer = dealer + 1 if dealer + 1 < n else 0
    else:
        result.next_dealer = None if result.finished else players[dealer]
    result.scores = dict(zip(players, scores, strict=True))
    return result
