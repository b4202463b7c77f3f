"""Card-level play of Buck Euchre: legal cards, trick winners, and the replay of `play`.

The play rule is the text's (Play of the hand): follow suit if able, otherwise any card;
there is no duty to trump or to beat the trick. "Suit" is the suit under the trump of the
hand, so the left bower follows a trump lead and does not follow its printed suit. The
highest trump wins the trick, or else the highest card of the suit led. Hands are bit
masks and every question is a table look-up (`engine.games.buck_euchre.cards`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.base import Problem, problem
from engine.cards import BIT, CARD_NAMES, PARSE, SUIT_OF
from engine.games._common.play import (
    PlayResult,
    card_not_in_hand,
    first_leader,
    not_a_card,
    not_a_play,
    read_hands,
    read_tricks,
    renege,
)
from engine.games.buck_euchre.cards import (
    BEATERS,
    FOLLOW,
    NO_TRUMP,
    PACK_PARSE,
    SUIT,
    describe,
    left_bower,
    name,
    parse_pack_card,
    suit_word,
)

HAND_SIZE: Final = 5
TRICKS: Final = 5
_RENEGE_ADVICE: Final = (
    "Correct the cards if they were entered wrongly. If it happened at the table: the rules "
    "set no renege penalty, so enter the round without play, with the tricks as they were "
    "taken."
)


def legal(hand: int, led_card: int, trump: int) -> int:
    """The cards of `hand` that may be played to a trick led with `led_card` (-1: lead)."""
    if led_card < 0:
        return hand
    return hand & FOLLOW[trump][led_card] or hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index in `cards` (in the order played) of the card that wins the trick."""
    beaters = BEATERS[trump]
    best = 0
    for i in range(1, len(cards)):
        if beaters[cards[best]] & BIT[cards[i]]:
            best = i
    return best


def renege_reason(hand: int, card: int, led_card: int, trump: int) -> str:
    """What the player who played `card` had to play instead (it did not follow suit)."""
    led = SUIT[trump][led_card]
    follow = hand & FOLLOW[trump][led_card]
    what, held = ("trump", "trumps") if led == trump else (suit_word(led), suit_word(led, True))
    reason = f"had to follow suit to the {what} lead ({held} held: {describe(follow, trump)})"
    if trump != NO_TRUMP and card == left_bower(trump) and SUIT_OF[card] == led:
        # The one case the text spells out: the left bower is a trump, so playing it to
        # its printed suit is not following suit.
        reason += (
            f"; {CARD_NAMES[card]} is the left bower, a {suit_word(trump)}, so it does not "
            f"follow {suit_word(SUIT_OF[card], True)}"
        )
    return reason


def _not_a_card(number: int, text: Any, where: str, player: str | None) -> Problem:
    card = PARSE.get(text) if type(text) is str else None
    if card is not None:
        return problem(
            number,
            "not_in_pack",
            f"{CARD_NAMES[card]} {where} is not in the Buck Euchre pack, which has the 9, "
            "10, J, Q, K and A of each suit (24 cards).",
            "play",
            player,
        )
    return not_a_card(number, text, where, player, "write rank then suit, like 9H or TD")


def _upcard_home(players: Sequence[str], taker: int, why_taken: str) -> str:
    """Where the upcard is, and why: the end of an `upcard_in_hand` message."""
    if taker >= 0:
        return f"the dealer, {players[taker]}, took it {why_taken}"
    return f"it belongs in no hand in play: {why_taken}"


def check_play(
    *,
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    in_play: list[int],
    upcard: int,
    taker: int,
    why_taken: str,
    trump: int,
    raw: Any,
) -> PlayResult | list[Problem]:
    """Check a round's `play` and derive its tricks.

    `in_play` are the seats (in seat order) of the players in the hand, `upcard` the
    upcard, `taker` the seat whose hand must hold it (-1: no hand in play may) and
    `why_taken` the reason, for messages; `trump` is 0-3 or `NO_TRUMP`.
    """
    if type(raw) is not dict or type(raw.get("hands")) is not dict:
        return [not_a_play(number, f"{HAND_SIZE} cards as play begins", TRICKS)]
    raw_hands: dict[Any, Any] = raw["hands"]
    raw_tricks = raw.get("tricks")
    read: tuple[list[int], list[list[int]]] | list[Problem] | None
    read = _read_sound_play(raw_hands, raw_tricks, players, in_play, upcard, taker)
    if read is None:
        # Something is wrong with the shape: read it again, saying everything that is.
        read = _read_play(
            number, players, seat, in_play, upcard, taker, why_taken, raw_hands, raw_tricks
        )
        if isinstance(read, list):
            return read
    return _replay(number, players, dealer, in_play, trump, read[0], read[1])


