"""Card-level play of Huckley Buck and Hucklebuck: legal cards, trick winners, replay.

Hands are bit masks (see `engine.cards`). Two play rules exist in the family:

* `huckley-buck` (IHBA text, THE PLAY and RENEGE): follow suit if able; void in a plain
  led suit, trump if able; while following or trumping, kill (beat) the trick if able,
  except that a plain card need not beat a trick that has been trumped; on a trump lead,
  play over if able.
* `hucklebuck` (THE PLAY): follow suit if able, otherwise any card.

The highest trump wins a trick, or else the highest card of the suit led.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import Problem, problem, show
from engine.cards import (
    ABOVE,
    BIT,
    CARD_NAMES,
    PARSE,
    SUIT_MASK,
    SUIT_OF,
    SUIT_WORD,
    SUIT_WORDS,
    describe,
)
from engine.cards import parse_card as _parse

HAND_SIZE = 5
TRICKS = 5


def legal_kill(hand: int, led: int, best: int, trump: int) -> int:
    """Legal cards under the IHBA play rules.

    `led` is the suit led (-1 when this player leads), `best` the card winning the trick so
    far, `trump` the trump suit.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    trumped = SUIT_OF[best] == trump
    if follow:
        if trumped and led != trump:
            # A plain card cannot beat a trump, so following is all that is asked.
            return follow
        higher = follow & ABOVE[best]
        return higher or follow
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        # Void in a plain led suit (a trump lead would have been followed above).
        if trumped:
            higher = trumps & ABOVE[best]
            return higher or trumps
        return trumps
    return hand


def legal_follow(hand: int, led: int, best: int, trump: int) -> int:
    """Legal cards under Hucklebuck's rule: follow suit if able, else anything."""
    if led < 0:
        return hand
    return hand & SUIT_MASK[led] or hand


def beats(card: int, best: int, trump: int) -> bool:
    """Whether `card` takes the trick from `best`."""
    suit = SUIT_OF[card]
    best_suit = SUIT_OF[best]
    return (suit == best_suit and card > best) or (suit == trump and best_suit != trump)


def renege_reason(hand: int, card: int, led: int, best: int, trump: int, kill: bool) -> str:
    """Which rule playing `card` broke, and what the player had to play instead."""
    follow = hand & SUIT_MASK[led]
    if follow:
        if SUIT_OF[card] != led:
            return (
                f"had to follow suit to the {SUIT_WORD[led]} lead "
                f"({SUIT_WORDS[led]} held: {describe(follow)})"
            )
        if led == trump:
            return (
                f"had to play over {CARD_NAMES[best]} on a trump lead "
                f"with {describe(follow & ABOVE[best])}"
            )
        return f"had to beat {CARD_NAMES[best]} with {describe(follow & ABOVE[best])}"
    trumps = hand & SUIT_MASK[trump]
    if SUIT_OF[card] != trump:
        return (
            f"had no {SUIT_WORDS[led]} and had to trump the {SUIT_WORD[led]} lead "
            f"(trumps held: {describe(trumps)})"
        )
    return f"had to over-trump {CARD_NAMES[best]} with {describe(trumps & ABOVE[best])}"


