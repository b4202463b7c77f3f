"""Checking and scoring the hands of a Bluke or New Jersey Bluke game record.

The number of cards dealt changes every hand on a fixed schedule (`hand_sizes`), so a
game is a known number of rounds: `score_game` runs them in order, stops at the first
invalid one, and names the winner after the last hand of the schedule. `check_round`
turns one round's fields (`cards`, `upcard`, `bids`, `tricks`, `play`) into the points it
gives, or into every problem it has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, GameSetup, Problem, literal, names_and, problem
from engine.games._common.play import missing_upcard, not_an_upcard
from engine.games._common.rounds import (
    NumberMap,
    compare_with_play,
    game_over,
    not_a_round,
    read_player_numbers,
    values_text,
    winner_value,
    wrong_dealer,
)
from engine.games.bluke.cards import DECK_SIZE, parse_card, trump_of
from engine.games.bluke.play import CARD_HINT, check_play

#: Ruling: the largest hand is 13 at 2-4 players ...
STANDARD_MAX: Final = 13
#: ... and floor(52 / players) above, which leaves at least two of the 54 cards undealt.
PLAIN_CARDS: Final = 52
SET_FACTOR: Final = 10
#: `bids` and `tricks`: their range depends on the hand's size, so they are read as any
#: whole number and the range is checked here.
BIDS: Final = NumberMap("bids", "bid made", "bid", '{"Ann": 2, "Bob": 1}')
TRICKS_TAKEN: Final = NumberMap("tricks", "tricks taken", "tricks", '{"Ann": 2, "Bob": 1}')


@dataclass(frozen=True, slots=True)
class Variant:
    """What tells the two games apart."""

    rising: bool  # bluke-nj: the hands run 1 up to the largest and back down
    blukes_in_trump: bool  # bluke-nj: the Blukes belong to the trump suit


@dataclass(slots=True)
class RoundScore:
    points: list[int]  # per seat
    hooks: list[int]  # seats that went set, in seat order


def standard_max_cards(players: int) -> int:
    """The largest hand by the Ruling: 13 at 2-4 players, floor(52 / players) above
    (so at least two cards stay undealt and one can be turned up)."""
    return STANDARD_MAX if players <= 4 else PLAIN_CARDS // players


def most_cards_possible(players: int) -> int:
    """The largest hand the 54 cards allow: dealing out every card is allowed by agreement
    (the text's 18-card 3-player hand, the extra 9-card hand at 6), with no upcard."""
    return DECK_SIZE // players


def max_cards_problem(players: int, value: int) -> str | None:
    """Why option `max_cards` cannot be `value` at this table, or None when it can."""
    if value == 0 or 1 <= value <= most_cards_possible(players):
        return None
    return (
        f"Option max_cards must be from 1 to {most_cards_possible(players)} at a table of "
        f"{players} (54 cards), or 0 for the standard {standard_max_cards(players)}; "
        f"not {value}."
    )


def hand_sizes(players: int, rising: bool, max_cards: int = 0) -> list[int]:
    """The cards dealt to each player, hand by hand, for a whole game.

    `bluke`: from the largest hand down to 1 and back up (13, 12, ..., 1, 2, ..., 13);
    `bluke-nj` (`rising`): from 1 up to the largest and back down. `max_cards` 0 means the
    standard largest hand for the table (`standard_max_cards`).
    """
    k = max_cards or standard_max_cards(players)
    if rising:
        return [k - abs(k - i) for i in range(1, 2 * k)]
    return [abs(k - i) + 1 for i in range(1, 2 * k)]


def _schedule_words(sizes: Sequence[int], rising: bool) -> str:
    k = max(sizes)
    if rising:
        return f"the hands run from 1 card up to {k} and back down to 1"
    return f"the hands run from {k} cards down to 1 and back up to {k}"


def check_round(
    table: GameSetup,
    variant: Variant,
    rnd: Any,
    number: int,
    dealer: int,
    sizes: Sequence[int],
) -> RoundScore | list[Problem]:
    """The points of one round, or every problem found in it."""
    if type(rnd) is not dict:
        return not_a_round(number, "dealer, cards, bids, tricks, ...", rnd)
    players = table.players
    seat = table.seat
    n = len(players)
    size = sizes[number - 1]
    errors: list[Problem] = []
    get = rnd.get
    dealer_name = players[dealer]

    given = get("dealer")
    if given is not None and given != dealer_name:
        errors.append(wrong_dealer(number, players, dealer, given))

    given = get("cards")
    if given is not None and (type(given) is not int or given != size):
        if type(given) is not int:
            errors.append(
                problem(
                    number,
                    "bad_field",
                    f"cards must be the number of cards dealt to each player, not "
                    f"{literal(given)}.",
                    "cards",
                )
            )
        else:
            errors.append(
                problem(
                    number,
                    "wrong_cards",
                    f"Round {number} deals {size} card{'s' if size != 1 else ''} to each "
                    f"player, not {given}: {_schedule_words(sizes, variant.rising)}, one "
                    "card a hand.",
                    "cards",
                )
            )

    # The upcard: any card, a Bluke meaning no trump; none when every card is dealt.
    upcard: int | None = None
    upcard_ok = True
    raw_upcard = get("upcard")
    if raw_upcard is not None:
        if size * n == DECK_SIZE:
            errors.append(
                problem(
                    number,
                    "no_upcard",
                    f"All 54 cards are dealt in this hand ({size} to each of {n} players), so "
                    "no card is turned up and the hand has no trump; remove the upcard.",
                    "upcard",
                )
            )
            upcard_ok = False
        else:
            upcard = parse_card(raw_upcard)
            if upcard is None:
                errors.append(not_an_upcard(number, raw_upcard, CARD_HINT))
                upcard_ok = False

    # Bids: every player, 1 to the cards dealt (0 too with allow_zero_bid).
    low = 0 if table.options["allow_zero_bid"] else 1
    bids: list[int] | None = None
    raw: Any = get("bids")
    if raw is None:
        errors.append(
            problem(
                number,
                "bids_missing",
                f"No bids are entered for this hand; enter each player's bid ({low} to {size}).",
                "bids",
            )
        )
    else:
        read = read_player_numbers(number, BIDS, raw, players, seat, errors)
        if type(raw) is dict:
            complete = True
            for name in players:
                if name not in raw:
                    errors.append(
                        problem(
                            number,
                            "bid_missing",
                            f"{name} has no bid; every player bids on every hand, {low} to {size}.",
                            "bids",
                            name,
                        )
                    )
                    complete = False
                    continue
                b = raw[name]
                if type(b) is not int:
                    complete = False  # reported by the reader
                elif not low <= b <= size:
                    complete = False
                    if b == 0:
                        why = "bids start at 1 in this game (option allow_zero_bid is off)"
                    else:
                        cards = f"{size} card{'s' if size != 1 else ''}"
                        why = f"with {cards} dealt a bid runs from {low} to {size}"
                    errors.append(
                        problem(
                            number, "bid_out_of_range", f"{name} bid {b}, but {why}.", "bids", name
                        )
                    )
            if complete:
                bids = read

    # Tricks: from the summary, from the cards played, or both (and then they agree).
    raw = get("tricks")
    counts = read_player_numbers(number, TRICKS_TAKEN, raw, players, seat, errors)
    # Unreadable tricks (an unknown name, a word) are reported already; adding them up
    # would only say the same again.
    if counts is not None:
        for name, c in raw.items():
            if not 0 <= c <= size:
                errors.append(
                    problem(
                        number,
                        "bad_field",
                        f"{name}'s tricks must be a whole number from 0 to {size}, not {c}.",
                        "tricks",
                        name,
                    )
                )
                counts = None
    raw_play = get("play")
    if raw_play is not None and upcard_ok:
        if upcard is None and size * n != DECK_SIZE:
            errors.append(missing_upcard(number, " so the trump suit is known"))
        else:
            played = check_play(
                number=number,
                players=players,
                seat=seat,
                dealer=dealer,
                size=size,
                upcard=upcard,
                trump=trump_of(upcard),
                nj=variant.blukes_in_trump,
                raw=raw_play,
            )
            if isinstance(played, list):
                errors.extend(played)
            else:
                compare_with_play(number, players, played, counts, None, errors)
                counts = played.counts
    if counts is None:
        if raw is None and raw_play is None:
            errors.append(
                problem(
                    number,
                    "tricks_missing",
                    "No tricks are entered for this hand; enter how many tricks each player took.",
                    "tricks",
                )
            )
        return errors
    total = sum(counts)
    if total != size:
        errors.append(
            problem(
                number,
                "tricks_not_cards",
                f"The tricks add up to {total} ({values_text(players, counts, range(n))}); "
                f"with {size} card{'s' if size != 1 else ''} dealt to each player a hand has "
                f"exactly {size} trick{'s' if size != 1 else ''}.",
                "tricks",
            )
        )
    if errors or bids is None:
        return errors

    points = [0] * n
    hooks: list[int] = []
    for s in range(n):
        b = bids[s]
        c = counts[s]
        if c >= b:
            points[s] = SET_FACTOR * b + c - b
        else:
            points[s] = -SET_FACTOR * b
            hooks.append(s)
    return RoundScore(points, hooks)


def _winner_text(winner: str | list[str] | None) -> str:
    if isinstance(winner, list):
        return f"{names_and(winner)} shared the win"
    return f"{winner} won"


def score_game(table: GameSetup, rounds: list[Any], *, variant: Variant) -> GameResult:
    players = table.players
    n = len(players)
    scores = [0] * n
    result = GameResult(rounds=[], scores={})
    max_cards: int = table.options["max_cards"]
    why = max_cards_problem(n, max_cards)
    if why is not None:
        result.scores = dict.fromkeys(players, 0)
        result.errors.append(problem(None, "bad_option", why))
        return result
    if table.first_dealer is None:
        # Only possible for a game with no rounds yet (see engine.record).
        result.scores = dict.fromkeys(players, 0)
        return result
    sizes = hand_sizes(n, variant.rising, max_cards)
    last = len(sizes)
    out_rounds = result.rounds
    dealer = table.first_dealer
    for index, rnd in enumerate(rounds):
        number = index + 1
        if number > last:
            ended = f"{last}, the last hand of the schedule"
            result.errors.append(game_over(number, ended, _winner_text(result.winner)))
            break
        checked = check_round(table, variant, rnd, number, dealer, sizes)
        if type(checked) is list:
            result.errors.extend(checked)
            result.next_dealer = players[dealer]
            break
        assert isinstance(checked, RoundScore)
        points = checked.points
        for s in range(n):
            scores[s] += points[s]
        out_rounds.append(
            {
                "dealer": players[dealer],
                "cards": sizes[index],
                "points": dict(zip(players, points, strict=True)),
                "hooks": [players[s] for s in checked.hooks],
                "scores": dict(zip(players, scores, strict=True)),
            }
        )
        dealer = dealer + 1 if dealer + 1 < n else 0
        if number == last:
            top = max(scores)
            result.finished = True
            result.winner = winner_value(players, [s for s in range(n) if scores[s] == top])
    else:
        result.next_dealer = None if result.finished else players[dealer]
    result.scores = dict(zip(players, scores, strict=True))
    return result
