"""Reading a `play` field (each player's hand, and the tricks in the order played) and
wording what a replay refuses, for every trick game.

A game reads a sound `play` with its own fast reader and replays it with its own rules, on
every card; nothing here is on that path. When the fast reader gives up, `read_hands` and
`read_tricks` read the field again to say everything that is wrong with its shape, and a
replay that meets a card it cannot accept words the problem with `card_not_in_hand` or
`renege`. Each game passes the ends of the messages that state its own rule: how many
cards a hand has, who may hold the upcard, what a player had to play instead.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.base import Problem, names, problem, show

#: Reads a card as the input writes it: its number, or None when it is not a card.
ParseCard = Callable[[Any], int | None]
#: The problem with a text that is not a card: (round, text, where, player) -> problem.
#: `where` is "in Ann's hand" or "in trick 3", `player` the hand's owner or None.
NotACard = Callable[[int, Any, str, str | None], Problem]

#: Who holds a card while the hands are read: a player's name, or the upcard.
UPCARD: Final = "the upcard"


@dataclass(slots=True)
class PlayResult:
    """What a checked `play` says: tricks per seat and the winner of each trick."""

    counts: list[int]
    winners: list[int]


def ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th`` ... ``21st``."""
    if k % 100 in (11, 12, 13):
        return f"{k}th"
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th') }"


def first_leader(dealer: int, in_play: Sequence[int], n: int) -> int:
    """Index into `in_play` of the player who leads trick 1: the first in play to the
    dealer's left (the dealer last), when a player may sit a hand out."""
    for step in range(1, n + 1):
        s = (dealer + step) % n
        if s in in_play:
            return in_play.index(s)
    raise ValueError("no player in play")


def not_a_card(number: int, text: Any, where: str, player: str | None, hint: str) -> Problem:
    """A text in `play` that is not a card; `hint` says how the game writes one."""
    return problem(
        number, "bad_card", f"{show(text)} {where} is not a card; {hint}.", "play", player
    )


def not_an_upcard(number: int, text: Any, hint: str) -> Problem:
    """An `upcard` that is not a card; `hint` says how the game writes one."""
    return problem(number, "bad_card", f"The upcard {show(text)} is not a card; {hint}.", "upcard")


def missing_upcard(number: int, why: str) -> Problem:
    """Cards played with no upcard; `why` says what the game needs it for."""
    return problem(
        number,
        "missing_upcard",
        f"The cards played are given but not the upcard; enter the upcard{why}.",
        "upcard",
    )


def not_a_play(number: int, hand: str, tricks: int) -> Problem:
    """A `play` without its two parts; `hand` says what a hand holds: ``"5 cards"``."""
    return problem(
        number,
        "bad_field",
        f'play must have "hands" (each player\'s {hand}) and "tricks" ({tricks} lists of '
        "cards in the order played).",
        "play",
    )


def stranger_hand(number: int, name: Any, table: str = "") -> Problem:
    """A hand in `play` for someone not at the table; `table` may list who is."""
    return problem(
        number,
        "unknown_player",
        f"play has a hand for {show(name)}, who is not at this table{table}.",
        "play",
    )


def hand_not_a_list(number: int, name: str) -> Problem:
    return problem(number, "bad_field", f"{name}'s hand must be a list of cards.", "play", name)


def wrong_hand_size(number: int, name: str, count: int, rule: str) -> Problem:
    """A hand of `count` cards; `rule` says how many it should have."""
    return problem(number, "hand_size", f"{name}'s hand has {count} cards; {rule}.", "play", name)


def missing_hand(number: int, name: str, rule: str) -> Problem:
    """No hand for a player who has one; `rule` (``", who is in this round"``) says why."""
    return problem(number, "wrong_hands", f"play has no hand for {name}{rule}.", "play", name)