def _read_play(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    in_play: list[int],
    upcard: int,
    taker: int,
    why_taken: str,
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
) -> tuple[list[int], list[list[int]]] | list[Problem]:
    """Every problem with the shape of `play`, or its hands (in `in_play` order) and
    tricks when there is none."""
    errors: list[Problem] = []
    n_in = len(in_play)
    hand_of_seat = read_hands(
        number,
        players,
        seat,
        raw_hands,
        errors,
        in_play=in_play,
        parse=parse_pack_card,
        not_a_card=_not_a_card,
        card_names=CARD_NAMES,
        upcard=upcard,
        takers=(taker,),
        size=HAND_SIZE,
        size_rule=f"a hand as play begins has {HAND_SIZE}",
        missing_rule=", who is in this round",
        upcard_rule=f", but {_upcard_home(players, taker, why_taken)}. Correct the hand, or "
        "trump and declarer",
        sat_out="who dropped this round",
        pack="the pack",
        list_table=True,
    )
    if taker >= 0 and taker in hand_of_seat and not hand_of_seat[taker] & BIT[upcard]:
        errors.append(
            problem(
                number,
                "upcard_not_taken",
                f"{players[taker]}'s hand should hold {CARD_NAMES[upcard]}, the upcard: "
                f"the dealer took it {why_taken}, discarding another card. A suit named "
                "in the second round is never the upcard's, so if trump was named then, "
                "correct trump; otherwise correct the hand.",
                "play",
                players[taker],
            )
        )

    tricks = read_tricks(
        number,
        raw_tricks,
        errors,
        count=TRICKS,
        size=n_in,
        parse=parse_pack_card,
        not_a_card=_not_a_card,
        count_rule=f"a hand has {TRICKS}",
        size_rule=f"with {n_in} player{'s' if n_in != 1 else ''} in the hand each trick has {n_in}",
    )
    if errors:
        return errors
    return [hand_of_seat[s] for s in in_play], tricks


def _read_sound_play(
    raw_hands: dict[Any, Any],
    raw_tricks: Any,
    players: Sequence[str],
    in_play: list[int],
    upcard: int,
    taker: int,
) -> tuple[list[int], list[list[int]]] | None:
    """The hands (masks, in `in_play` order) and tricks (card numbers) of a play with
    nothing wrong in its shape, or None at the first irregularity.

    A sound record is read here in a few tight loops; anything odd goes back to
    `_read_play`, which says what is wrong.
    """
    n_in = len(in_play)
    if len(raw_hands) != n_in or type(raw_tricks) is not list or len(raw_tricks) != TRICKS:
        return None
    get = PACK_PARSE.get  # a card outside the pack reads as None and goes the careful way
    upbit = BIT[upcard]
    used = upbit
    upcard_free = taker >= 0
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
                    if not (bit == upbit and s == taker and upcard_free):
                        return None
                    upcard_free = False
                used |= bit
                mask |= bit
            if s == taker and upcard_free:
                return None  # the dealer's hand lacks the upcard
            hands.append(mask)
        tricks = []
        for trick in raw_tricks:
            if type(trick) is not list or len(trick) != n_in:
                return None
            played = [get(text, -1) for text in trick]
            if -1 in played:
                return None
            tricks.append(played)
    except TypeError:
        # An unhashable value where a card belongs.
        return None
    return hands, tricks


def _replay(
    number: int,
    players: Sequence[str],
    dealer: int,
    in_play: list[int],
    trump: int,
    hands: list[int],
    tricks: list[list[int]],
) -> PlayResult | list[Problem]:
    follow = FOLLOW[trump]
    beaters = BEATERS[trump]
    n_in = len(in_play)
    # The player to the dealer's left leads, or the next in the hand to the left when that
    # player dropped (ruling).
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
            bit = BIT[card] if card >= 0 else 0
            if not hand & bit:
                who = players[in_play[p]]
                shown = CARD_NAMES[card] if card >= 0 else "?"
                held = describe(hand, trump)
                leader = players[in_play[pos]]
                return [card_not_in_hand(number, t, j, shown, who, held, leader)]
            if led < 0:
                led = card
                best = card
            else:
                must = hand & follow[led]
                if must and not must & bit:
                    who = players[in_play[p]]
                    why = f"{who} {renege_reason(hand, card, led, trump)}"
                    return [renege(number, t, who, name(card, trump), why, _RENEGE_ADVICE)]
                if beaters[best] & bit:
                    best = card
                    best_pos = p
            hands[p] = hand ^ bit
        winner = in_play[best_pos]
        counts[winner] += 1
        winners.append(winner)
        pos = best_pos
    return PlayResult(counts, winners)
