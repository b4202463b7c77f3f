"""Card-level play of Ten-Point Buck: legal cards, trick winners, replay of `play`.

Source: the Ten-Point Buck rules text, Tricks, Legal Plays and The Doe.

* Any card may be led. After that a player may not play a card of a rank (value)
  already in the trick, normal or white, unless every card the player holds is of such a
  rank ("unless it is their only available option").
* The highest white (trump) card wins; with no white card in the trick, the highest
  normal card, and of equal normal cards the first played.
* The Doe (white 0) loses to every other white card, but when the Doe and the Buck
  (white 10) are in one trick the Doe wins it, and its player scores 2 Hunting Points.

A player's card points are the values of the cards in the tricks they won. The replay
holds hands as tallies (counts per kind of card packed in one int), the simulator as bit
masks (one bit per card of the deck); `engine.games.ten_point_buck.cards` has both, and
the legal-play rule reads the same in either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final

from engine.base import Problem, problem
from engine.games._common.play import (
    card_not_in_hand,
    hand_not_a_list,
    missing_hand,
    not_a_card,
    not_a_play,
    read_tricks,
    renege,
    stranger_hand,
    wrong_hand_size,
)
from engine.games.ten_point_buck.cards import (
    BUCK,
    DOE,
    KIND_COPIES,
    KIND_NAMES,
    KIND_STRENGTH,
    KIND_VALUE,
    KIND_WHITE,
    PARSE,
    PLAY_INFO,
    TALLY_DOE_AND_BUCK,
    TALLY_FIELD,
    TALLY_OF,
    TALLY_ONE,
    TALLY_OVER,
    TALLY_RANK,
    TALLY_SLACK,
    TALLY_WIDTH,
    VALUE_OF_TEXT,
    card_hint,
    describe_tally,
)

HAND_SIZE: Final = 10
TRICKS: Final = 10
_RENEGE_ADVICE: Final = (
    "Correct the cards as they were played; the rules set no penalty, so if the trick really "
    "went this way enter the round without play."
)


def legal_cards(hand: int, in_trick: int) -> int:
    """The cards of `hand` a player may play to a trick.

    `in_trick` is the union of the rank masks of the cards already in the trick
    (`VALUE_MASK` for bit-mask hands, `TALLY_RANK` for tallies), 0 for the leader. Cards of
    a rank not yet in the trick if the hand has any, else the whole hand: never empty for
    a non-empty hand, always part of it.
    """
    return hand & ~in_trick or hand


def trick_winner(cards: Sequence[str]) -> int:
    """Which card of a full trick takes it: its index in the order played.

    The rules of Tricks and The Doe written out plainly, one card at a time; the replay
    works the same out inline, and the tests hold the two to each other.
    """
    kinds = [PARSE[text] for text in cards]
    if DOE in kinds and BUCK in kinds:
        return kinds.index(DOE)
    whites = [i for i, k in enumerate(kinds) if KIND_WHITE[k]]
    if whites:
        return max(whites, key=lambda i: KIND_VALUE[kinds[i]])
    top = max(KIND_VALUE[k] for k in kinds)
    # "whoever played the first card of the highest rank played wins the trick"
    return next(i for i, k in enumerate(kinds) if KIND_VALUE[k] == top)


@dataclass(slots=True)
class CardPointsResult:
    """What a checked `play` gives: card points per seat, trick winners, the Doe bonus."""

    points: list[int]
    winners: list[int]
    doe_bonus: int | None  # the seat that took the Doe and the Buck with the Doe


def first_leader(dealer: int, n: int) -> int:
    """Bidding, and Tricks: "the lead going to the player on the dealer's left"."""
    return dealer + 1 if dealer + 1 < n else 0


def check_play(
    *,
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    raw: Any,
) -> CardPointsResult | list[Problem]:
    """Check a round's `play` (every player's hand and the ten tricks) and replay it."""
    if type(raw) is not dict or type(raw.get("hands")) is not dict:
        return [not_a_play(number, f"{HAND_SIZE} cards", TRICKS)]
    raw_hands: dict[Any, Any] = raw["hands"]
    raw_tricks = raw.get("tricks")
    read: tuple[list[int], list[list[str]]] | list[Problem] | None
    read = _read_sound_play(raw_hands, raw_tricks, players)
    if read is None:
        read = _read_play(number, players, seat, raw_hands, raw_tricks)
        if isinstance(read, list):
            return read
    return _replay(number, players, dealer, read[0], read[1])


def _read_sound_play(
    raw_hands: dict[Any, Any], raw_tricks: Any, players: Sequence[str]
) -> tuple[list[int], list[list[str]]] | None:
    """The hands (tallies, by seat) and tricks of a play with nothing wrong in its shape,
    or None at the first irregularity, for `_read_play` to say what it is.

    The common case of a sound record is read here, mostly in C: each hand is one
    `sum(map(...))`, the deck check one addition, the cards of the tricks one subset test.
    """
    n = len(players)
    if len(raw_hands) != n or type(raw_tricks) is not list or len(raw_tricks) != TRICKS:
        return None
    one = TALLY_OF.__getitem__
    hands = []
    try:
        for name in players:
            cards = raw_hands.get(name)
            if type(cards) is not list or len(cards) != HAND_SIZE:
                return None
            hands.append(sum(map(one, cards)))
        for trick in raw_tricks:
            if type(trick) is not list or len(trick) != n:
                return None
        if not _SPELLINGS.issuperset(chain.from_iterable(raw_tricks)):
            return None
    except (KeyError, TypeError):
        # Not a card, or an unhashable value where a card belongs.
        return None
    if (sum(hands) + TALLY_SLACK) & TALLY_OVER:
        return None
    return hands, raw_tricks


_SPELLINGS: Final = frozenset(PLAY_INFO)


def _read_play(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
) -> tuple[list[int], list[list[str]]] | list[Problem]:
    """The careful reading of `play`: every problem with its shape, or the hands (tallies)
    and the tricks (cards as canonical text)."""
    errors: list[Problem] = []
    n = len(players)
    hands: list[int | None] = [None] * n
    dealt = 0
    for name, cards in raw_hands.items():
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(stranger_hand(number, name))
            continue
        if type(cards) is not list:
            errors.append(hand_not_a_list(number, name))
            continue
        tally = 0
        for text in cards:
            kind = _parse(text)
            if kind is None:
                errors.append(_not_a_card(number, text, f"in {name}'s hand", name))
                continue
            if (dealt >> (TALLY_WIDTH * kind)) & 63 == KIND_COPIES[kind]:
                copies = KIND_COPIES[kind]
                card = KIND_NAMES[kind]
                a = "an" if card[0] == "8" else "a"
                whole = f"only one {card}" if copies == 1 else f"{copies} normal {card}s"
                errors.append(
                    problem(
                        number,
                        "duplicate_card",
                        f"{name}'s hand has {a} {card} too many: the deck has {whole} in all.",
                        "play",
                        name,
                    )
                )
                continue
            dealt += TALLY_ONE[kind]
            tally += TALLY_ONE[kind]
        if len(cards) != HAND_SIZE:
            errors.append(
                wrong_hand_size(number, name, len(cards), f"every player is dealt {HAND_SIZE}")
            )
        hands[s] = tally
    for name in players:
        if name not in raw_hands:
            errors.append(missing_hand(number, name, f"; give every player's {HAND_SIZE} cards"))

    kinds = read_tricks(
        number,
        raw_tricks,
        errors,
        count=TRICKS,
        size=n,
        parse=_parse,
        not_a_card=_not_a_card,
        count_rule=f"a round has {TRICKS} (every player plays all {HAND_SIZE} cards)",
        size_rule=f"with {n} players each trick has {n}",
    )
    if errors:
        return errors
    tricks = [[KIND_NAMES[kind] for kind in trick] for trick in kinds]
    return [h or 0 for h in hands], tricks


def _parse(text: Any) -> int | None:
    try:
        return PARSE.get(text)
    except TypeError:
        return None


def _not_a_card(number: int, text: Any, where: str, player: str | None) -> Problem:
    return not_a_card(number, text, where, player, card_hint(text))


def _replay(
    number: int,
    players: Sequence[str],
    dealer: int,
    hands: list[int],
    tricks: list[list[str]],
) -> CardPointsResult | list[Problem]:
    """Play the tricks card by card against the hands; stop at the first bad card.

    Every card text in `tricks` is known to be a card; `hands` are tallies. The quick
    pass does not ask, card by card, whether the player holds it: each player plays one
    card a trick, ten in all, so every hand ends empty exactly when everyone played their
    own cards (a tally's fields are below 64, so a difference is zero only field by
    field). Should a hand not end empty, or a renege show up (which a card played out of
    turn can fake), the careful pass replays with every check to find the first bad card.
    """
    quick = _quick_replay(players, dealer, hands[:], tricks)
    if quick is not None:
        return quick
    return _careful_replay(number, players, dealer, hands, tricks)


def _quick_replay(
    players: Sequence[str], dealer: int, hands: list[int], tricks: list[list[str]]
) -> CardPointsResult | None:
    n = len(players)
    info = PLAY_INFO
    value_of = VALUE_OF_TEXT.__getitem__
    after = [*range(1, n), 0]  # the seat on each seat's left
    pos = first_leader(dealer, n)
    points = [0] * n
    winners: list[int] = []
    bonus: int | None = None
    for trick in tricks:
        in_trick = 0
        best = -1
        best_pos = pos
        p = pos
        for text in trick:
            one, rank, strength = info[text]
            hand = hands[p]
            if rank & in_trick and hand & ~in_trick:
                return None
            hands[p] = hand - one
            in_trick |= rank
            if strength > best:
                # Strictly higher: of equal normal cards the first played keeps the trick.
                best = strength
                best_pos = p
            p = after[p]
        if in_trick & TALLY_DOE_AND_BUCK == TALLY_DOE_AND_BUCK:
            # The Doe: "if the Doe and the Ten-Point Buck are played to the same trick,
            # then the Doe card wins the trick", and its player scores the bonus.
            j = next(j for j, text in enumerate(trick) if PARSE[text] == DOE)
            best_pos = (pos + j) % n
            bonus = best_pos
        points[best_pos] += sum(map(value_of, trick))
        winners.append(best_pos)
        pos = best_pos
    if any(hands):
        return None
    return CardPointsResult(points, winners, bonus)


def _careful_replay(
    number: int,
    players: Sequence[str],
    dealer: int,
    hands: list[int],
    tricks: list[list[str]],
) -> CardPointsResult | list[Problem]:
    n = len(players)
    pos = first_leader(dealer, n)
    points = [0] * n
    winners: list[int] = []
    bonus: int | None = None
    for t, trick in enumerate(tricks, start=1):
        in_trick = 0
        best = -1
        best_pos = pos
        p = pos
        for text in trick:
            kind = PARSE[text]
            hand = hands[p]
            if not hand & TALLY_FIELD[kind]:
                return [_not_in_hand(number, players, t, text, p, pos, hand)]
            rank = TALLY_RANK[kind]
            if rank & in_trick and hand & ~in_trick:
                return [_renege(number, players, t, trick, text, p, pos, hand, in_trick)]
            hands[p] = hand - TALLY_ONE[kind]
            in_trick |= rank
            if KIND_STRENGTH[kind] > best:
                best = KIND_STRENGTH[kind]
                best_pos = p
            p = p + 1 if p + 1 < n else 0
        if in_trick & TALLY_DOE_AND_BUCK == TALLY_DOE_AND_BUCK:
            j = next(j for j, text in enumerate(trick) if PARSE[text] == DOE)
            best_pos = (pos + j) % n
            bonus = best_pos
        points[best_pos] += sum(KIND_VALUE[PARSE[text]] for text in trick)
        winners.append(best_pos)
        pos = best_pos
    return CardPointsResult(points, winners, bonus)


def _not_in_hand(
    number: int,
    players: Sequence[str],
    t: int,
    text: str,
    p: int,
    leader: int,
    hand: int,
) -> Problem:
    card = KIND_NAMES[PARSE[text]]
    j = (p - leader) % len(players)
    held = describe_tally(hand) or "nothing"
    return card_not_in_hand(number, t, j, card, players[p], held, players[leader])


def _renege(
    number: int,
    players: Sequence[str],
    t: int,
    trick: list[str],
    text: str,
    p: int,
    leader: int,
    hand: int,
    in_trick: int,
) -> Problem:
    kind = PARSE[text]
    name = players[p]
    n = len(players)
    value = KIND_VALUE[kind]
    j = (p - leader) % n
    earlier = next(
        f"{KIND_NAMES[PARSE[played]]} from {players[(leader + i) % n]}"
        for i, played in enumerate(trick[:j])
        if KIND_VALUE[PARSE[played]] == value
    )
    others = describe_tally(hand & ~in_trick)
    why = (
        f"a {value} is already in the trick ({earlier}), and {name} had to play a card of a "
        f"rank not yet in it (held: {others})"
    )
    return renege(number, t, name, KIND_NAMES[kind], why, _RENEGE_ADVICE)