@dataclass(slots=True)
class PlayResult:
    """What a checked `play` says: tricks per seat and the winner of each trick."""

    counts: list[int]
    winners: list[int]


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def check_play(
    *,
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    in_play: list[int],
    upcard: Any,
    raw: Any,
    kill: bool,
    upcard_to_anyone: bool,
) -> PlayResult | list[Problem]:
    """Check a round's `upcard` and `play` and derive its tricks.

    `in_play` are the seats (in seat order) whose hands are in play: those who stayed in
    and lost no hand to a penalty.
    """
    errors: list[Problem] = []
    trump_card = _parse(upcard)
    if upcard is None:
        errors.append(
            problem(
                number,
                "missing_upcard",
                "The cards played are given but not the upcard; enter the upcard so the "
                "trump suit is known.",
                "upcard",
            )
        )
    elif trump_card is None:
        errors.append(
            problem(
                number,
                "bad_card",
                f"The upcard {show(upcard)} is not a card; write rank then suit, like 7H or TD.",
                "upcard",
            )
        )
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), dict):
        errors.append(
            problem(
                number,
                "bad_field",
                'play must have "hands" (each player\'s 5 cards) and "tricks" (5 lists of '
                "cards in the order played).",
                "play",
            )
        )
        return errors
    raw_hands: dict[Any, Any] = raw["hands"]
    raw_tricks = raw.get("tricks")
    n_in = len(in_play)
    if not errors and trump_card is not None:
        fast = _read_sound_play(
            raw_hands, raw_tricks, players, in_play, trump_card, dealer, upcard_to_anyone
        )
        if fast is not None:
            return _replay(
                number=number,
                players=players,
                dealer=dealer,
                in_play=in_play,
                trump=SUIT_OF[trump_card],
                hands=fast[0],
                tricks=fast[1],
                kill=kill,
            )

    # Hands: exactly one per player in play, 5 readable cards each, no card twice.
    hand_of_seat: dict[int, int] = {}
    owner: dict[int, str] = {}
    if trump_card is not None:
        owner[trump_card] = "the upcard"
    in_play_set = set(in_play)
    for name, cards in raw_hands.items():
        s = seat.get(name) if isinstance(name, str) else None
        if s is None:
            errors.append(
                problem(
                    number,
                    "unknown_player",
                    f"play has a hand for {show(name)}, who is not at this table.",
                    "play",
                )
            )
            continue
        if s not in in_play_set:
            errors.append(
                problem(
                    number,
                    "wrong_hands",
                    f"play has a hand for {name}, who has no hand in play this round (dropped "
                    "or lost the hand to a penalty); remove it.",
                    "play",
                    name,
                )
            )
            continue
        if not isinstance(cards, list):
            errors.append(
                problem(
                    number, "bad_field", f"{name}'s hand must be a list of cards.", "play", name
                )
            )
            continue
        mask = 0
        for text in cards:
            c = _parse(text)
            if c is None:
                errors.append(
                    problem(
                        number,
                        "bad_card",
                        f"{show(text)} in {name}'s hand is not a card; write rank then suit, "
                        "like 7H or TD.",
                        "play",
                        name,
                    )
                )
                continue
            if c in owner:
                if (
                    c == trump_card
                    and owner[c] == "the upcard"
                    and (upcard_to_anyone or s == dealer)
                ):
                    # The dealer may keep the upcard (IHBA, THE DRAW); in Hucklebuck the
                    # upcard tops the draw pile, so whoever draws first takes it.
                    owner[c] = name
                    mask |= 1 << c
                    continue
                if owner[c] == "the upcard":
                    errors.append(
                        problem(
                            number,
                            "upcard_in_hand",
                            f"{name}'s hand holds {CARD_NAMES[c]}, the upcard; only the dealer "
                            f"({players[dealer]}) can take the upcard, on the draw.",
                            "play",
                            name,
                        )
                    )
                else:
                    where = "twice" if owner[c] == name else f"and in {owner[c]}'s"
                    errors.append(
                        problem(
                            number,
                            "duplicate_card",
                            f"{CARD_NAMES[c]} is in {name}'s hand {where}; "
                            "a pack has one of each card.",
                            "play",
                            name,
                        )
                    )
                continue
            owner[c] = name
            mask |= 1 << c
        if len(cards) != HAND_SIZE:
            errors.append(
                problem(
                    number,
                    "hand_size",
                    f"{name}'s hand has {len(cards)} cards; a hand in play has {HAND_SIZE}.",
                    "play",
                    name,
                )
            )
        hand_of_seat[s] = mask
    for s in in_play:
        if s not in hand_of_seat and players[s] not in raw_hands:
            errors.append(
                problem(
                    number,
                    "wrong_hands",
                    f"play has no hand for {players[s]}, who is in this round.",
                    "play",
                    players[s],
                )
            )

    # Tricks: 5 of them, each with one card per player in play.
    tricks: list[list[int]] = []
    if not isinstance(raw_tricks, list):
        errors.append(
            problem(
                number,
                "bad_field",
                'play must have "tricks": 5 lists of cards in the order played.',
                "play",
            )
        )
    else:
        if len(raw_tricks) != TRICKS:
            errors.append(
                problem(
                    number,
                    "wrong_trick_count",
                    f"play lists {len(raw_tricks)} tricks; a round has {TRICKS}.",
                    "play",
                )
            )
        for t, trick in enumerate(raw_tricks, start=1):
            if not isinstance(trick, list):
                errors.append(
                    problem(number, "bad_field", f"Trick {t} must be a list of cards.", "play")
                )
                continue
            if len(trick) != n_in:
                errors.append(
                    problem(
                        number,
                        "wrong_trick_size",
                        f"Trick {t} has {len(trick)} cards; with {n_in} players in play "
                        f"each trick has {n_in}.",
                        "play",
                    )
                )
            cards_of_trick = []
            for text in trick:
                c = _parse(text)
                if c is None:
                    errors.append(
                        problem(
                            number,
                            "bad_card",
                            f"{show(text)} in trick {t} is not a card; write rank then suit, "
                            "like 7H or TD.",
                            "play",
                        )
                    )
                cards_of_trick.append(-1 if c is None else c)
            tricks.append(cards_of_trick)
    if errors:
        return errors
    assert trump_card is not None
    return _replay(
        number=number,
        players=players,
        dealer=dealer,
        in_play=in_play,
        trump=SUIT_OF[trump_card],
        hands=[hand_of_seat[s] for s in in_play],
        tricks=tricks,
        kill=kill,
    )


