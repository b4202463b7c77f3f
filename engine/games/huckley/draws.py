"""Reading the announcements and the draw of a Huckley Buck or Hucklebuck round.

**Extension** fields of `play` (docs/game-record.md), written by an online round and
optional in any record: ``play.announcements``, who said in or out, in the order they
spoke; ``play.draws``, what each player in play discarded and drew, in the order of the
draw. They are checked against ``out``, ``upcard`` and ``play.hands`` once the tricks
themselves are sound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Problem, problem, show
from engine.cards import CARD_NAMES, parse_card
from engine.games._common.play import ordinal
from engine.games.huckley.fields import max_drops
from engine.games.huckley.play import CARD_HINT, HAND_SIZE

CALLS = ("in", "out")


def check_calls_and_draws(
    *,
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    out: set[int],
    upcard: int,
    upcard_to_anyone: bool,
    raw: Mapping[str, Any],
    errors: list[Problem],
) -> None:
    """Check ``play.announcements`` and ``play.draws`` when given (the rest of `play` is
    sound: `raw["hands"]` names the players in play, 5 good cards each)."""
    if raw.get("announcements") is not None:
        _check_calls(number, players, seat, dealer, out, raw["announcements"], errors)
    if raw.get("draws") is not None:
        hands = {seat[name]: {parse_card(c) for c in cards} for name, cards in raw["hands"].items()}
        _check_draws(
            number, players, seat, dealer, hands, upcard, upcard_to_anyone, raw["draws"], errors
        )


def _mismatch(number: int, code: str, message: str, field: str, player: str | None) -> Problem:
    return problem(number, code, message, field, player)


def _check_calls(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    out: set[int],
    raw: Any,
    errors: list[Problem],
) -> None:
    field = "play"
    n = len(players)
    shape = (
        'play.announcements must be a list of {"player": name, "call": "in" or "out"}, '
        "in the order the players spoke"
    )
    if type(raw) is not list or len(raw) > n:
        errors.append(problem(number, "bad_field", shape + ".", field))
        return
    said_out: set[int] = set()
    for k, entry in enumerate(raw):
        name = entry.get("player") if type(entry) is dict else None
        call = entry.get("call") if type(entry) is dict else None
        s = seat.get(name) if type(name) is str else None
        if s is None or call not in CALLS:
            errors.append(problem(number, "bad_field", f"{shape}, not {show(entry)}.", field))
            return
        expected = (dealer + 1 + k) % n
        if s != expected:
            errors.append(
                _mismatch(
                    number,
                    "announcement_mismatch",
                    f"The players announce in turn from the dealer's left, so the "
                    f"{ordinal(k + 1)} to speak is {players[expected]}, not {name}.",
                    field,
                    name,
                )
            )
            return
        if call == "out":
            said_out.add(s)
    for s in sorted(said_out ^ out):
        name = players[s]
        if s in out:
            said = "announced in" if s in {seat[e["player"]] for e in raw} else "never announced"
            message = f"{name} is on the out list but {said}."
        else:
            message = f"{name} announced out but is not on the out list."
        errors.append(_mismatch(number, "announcement_mismatch", message, field, name))
    if raw and len(raw) < n and len(out) < max_drops(n):
        last = players[seat[raw[-1]["player"]]]
        errors.append(
            _mismatch(
                number,
                "announcement_mismatch",
                f"The announcements stop after {last}, yet fewer than {max_drops(n)} dropped; "
                "everyone announces until the drop limit is reached or the dealer has spoken.",
                field,
                None,
            )
        )


def _check_draws(
    number: int,
    players: Sequence[str],
    seat: Mapping[str, int],
    dealer: int,
    hands: Mapping[int, set[int | None]],
    upcard: int,
    upcard_to_anyone: bool,
    raw: Any,
    errors: list[Problem],
) -> None:
    field = "play"
    n = len(players)
    order = [(dealer + k) % n for k in range(1, n + 1) if (dealer + k) % n in hands]
    shape = (
        "play.draws must list every player in play in the order of the draw, each as "
        '{"player": name, "discard": [cards], "drew": [cards]}'
    )
    if type(raw) is not list or len(raw) != len(order):
        errors.append(problem(number, "bad_field", shape + ".", field))
        return
    seen: set[int] = set()
    first_drawn: list[int] | None = None
    for k, entry in enumerate(raw):
        ok = type(entry) is dict and all(type(entry.get(k)) is list for k in ("discard", "drew"))
        name = entry.get("player") if ok else None
        if not ok or type(name) is not str or name not in seat:
            errors.append(problem(number, "bad_field", f"{shape}, not {show(entry)}.", field))
            return
        s = seat[name]
        if s != order[k]:
            errors.append(
                _mismatch(
                    number,
                    "draw_mismatch",
                    f"The players in play draw in turn from the dealer's left, so the "
                    f"{ordinal(k + 1)} to draw is {players[order[k]]}, not {name}.",
                    field,
                    name,
                )
            )
            return
        lists: list[list[int]] = []
        for key in ("discard", "drew"):
            cards: list[int] = []
            for text in entry[key]:
                c = parse_card(text)
                if c is None:
                    errors.append(
                        problem(
                            number,
                            "bad_card",
                            f"{show(text)} in {name}'s draw is not a card; {CARD_HINT}.",
                            field,
                            name,
                        )
                    )
                    return
                cards.append(c)
            lists.append(cards)
        discard, drew = lists
        problems = _draw_problems(name, discard, drew, hands[s], seen, upcard)
        if problems:
            for message in problems:
                errors.append(_mismatch(number, "draw_mismatch", message, field, name))
            return
        seen.update(discard, drew)
        if first_drawn is None and drew:
            first_drawn = drew
    if upcard_to_anyone and first_drawn is not None and upcard not in first_drawn:
        errors.append(
            _mismatch(
                number,
                "draw_mismatch",
                f"The upcard ({CARD_NAMES[upcard]}) lies face up on top of the pack, so the "
                "first player to exchange cards draws it.",
                field,
                None,
            )
        )


def _draw_problems(
    name: str,
    discard: list[int],
    drew: list[int],
    hand: set[int | None],
    seen: set[int],
    upcard: int,
) -> list[str]:
    """What is wrong with one player's draw, in plain words (empty when nothing)."""
    problems: list[str] = []
    if len(discard) != len(drew) or len(discard) > HAND_SIZE:
        problems.append(
            f"{name} discarded {len(discard)} and drew {len(drew)}; a player draws as many "
            f"as discarded, at most {HAND_SIZE}."
        )
    both = discard + drew
    if len(set(both)) != len(both) or seen & set(both):
        problems.append(f"A card of {name}'s draw is discarded or drawn twice in this round.")
    for c in drew:
        if c not in hand:
            problems.append(f"{name} drew {CARD_NAMES[c]}, which is not in {name}'s hand in play.")
    for c in discard:
        if c in hand or c == upcard:
            problems.append(
                f"{name} discarded {CARD_NAMES[c]}, which "
                + ("is the upcard." if c == upcard else f"is still in {name}'s hand in play.")
            )
    return problems
