"""Reading what kind of Buck Euchre hand a round is: the upcard, trump, the declarer, and
who dropped.

The rest of a round (a misdeal, the tricks, the cards, the points) is read in
`engine.games.buck_euchre.rounds`, which calls these in the order its problems are
reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.base import Problem, literal, names, problem
from engine.cards import CARD_NAMES, SUIT_OF, parse_card
from engine.games._common.play import not_an_upcard
from engine.games._common.rounds import read_out, unknown_player
from engine.games.buck_euchre.cards import CLUBS, NO_TRUMP, PACK, suit_word

SUIT_LETTERS: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "s": 0, "h": 1, "d": 2, "c": 3}
LETTERS: Final = "SHDC"


def _suits(trump: int) -> str:
    return suit_word(trump, True).capitalize()


def read_upcard(number: int, raw_up: Any, errors: list[Problem]) -> int:
    """The upcard: optional in a summary round, a card of the 24-card pack when given;
    -1 when not given or not readable (reported)."""
    if raw_up is None:
        return -1
    c = parse_card(raw_up)
    if c is None:
        errors.append(not_an_upcard(number, raw_up, "write rank then suit, like 9H or JC"))
        return -1
    if not PACK & (1 << c):
        errors.append(
            problem(
                number,
                "not_in_pack",
                f"The upcard {CARD_NAMES[c]} is not in the Buck Euchre pack, which has the "
                "9, 10, J, Q, K and A of each suit.",
                "upcard",
            )
        )
        return -1
    return c


def read_trump(
    number: int, rnd: dict[str, Any], club_upcard: bool, errors: list[Problem]
) -> tuple[int, bool]:
    """(trump, readable): a suit letter, or null when every player passed both bidding
    rounds; a club upcard may leave it out."""
    if "trump" in rnd:
        raw_trump = rnd["trump"]
        if raw_trump is None:
            return NO_TRUMP, True
        if type(raw_trump) is str and raw_trump in SUIT_LETTERS:
            return SUIT_LETTERS[raw_trump], True
        errors.append(
            problem(
                number,
                "bad_field",
                "trump must be the letter of the trump suit (S, H, D or C), or null "
                f"for a hand played without trump, not {literal(raw_trump)}.",
                "trump",
            )
        )
        return NO_TRUMP, False
    if club_upcard:
        return CLUBS, True  # a club upcard says it all (Game play: "clubs automatically")
    errors.append(
        problem(
            number,
            "trump_missing",
            "Enter trump: the suit that was ordered up or named (S, H, D or C), or null "
            "if every player passed both bidding rounds.",
            "trump",
        )
    )
    return NO_TRUMP, False


def read_declarer(
    number: int, players: Sequence[str], seat: Mapping[str, int], raw: Any, errors: list[Problem]
) -> tuple[int, bool]:
    """(declarer seat or -1, readable)."""
    if raw is None:
        return -1, True
    s = seat.get(raw) if type(raw) is str else None
    if s is None:
        errors.append(unknown_player(number, "declarer", raw, players))
        return -1, False
    return s, True


def hand_kind(
    number: int,
    players: Sequence[str],
    upcard: int,
    trump: int,
    declarer: int,
    errors: list[Problem],
) -> tuple[bool, bool]:
    """(dirty clubs, no trump): which kind of hand, with the problems of a declarer or a
    trump that does not fit it."""
    if upcard >= 0 and SUIT_OF[upcard] == CLUBS:
        _check_dirty_clubs(number, players, upcard, trump, declarer, errors)
        return True, False
    if trump == NO_TRUMP:
        if declarer >= 0:
            errors.append(
                problem(
                    number,
                    "declarer_without_trump",
                    f"The hand is entered as no trump (everyone passed both rounds), so nobody "
                    f"is declarer; remove {players[declarer]} as declarer, or enter the suit "
                    f"{players[declarer]} named.",
                    "declarer",
                    players[declarer],
                )
            )
        return False, True
    if declarer >= 0:
        return False, False
    if trump == CLUBS and upcard < 0:
        return True, False  # clubs with nobody declaring: the upcard was a club
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
    return False, False


def _check_dirty_clubs(
    number: int,
    players: Sequence[str],
    upcard: int,
    trump: int,
    declarer: int,
    errors: list[Problem],
) -> None:
    """A club upcard makes clubs trump with no bidding: no other trump, no declarer."""
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


def read_drops(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw: Any,
    declarer: int,
    dirty: bool,
    no_trump: bool,
    errors: list[Problem],
) -> list[int]:
    """`out`: only from a declarer's hand, and never the declarer."""
    if raw is None:
        return []
    out = read_out(number, raw, players, seat, errors)
    if not out:
        return out
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
    return out


def _call_words(players: Sequence[str], calls: Sequence[tuple[int, int]]) -> str:
    """Calls as a sentence: ``"Bob pass, Cy pass, Dee hearts"``."""
    return ", ".join(
        f"{players[s]} {'pass' if suit < 0 else suit_word(suit, True)}" for s, suit in calls
    )


