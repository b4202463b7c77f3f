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
from typing import Any, Final

from engine.base import Problem
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
    parse_card,
)
from engine.games._common.play import (
    PlayResult,
    card_not_in_hand,
    first_leader,
    missing_upcard,
    not_a_card,
    not_a_play,
    not_an_upcard,
    read_hands,
    read_tricks,
    renege,
)

HAND_SIZE: Final = 5
TRICKS: Final = 5
CARD_HINT: Final = "write rank then suit, like 7H or TD"


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


def _not_a_card(number: int, text: Any, where: str, player: str | None) -> Problem:
    return not_a_card(number, text, where, player, CARD_HINT)


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
    trump_card = parse_card(upcard)
    if upcard is None:
        errors.append(missing_upcard(number, " so the trump suit is known"))
    elif trump_card is None:
        errors.append(not_an_upcard(number, upcard, CARD_HINT))
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), dict):
        errors.append(not_a_play(number, f"{HAND_SIZE} cards", TRICKS))
        return errors
    raw_hands: dict[Any, Any] = raw["hands"]
    raw_tricks = raw.get("tricks")
    n_in = len(in_play)
    read = None
    if not errors and trump_card is not None:
        read = _read_sound_play(
            raw_hands, raw_tricks, players, in_play, trump_card, dealer, upcard_to_anyone
        )
    if read is None:
        # Something is wrong with the shape: read it again, saying everything that is.
        hand_of_seat = read_hands(
            number,
            players,
            seat,
            raw_hands,
            errors,
            in_play=in_play,
            parse=parse_card,
            not_a_card=_not_a_card,
            card_names=CARD_NAMES,
            upcard=trump_card,
            # The dealer may keep the upcard (IHBA, THE DRAW); in Hucklebuck the upcard
            # tops the draw pile, so whoever draws first takes it.
            takers=range(len(players)) if upcard_to_anyone else (dealer,),
            size=HAND_SIZE,
            size_rule=f"a hand in play has {HAND_SIZE}",
            missing_rule=", who is in this round",
            upcard_rule=f"; only the dealer ({players[dealer]}) can take the upcard, on the draw",
            sat_out="who has no hand in play this round (dropped or lost the hand to a penalty)",
        )
        tricks = read_tricks(
            number,
            raw_tricks,
            errors,
            count=TRICKS,
            size=n_in,
            parse=parse_card,
            not_a_card=_not_a_card,
            count_rule=f"a round has {TRICKS}",
            size_rule=f"with {n_in} players in play each trick has {n_in}",
        )
        if errors:
            return errors
        read = [hand_of_seat[s] for s in in_play], tricks
    assert trump_card is not None
    return _replay(
        number=number,
        players=players,
        dealer=dealer,
        in_play=in_play,
        trump=SUIT_OF[trump_card],
        hands=read[0],
        tricks=read[1],
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
                leader = players[in_play[pos]]
                name = players[in_play[p]]
                return [
                    card_not_in_hand(number, t, j, CARD_NAMES[card], name, describe(hand), leader)
                ]
            if led < 0:
                led = SUIT_OF[card]
                best = card
            else:
                if not legal(hand, led, best, trump) & bit:
                    name = players[in_play[p]]
                    reason = renege_reason(hand, card, led, best, trump, kill)
                    advice = (
                        f"Enter the round as replayed without {name}'s hand, with a renege "
                        f"penalty on {name}."
                    )
                    return [renege(number, t, name, CARD_NAMES[card], f"{name} {reason}", advice)]
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