def read_hands(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw_hands: dict[Any, Any],
    errors: list[Problem],
    *,
    in_play: Sequence[int],
    parse: ParseCard,
    not_a_card: NotACard,
    card_names: Sequence[str],
    upcard: int | None,
    takers: Container[int],
    size: int,
    size_rule: str,
    missing_rule: str,
    upcard_rule: str,
    sat_out: str = "",
    pack: str = "a pack",
    list_table: bool = False,
) -> dict[int, int]:
    """The hands of `play` (card masks by seat), every problem with them in `errors`.

    Each player of `in_play` has one hand of `size` cards, and nobody else has one; no card
    is in two hands. The upcard (None: there is none) may be held only by a seat of
    `takers`, and by one at most. The words: `size_rule` ends the message for a
    hand of the wrong size (``"a hand in play has 5"``), `missing_rule` the one for a
    missing hand, `upcard_rule` the one for the upcard in a hand it cannot be in,
    `sat_out` says why a seat outside `in_play` has no hand, `pack` is whose pack has one
    of each card, and `list_table` names the players when a hand is a stranger's.
    """
    hand_of_seat: dict[int, int] = {}
    owner: dict[int, str] = {} if upcard is None else {upcard: UPCARD}
    in_play_set = set(in_play)
    for name, cards in raw_hands.items():
        s = seat.get(name) if type(name) is str else None
        if s is None:
            table = f" ({names(list(players))})" if list_table else ""
            errors.append(stranger_hand(number, name, table))
            continue
        if s not in in_play_set:
            errors.append(
                problem(
                    number,
                    "wrong_hands",
                    f"play has a hand for {name}, {sat_out}; remove it.",
                    "play",
                    name,
                )
            )
            continue
        if type(cards) is not list:
            errors.append(hand_not_a_list(number, name))
            continue
        mask = 0
        for text in cards:
            c = parse(text)
            if c is None:
                errors.append(not_a_card(number, text, f"in {name}'s hand", name))
                continue
            held = owner.get(c)
            if held is not None:
                if held == UPCARD and c == upcard and s in takers:
                    owner[c] = name
                    mask |= 1 << c
                elif held == UPCARD:
                    errors.append(
                        problem(
                            number,
                            "upcard_in_hand",
                            f"{name}'s hand holds {card_names[c]}, the upcard{upcard_rule}.",
                            "play",
                            name,
                        )
                    )
                else:
                    where = "twice" if held == name else f"and in {held}'s"
                    errors.append(
                        problem(
                            number,
                            "duplicate_card",
                            f"{card_names[c]} is in {name}'s hand {where}; {pack} has one of "
                            "each card.",
                            "play",
                            name,
                        )
                    )
                continue
            owner[c] = name
            mask |= 1 << c
        if len(cards) != size:
            errors.append(wrong_hand_size(number, name, len(cards), size_rule))
        hand_of_seat[s] = mask
    for s in in_play:
        if players[s] not in raw_hands:
            errors.append(missing_hand(number, players[s], missing_rule))
    return hand_of_seat


def read_tricks(
    number: int,
    raw_tricks: Any,
    errors: list[Problem],
    *,
    count: int,
    size: int,
    parse: ParseCard,
    not_a_card: NotACard,
    count_rule: str,
    size_rule: str,
) -> list[list[int]]:
    """The tricks of `play` (card numbers, -1 where a text is not a card), every problem
    with them in `errors`.

    There are `count` tricks of `size` cards each; `count_rule` and `size_rule` end the
    messages for a wrong number of tricks (``"a round has 5"``) and of cards in one.
    """
    tricks: list[list[int]] = []
    if type(raw_tricks) is not list:
        errors.append(
            problem(
                number,
                "bad_field",
                f'play must have "tricks": {count} lists of cards in the order played.',
                "play",
            )
        )
        return tricks
    if len(raw_tricks) != count:
        errors.append(
            problem(
                number,
                "wrong_trick_count",
                f"play lists {len(raw_tricks)} tricks; {count_rule}.",
                "play",
            )
        )
    for t, trick in enumerate(raw_tricks, start=1):
        if type(trick) is not list:
            errors.append(
                problem(number, "bad_field", f"Trick {t} must be a list of cards.", "play")
            )
            continue
        if len(trick) != size:
            errors.append(
                problem(
                    number,
                    "wrong_trick_size",
                    f"Trick {t} has {len(trick)} cards; {size_rule}.",
                    "play",
                )
            )
        cards = []
        for text in trick:
            c = parse(text)
            if c is None:
                errors.append(not_a_card(number, text, f"in trick {t}", None))
                c = -1
            cards.append(c)
        tricks.append(cards)
    return tricks


def card_not_in_hand(
    number: int, t: int, j: int, card: str, name: str, held: str, leader: str
) -> Problem:
    """The `j`-th card (from 0) of trick `t` is not in the hand of `name`, its player by
    the order of play, who holds `held` at that point."""
    return problem(
        number,
        "card_not_in_hand",
        f"Trick {t}: the {ordinal(j + 1)} card, {card}, falls to {name}, but {name} does not "
        f"hold {card} at that point (holds {held}). Cards of a trick are listed from its "
        f"leader, {leader}, clockwise.",
        "play",
        name,
    )


def renege(number: int, t: int, name: str, card: str, why: str, advice: str) -> Problem:
    """`name` broke a play rule with `card` in trick `t`: `why` says how, and `advice`
    what to enter, which depends on whether the game has a renege penalty."""
    return problem(
        number,
        "renege",
        f"Trick {t}: {name} played {card}, a renege: {why}. {advice}",
        "play",
        name,
    )
