"""Reading the round fields the trick games read alike, and the problems they report.

Every game passes the deal to the left, so the dealer of each round is known; names a
player in fields that map players to numbers (`tricks`, `bids`, `points`) or list them
(`out`, `trick_winners`); and may compare what a scorer entered with what the cards
played give. The readers here check the shape of such a field and that the names are
players at the table, and return seats; what the values may be beyond that (who may drop,
how far a bid may go) is the game's rule and stays in the game.

`check_round` runs on every round of every record checked, so the cheap test for a
problem stays in the game and only the wording of the problem is called from here
(`wrong_dealer`, `not_a_round`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.base import Problem, field_words, literal, names, plural, problem, show
from engine.games._common.play import PlayResult

#: What a field a round does not use may hold and still count as left out.
EMPTY: Final[tuple[Any, ...]] = (None, [], {})


def not_a_round(number: int, fields: str, rnd: Any) -> list[Problem]:
    """The refusal of a round that is not an object; `fields` names the game's fields."""
    return [
        problem(
            number,
            "bad_round",
            f"Round {number} must be a set of fields ({fields}), not {show(rnd)}.",
        )
    ]


def wrong_dealer(number: int, players: Sequence[str], dealer: int, given: Any) -> Problem:
    """A round that names `given` as its dealer, where the rotation says `dealer`: the
    first dealer deals round 1 and the deal passes left after every round."""
    dealer_name = players[dealer]
    if number == 1:
        why = f"{dealer_name} is the first dealer"
    else:
        why = f"{players[dealer - 1]} dealt round {number - 1} and the deal passes left"
    return problem(
        number,
        "wrong_dealer",
        f"Round {number} is dealt by {dealer_name}, not {show(given)}: {why}.",
        "dealer",
    )


def unknown_player(
    number: int, field: str, name: Any, players: Sequence[str], hint: str = ""
) -> Problem:
    """`field` names someone not at the table; `hint` may say what belongs there."""
    return problem(
        number,
        "unknown_player",
        f"{show(name)} is not at this table ({names(list(players))}); check "
        f"{field_words(field)}{hint}.",
        field,
    )


def values_text(players: Sequence[str], values: Sequence[int], seats: Sequence[int]) -> str:
    """Some players' values for a message: ``"Ann 2, Bob 3"`` (``"none"`` for no seat)."""
    return ", ".join(f"{players[s]} {values[s]}" for s in seats) or "none"


@dataclass(frozen=True, slots=True)
class NumberMap:
    """A round field that maps players to whole numbers, and how its problems say so."""

    name: str  # the field: "tricks"
    each: str  # what the map gives each player: "tricks taken"
    value: str  # what one value is: "tricks" (as in "Ann's tricks must be ...")
    example: str  # a map as the input writes it: '{"Ann": 2, "Bob": 3}'
    #: The largest value, when known before the other fields are read; None leaves the
    #: range to the game.
    top: int | None = None
    #: The range as one chained comparison reads it: with no top, any whole number.
    bounds: tuple[float, float] = field(init=False)

    def __post_init__(self) -> None:
        bounds = (-math.inf, math.inf) if self.top is None else (0, self.top)
        object.__setattr__(self, "bounds", bounds)


#: `tricks` in the games of five tricks.
FIVE_TRICKS: Final = NumberMap("tricks", "tricks taken", "tricks", '{"Ann": 2, "Bob": 3}', 5)


def read_player_numbers(
    number: int,
    spec: NumberMap,
    raw: Any,
    players: Sequence[str],
    seat: Mapping[str, int],
    errors: list[Problem],
) -> list[int] | None:
    """A map of players to whole numbers (`tricks`, `bids`, `points`), by seat.

    A player the map leaves out reads as 0; whether that is allowed is the game's rule.
    None when the field is not given (`raw` None), and, with the problems in `errors`,
    when `raw` is not a map, names someone not at the table, or holds a value that is not
    a whole number (from 0 to `spec.top`, when there is one).
    """
    if raw is None:
        return None
    if type(raw) is not dict:
        errors.append(
            problem(
                number,
                "bad_field",
                f"{field_words(spec.name).capitalize()} must map each player to the "
                f"{spec.each}, like {spec.example}.",
                spec.name,
            )
        )
        return None
    low, high = spec.bounds
    values = [0] * len(players)
    ok = True
    for name, v in raw.items():
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(unknown_player(number, spec.name, name, players))
            ok = False
        elif type(v) is not int or not low <= v <= high:
            limit = "" if spec.top is None else f" from 0 to {spec.top}"
            errors.append(
                problem(
                    number,
                    "bad_field",
                    f"{name}'s {spec.value} must be a whole number{limit}, not {literal(v)}.",
                    spec.name,
                    name,
                )
            )
            ok = False
        else:
            values[s] = v
    return values if ok else None


def read_out(
    number: int, raw: Any, players: Sequence[str], seat: Mapping[str, int], errors: list[Problem]
) -> list[int]:
    """The seats of the players who dropped (`out`, given), in seat order; a name not at
    the table or listed twice is reported and left out."""
    if type(raw) is not list:
        errors.append(
            problem(number, "bad_field", "Who dropped must be a list of players' names.", "out")
        )
        return []
    out: list[int] = []
    for name in raw:
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(unknown_player(number, "out", name, players))
        elif s in out:
            errors.append(
                problem(number, "bad_field", f"{name} is listed twice as dropped.", "out", name)
            )
        else:
            out.append(s)
    out.sort()
    return out


