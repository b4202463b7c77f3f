"""Checking and scoring the hands of a Bluke or New Jersey Bluke game record.

The number of cards dealt changes every hand on a fixed schedule (`hand_sizes`), so a
game is a known number of rounds: `score_game` runs them in order, stops at the first
invalid one, and names the winner after the last hand of the schedule. `check_round`
turns one round's fields (`cards`, `upcard`, `bids`, `tricks`, `play`) into the points it
gives, or into every problem it has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import GameResult, Problem, Table, literal, names, problem, show
from engine.games.bluke.cards import DECK_SIZE, parse_card, trump_of
from engine.games.bluke.play import CARD_HINT, check_play

#: DOMAIN ruling: the largest hand is 13 at 2-4 players ...
STANDARD_MAX: Final = 13
#: ... and floor(52 / players) above, which leaves at least two of the 54 cards undealt.
PLAIN_CARDS: Final = 52
SET_FACTOR: Final = 10


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
    """The largest hand by the DOMAIN ruling: 13 at 2-4 players, floor(52 / players) above
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


def _tricks_text(players: Sequence[str], counts: Sequence[int], seats: Sequence[int]) -> str:
    return ", ".join(f"{players[s]} {counts[s]}" for s in seats) or "none"


def _read_counts(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw: Any,
    field: str,
    errors: list[Problem],
) -> dict[int, int | None] | None:
    """A `bids` or `tricks` object read into seat -> whole number (None for a value that is
    not one, already reported), or None when it is not an object at all."""
    if type(raw) is not dict:
        what = "bid made" if field == "bids" else "tricks taken"
        example = '{"Ann": 2, "Bob": 1}'
        errors.append(
            problem(
                number,
                "bad_field",
                f"{field} must map each player to the {what}, like {example}.",
                field,
            )
        )
        return None
    values: dict[int, int | None] = {}
    for name, value in raw.items():
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(
                problem(
                    number,
                    "unknown_player",
                    f"{field} names {show(name)}, who is not at this table "
                    f"({names(list(players))}).",
                    field,
                )
            )
        elif type(value) is not int:
            what = "bid" if field == "bids" else "tricks"
            errors.append(
                problem(
                    number,
                    "bad_field",
                    f"{name}'s {what} must be a whole number, not {literal(value)}.",
                    field,
                    name,
                )
            )
            values[s] = None
        else:
            values[s] = value
    return values


def check_round(
    table: Table,
    variant: Variant,
    rnd: Any,
    number: int,
    dealer: int,
    sizes: Sequence[int],
) -> RoundScore | list[Problem]:
    """The points of one round, or every problem found in it."""
    if type(rnd) is not dict:
        return [
            problem(
                number,
                "bad_round",
                f"Round {number} must be a set of fields (dealer, cards, bids, tricks, ...), "
                f"not {show(rnd)}.",
            )
        ]
    players = table.players
    seat = table.seat
    n = len(players)
    size = sizes[number - 1]
    errors: list[Problem] = []
    get = rnd.get
    dealer_name = players[dealer]

    given = get("dealer")
    if given is not None and given != dealer_name:
        if number == 1:
            why = f"{dealer_name} is the first dealer"
        else:
            why = f"{players[dealer - 1]} dealt round {number - 1} and the deal passes left"
        errors.append(
            problem(
                number,
                "wrong_dealer",
                f"Round {number} is dealt by {dealer_name}, not {show(given)}: {why}.",
                "dealer",
            )
        )

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
                errors.append(
                    problem(
                        number,
                        "bad_card",
                        f"The upcard {show(raw_upcard)} is not a card; {CARD_HINT}.",
                        "upcard",
                    )
                )
                upcard_ok = False

    # Bids: every player, 1 to the cards dealt (0 too with allow_zero_bid).
    low = 0 if table.options["allow_zero_bid"] else 1
    bids: list[int] | None = None
    raw = get("bids")
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
        read = _read_counts(number, players, seat, raw, "bids", errors)
        if read is not None:
            complete = True
            for s, name in enumerate(players):
                if s not in read:
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
                b = read[s]
                if b is None:
                    complete = False
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
                bids = [b for b in (read[s] for s in range(n)) if b is not None]

    # Tricks: from the summary, from the cards played, or both (and then they agree).
    counts: list[int] | None = None
    raw = get("tricks")
    if raw is not None:
        before = len(errors)
        read = _read_counts(number, players, seat, raw, "tricks", errors)
        # Unreadable tricks (an unknown name, a word) are reported already; adding them
        # up would only say the same again.
        if read is not None and len(errors) == before:
            counts = [0] * n
            for s, c in read.items():
                if c is None:
                    counts = None
                elif not 0 <= c <= size:
                    errors.append(
                        problem(
                            number,
                            "bad_field",
                            f"{players[s]}'s tricks must be a whole number from 0 to {size}, "
                            f"not {c}.",
                            "tricks",
                            players[s],
                        )
                    )
                    counts = None
                elif counts is not None:
                    counts[s] = c
    raw_play = get("play")
    if raw_play is not None and upcard_ok:
        if upcard is None and size * n != DECK_SIZE:
            errors.append(
                problem(
                    number,
                    "missing_upcard",
                    "The cards played are given but not the upcard; enter the upcard so the "
                    "trump suit is known.",
                    "upcard",
                )
            )
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
                if counts is not None and counts != played.counts:
                    differ = [s for s in range(n) if counts[s] != played.counts[s]]
                    errors.append(
                        problem(
                            number,
                            "play_mismatch",
                            f"tricks gives {_tricks_text(players, counts, differ)} but the "
                            f"cards played give {_tricks_text(players, played.counts, differ)}; "
                            "correct the tricks or the cards.",
                            "tricks",
                        )
                    )
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
                f"The tricks add up to {total} ({_tricks_text(players, counts, range(n))}); "
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
        return f"{names(winner[:-1])} and {winner[-1]} shared the win"
    return f"{winner} won"


def score_game(table: Table, variant: Variant, rounds: list[Any]) -> GameResult:
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
            result.errors.append(
                problem(
                    number,
                    "game_over",
                    f"The game ended after round {last}, the last hand of the schedule "
                    f"({_winner_text(result.winner)}); round {number} and any after it "
                    "belong to a new game.",
                )
            )
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
            tops = [players[s] for s in range(n) if scores[s] == top]
            result.finished = True
            result.winner = tops[0] if len(tops) == 1 else tops
    else:
        result.next_dealer = None if result.finished else players[dealer]
    result.scores = dict(zip(players, scores, strict=True))
    return result