def _read_sound_play(
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
    players: Sequence[str],
    in_play: list[int],
    upcard: int,
    dealer: int,
    upcard_to_anyone: bool,
) -> tuple[list[int], list[list[int]]] | None:
    """The hands (masks, in `in_play` order) and tricks (card numbers) of a play with
    nothing wrong in its shape, or None at the first irregularity.

    The common case of a sound record is read here in a few tight loops; anything odd
    goes back to `check_play`'s careful reading, which says what is wrong.
    """
    n_in = len(in_play)
    if len(raw_hands) != n_in or type(raw_tricks) is not list or len(raw_tricks) != TRICKS:
        return None
    get = PARSE.get
    used = BIT[upcard]
    upcard_free = True
    hands = []
    try:
        for s in in_play:
            cards = raw_hands.get(players[s])
            if type(cards) is not list or len(cards) != HAND_SIZE:
                return None
            mask = 0
            for text in cards:
                c = get(text)
                if c is None:
                    return None
                bit = BIT[c]
                if used & bit:
                    if not (c == upcard and upcard_free and (upcard_to_anyone or s == dealer)):
                        return None
                    upcard_free = False
                used |= bit
                mask |= bit
            hands.append(mask)
        tricks = []
        for trick in raw_tricks:
            if type(trick) is not list or len(trick) != n_in:
                return None
            cards_played = [get(text, -1) for text in trick]
            if -1 in cards_played:
                return None
            tricks.append(cards_played)
    except TypeError:
        # An unhashable value where a card belongs.
        return None
    return hands, tricks


def first_leader(dealer: int, in_play: list[int], n: int) -> int:
    """Index into `in_play` of the player who leads trick 1: the first in play to the
    dealer's left (the dealer last)."""
    for step in range(1, n + 1):
        s = (dealer + step) % n
        if s in in_play:
            return in_play.index(s)
    raise ValueError("no player in play")


def _replay(
    *,
    number: int,
    players: Sequence[str],
    dealer: int,
    in_play: list[int],
    trump: int,
    hands: list[int],
    tricks: list[list[int]],
    kill: bool,
) -> PlayResult | list[Problem]:
    legal = legal_kill if kill else legal_follow
    n_in = len(in_play)
    pos = first_leader(dealer, in_play, len(players))
    counts = [0] * len(players)
    winners: list[int] = []
    for t, trick in enumerate(tricks, start=1):
        led = -1
        best = -1
        best_pos = pos
        for j, card in enumerate(trick):
            p = (pos + j) % n_in
            hand = hands[p]
            bit = 1 << card
            if not hand & bit:
                name = players[in_play[p]]
                return [
                    problem(
                        number,
                        "card_not_in_hand",
                        f"Trick {t}: the {_ordinal(j + 1)} card, {CARD_NAMES[card]}, falls to "
                        f"{name}, but {name} does not hold {CARD_NAMES[card]} at that point "
                        f"(holds {describe(hand)}). Cards of a trick are listed from its "
                        f"leader, {players[in_play[pos]]}, clockwise.",
                        "play",
                        name,
                    )
                ]
            if led < 0:
                led = SUIT_OF[card]
                best = card
            else:
                if not legal(hand, led, best, trump) & bit:
                    name = players[in_play[p]]
                    reason = renege_reason(hand, card, led, best, trump, kill)
                    return [
                        problem(
                            number,
                            "renege",
                            f"Trick {t}: {name} played {CARD_NAMES[card]}, a renege: {name} "
                            f"{reason}. Enter the round as replayed without {name}'s hand, "
                            f"with a renege penalty on {name}.",
                            "play",
                            name,
                        )
                    ]
                suit = SUIT_OF[card]
                best_suit = SUIT_OF[best]
                if (suit == best_suit and card > best) or (suit == trump and best_suit != trump):
                    best = card
                    best_pos = p
            hands[p] = hand ^ bit
        winner = in_play[best_pos]
        counts[winner] += 1
        winners.append(winner)
        pos = best_pos
    return PlayResult(counts, winners)