def check_calls(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    raw: Any,
    *,
    dealer: int,
    upcard: int,
    trump: int,
    declarer: int,
    dirty: bool,
    errors: list[Problem],
) -> None:
    """Extension `calls` (written by online rounds): the bidding as it went, which must
    fit the hand. Each call is ``{"player", "action": "pass"}`` or ``{"player", "action":
    "trump", "suit"}``; they run clockwise from the dealer's left, all passes but a last
    suit (the declarer's, in the first round the upcard's suit, in the second another),
    eight passes for a hand without trump, and none in dirty clubs."""
    read: list[tuple[int, int]] = []
    shape = (
        'calls must be a list of {"player": name, "action": "pass"} or {"player": name, '
        '"action": "trump", "suit": "H"}, the bidding in order'
    )
    if type(raw) is not list:
        errors.append(problem(number, "bad_field", f"{shape}; not {literal(raw)}.", "calls"))
        return
    for call in raw:
        name = call.get("player") if type(call) is dict else None
        who = seat.get(name) if type(name) is str else None
        action = call.get("action") if type(call) is dict else None
        suit = call.get("suit") if type(call) is dict else None
        if who is None or action not in ("pass", "trump"):
            errors.append(problem(number, "bad_field", f"{shape}; not {literal(call)}.", "calls"))
            return
        if action == "trump":
            if type(suit) is not str or suit not in SUIT_LETTERS:
                errors.append(
                    problem(number, "bad_field", f"{shape}; not {literal(call)}.", "calls")
                )
                return
            read.append((who, SUIT_LETTERS[suit]))
        else:
            read.append((who, -1))
    n = len(players)
    order = [(dealer + k) % n for k in range(1, n + 1)] * 2
    if dirty:
        expected: list[list[tuple[int, int]]] = [[]]
        why = "clubs were trump from the upcard (dirty clubs), so nobody bid"
    elif trump == NO_TRUMP:
        expected = [[(s, -1) for s in order]]
        why = "every player passed both bidding rounds"
    elif declarer < 0:
        return  # reported elsewhere (declarer_missing)
    else:
        rounds = (0, 1) if upcard < 0 else ((0,) if SUIT_OF[upcard] == trump else (1,))
        expected = []
        for r in rounds:
            k = order.index(declarer, r * n)
            expected.append([(s, -1) for s in order[:k]] + [(declarer, trump)])
        which = "ordered up or accepted" if rounds == (0,) else "named"
        if len(rounds) == 2:
            which = "ordered up or named"
        why = f"{players[declarer]} {which} {suit_word(trump, True)}"
    if read in expected:
        return
    errors.append(
        problem(
            number,
            "calls_mismatch",
            f"The bidding entered ({_call_words(players, read) or 'no calls'}) does not fit "
            f"the hand: {why}, and the calls run clockwise from the dealer's left "
            f"({_call_words(players, expected[-1]) or 'no calls'}). Correct the bidding, or "
            "trump and declarer.",
            "calls",
        )
    )


def check_discard(
    number: int,
    players: Sequence[str],
    raw: Any,
    *,
    dealer: int,
    upcard: int,
    took: bool,
    raw_play: Any,
    errors: list[Problem],
) -> None:
    """Extension `discard` (written by online rounds): the card the dealer discarded on
    taking the upcard (`took`). A card of the pack, not the upcard, and in no hand in
    play."""
    c = parse_card(raw) if type(raw) is str else None
    if c is None or not PACK & (1 << c):
        errors.append(
            problem(
                number,
                "bad_field",
                "discard must be the card the dealer discarded on taking the upcard, a card "
                f"of the Buck Euchre pack like 9D, not {literal(raw)}.",
                "discard",
            )
        )
        return
    if not took:
        errors.append(
            problem(
                number,
                "discard_not_allowed",
                f"{players[dealer]}, the dealer, did not take the upcard in this hand, so "
                "discarded nothing; remove the discard, or correct trump and declarer.",
                "discard",
                players[dealer],
            )
        )
        return
    if c == upcard:
        errors.append(
            problem(
                number,
                "discard_upcard",
                f"The discard {CARD_NAMES[c]} is the upcard, which the dealer takes into the "
                "hand; the dealer discards another card.",
                "discard",
                players[dealer],
            )
        )
        return
    hands = raw_play.get("hands") if type(raw_play) is dict else None
    if type(hands) is not dict:
        return
    for name, cards in hands.items():
        if type(cards) is list and any(type(t) is str and parse_card(t) == c for t in cards):
            errors.append(
                problem(
                    number,
                    "discard_in_hand",
                    f"The discard {CARD_NAMES[c]} is in {name}'s hand; a discarded card is "
                    "out of play. Correct the discard or the hand.",
                    "discard",
                    name if name in players else None,
                )
            )
            return