def read_trick_winners(
    number: int,
    tricks: int,
    raw: Any,
    players: Sequence[str],
    seat: Mapping[str, int],
    errors: list[Problem],
) -> list[int] | None:
    """`trick_winners`, the seat that won each of the `tricks` tricks in order; None when
    it is not given, or with the problems in `errors` when it is wrong."""
    if raw is None:
        return None
    if type(raw) is not list:
        errors.append(
            problem(
                number,
                "bad_field",
                "The trick order must list who won each trick, in order.",
                "trick_winners",
            )
        )
        return None
    winners = []
    ok = True
    for name in raw:
        s = seat.get(name) if type(name) is str else None
        if s is None:
            errors.append(unknown_player(number, "trick_winners", name, players))
            ok = False
        else:
            winners.append(s)
    if len(raw) != tricks:
        errors.append(
            problem(
                number,
                "trick_winners_count",
                f"The trick order lists {plural(len(raw), 'trick')}; name the winner of each "
                f"of the {tricks} tricks, in order.",
                "trick_winners",
            )
        )
        ok = False
    return winners if ok else None


def counts_from_winners(
    number: int,
    players: Sequence[str],
    winners: list[int],
    counts: list[int] | None,
    errors: list[Problem],
    *,
    compare: bool,
) -> list[int]:
    """The tricks per seat: `counts` (from `tricks`) when entered, else what `winners`
    gives. With both entered they must agree; `compare` is off when `winners` has a
    problem of its own already reported, which a mismatch would only repeat."""
    from_winners = [0] * len(players)
    for s in winners:
        from_winners[s] += 1
    if counts is None:
        return from_winners
    if compare and from_winners != counts:
        differ = [s for s in range(len(players)) if from_winners[s] != counts[s]]
        errors.append(
            problem(
                number,
                "trick_winners_mismatch",
                f"The trick order gives {values_text(players, from_winners, differ)} but "
                f"the tricks entered give {values_text(players, counts, differ)}; make the "
                "two agree.",
                "trick_winners",
            )
        )
    return counts


def compare_with_play(
    number: int,
    players: Sequence[str],
    played: PlayResult,
    counts: list[int] | None,
    winners: list[int] | None,
    errors: list[Problem],
) -> None:
    """Entered `tricks` (`counts`) and `trick_winners` (`winners`), where given, must be
    what the cards played give."""
    if counts is not None and counts != played.counts:
        differ = [s for s in range(len(players)) if counts[s] != played.counts[s]]
        errors.append(
            problem(
                number,
                "play_mismatch",
                f"The tricks entered give {values_text(players, counts, differ)} but the "
                f"cards played give {values_text(players, played.counts, differ)}; correct "
                "the tricks or the cards.",
                "tricks",
            )
        )
    if winners is not None and winners != played.winners:
        t = next(i for i, (a, b) in enumerate(zip(winners, played.winners, strict=True)) if a != b)
        errors.append(
            problem(
                number,
                "play_mismatch",
                f"The trick order says {players[winners[t]]} won trick {t + 1}, but by the "
                f"cards played {players[played.winners[t]]} won it; correct the trick order "
                "or the cards.",
                "trick_winners",
            )
        )


def has_tricks(count: int) -> str:
    """A player's tricks as a message says them: ``"has 2 tricks"``, or ``"wins a
    trick"`` for one named in `trick_winners` (`count` 0)."""
    return f"has {plural(count, 'trick')}" if count else "wins a trick"


def tricks_for_dropped(number: int, name: str, field: str, count: int = 0) -> Problem:
    """`field` gives tricks to `name`, who dropped; `count` as for `has_tricks`."""
    return problem(
        number,
        "tricks_for_dropped_player",
        f"{name} dropped but {has_tricks(count)}; a player who drops takes no tricks.",
        field,
        name,
    )


def tricks_not_five(
    number: int,
    players: Sequence[str],
    counts: Sequence[int],
    in_play: Sequence[int],
    *,
    tricks: int,
    unit: str,
) -> Problem:
    """The tricks of a five-card deal do not add up; `unit` is what the game calls a deal
    (``"round"``, ``"hand"``)."""
    return problem(
        number,
        "tricks_not_five",
        f"The tricks add up to {sum(counts)} ({values_text(players, counts, in_play)}); "
        f"a {unit} has exactly {tricks} tricks, shared among the players who stayed in.",
        "tricks",
    )


def misdeal_with_tricks(number: int, rnd: Mapping[str, Any], unit: str) -> list[Problem]:
    """A round marked as a misdeal was thrown in before any trick, so it has no tricks,
    trick winners or cards played; `unit` is what the game calls a deal."""
    return [
        problem(
            number,
            "misdeal_with_tricks",
            f"The round is marked as a misdeal, so no tricks were played; clear "
            f"{field_words(field)}, or untick misdeal if the {unit} was played.",
            field,
        )
        for field in ("tricks", "trick_winners", "play")
        if rnd.get(field) not in EMPTY
    ]


def game_over(number: int, ended: str, result: str) -> Problem:
    """A round after the end of the game: it ended after round `ended`, with `result`
    (``"Ann won"``)."""
    return problem(
        number,
        "game_over",
        f"The game ended after round {ended} ({result}); round {number} and any after it "
        "belong to a new game.",
    )


def winner_value(players: Sequence[str], seats: Sequence[int]) -> str | list[str]:
    """The output's `winner`: a name, or the list of names sharing the win."""
    return players[seats[0]] if len(seats) == 1 else [players[s] for s in seats]
