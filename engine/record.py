"""The game record (`buck-game/1`): checking a whole document, and simulating one.

This is the engine's core. It checks what every game shares (format, rules id, players,
first dealer, options, the list of rounds), then lets the rule set score the rounds,
and assembles the output document of the spec. `check` never raises on a bad record:
every problem becomes an entry of `errors`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import (
    FORMAT,
    EngineUsageError,
    GameRecord,
    GameSetup,
    Problem,
    RuleSet,
    Verdict,
    literal,
    names,
    problem,
    show,
)
from engine.dealing import draw_first_dealer
from engine.registry import RULES, rule_set


def _output(rules: Any) -> Verdict:
    return {
        "valid": False,
        "rules": rules if isinstance(rules, str) else None,
        "rounds": [],
        "scores": {},
        "finished": False,
        "winner": None,
        "next_dealer": None,
        "errors": [],
    }


def _players(raw: Any, rs: RuleSet | None, errors: list[Problem]) -> tuple[str, ...] | None:
    if not isinstance(raw, list) or not raw:
        errors.append(
            problem(
                None,
                "bad_players",
                "players must list the players' names in seat order (clockwise).",
            )
        )
        return None
    bad = [p for p in raw if not isinstance(p, str) or not p.strip()]
    if bad:
        errors.append(
            problem(
                None,
                "bad_players",
                f"Every player needs a name; {show(bad[0])} is not one.",
            )
        )
        return None
    seen: set[str] = set()
    for name in raw:
        if name in seen:
            errors.append(
                problem(
                    None,
                    "duplicate_player",
                    f"{name} is listed twice in players; give each player a different name "
                    "(add an initial, say).",
                    None,
                    name,
                )
            )
        seen.add(name)
    if rs is not None:
        info = rs.info
        if not info.min_players <= len(raw) <= info.max_players:
            wanted = (
                f"exactly {info.min_players}"
                if info.min_players == info.max_players
                else f"{info.min_players} to {info.max_players}"
            )
            errors.append(
                problem(
                    None,
                    "player_count",
                    f"{info.name} is played by {wanted} players, not {len(raw)} ({names(raw)}).",
                )
            )
    return tuple(raw)


def _options(raw: Any, rs: RuleSet, errors: list[Problem]) -> dict[str, Any]:
    options = rs.info.defaults
    if raw is None:
        return options
    if not isinstance(raw, Mapping):
        errors.append(
            problem(
                None, "bad_option", 'options must be a set of named options, like {"target": 11}.'
            )
        )
        return options
    for key, value in raw.items():
        info = rs.info.options.get(key) if isinstance(key, str) else None
        if info is None:
            known = ", ".join(rs.info.options) or "none"
            errors.append(
                problem(
                    None,
                    "unknown_option",
                    f"{show(key)} is not an option of {rs.info.name}; its options are {known}.",
                )
            )
            continue
        why = info.refuse(value)
        if why is not None:
            errors.append(problem(None, "bad_option", f"Option {key} {why}, not {literal(value)}."))
        else:
            options[key] = value
    return options


def _robot_marks(rounds: Sequence[Any], seat: Mapping[str, int]) -> list[Problem]:
    """Check the mark of a round played online in which a robot played for someone:
    ``play.robots``, a list of ``{"player": name, "moves": n}`` (docs/game-record.md). It
    changes no score; a mark that is not of this shape, or names someone not at the table,
    is refused."""
    errors: list[Problem] = []
    for number, rnd in enumerate(rounds, start=1):
        play = rnd.get("play") if isinstance(rnd, Mapping) else None
        if not isinstance(play, Mapping) or "robots" not in play:
            continue
        marks = play["robots"]
        shape = (
            'play.robots must be a list of {"player": name, "moves": n}, one for each '
            "player a robot played for"
        )
        if not isinstance(marks, list):
            errors.append(problem(number, "bad_field", shape + ".", "play"))
            continue
        named: set[str] = set()
        for mark in marks:
            who = mark.get("player") if isinstance(mark, Mapping) else None
            moves = mark.get("moves") if isinstance(mark, Mapping) else None
            if not isinstance(who, str) or not isinstance(moves, int) or isinstance(moves, bool):
                errors.append(problem(number, "bad_field", shape + f", not {show(mark)}.", "play"))
            elif who not in seat:
                errors.append(
                    problem(
                        number,
                        "unknown_player",
                        f"play.robots names {show(who)}, who is not at this table.",
                        "play",
                    )
                )
            elif moves < 1 or who in named:
                errors.append(
                    problem(
                        number,
                        "bad_field",
                        f"play.robots names {who} "
                        + ("twice." if who in named else "with no move: leave them out."),
                        "play",
                        who,
                    )
                )
            named.add(who if isinstance(who, str) else "")
    return errors


def check(record: Mapping[str, Any]) -> Verdict:
    """Check and score a `buck-game/1` game record; see docs/engine.md.

    Never raises on bad input: the output's `valid` is false and `errors` says why.
    """
    if not isinstance(record, Mapping):
        output = _output(None)
        output["errors"].append(
            problem(
                None,
                "not_an_object",
                f"A game record is a JSON object with rules, players and rounds, "
                f"not {show(record)}.",
            )
        )
        return output
    rules = record.get("rules")
    output = _output(rules)
    errors: list[Problem] = output["errors"]
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        errors.append(
            problem(
                None,
                "unsupported_format",
                f"This engine reads format {FORMAT}, not {show(fmt)}.",
            )
        )
    rs = rule_set(rules)
    if rs is None:
        known = ", ".join(sorted(RULES))
        what = "No rules id is given" if rules is None else f"{show(rules)} is not a rules id"
        errors.append(problem(None, "unknown_rules", f"{what}; the engine knows {known}."))
    players = _players(record.get("players"), rs, errors)
    seat = {name: s for s, name in enumerate(players or ())}
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        errors.append(problem(None, "bad_rounds", "rounds must be a list of rounds, oldest first."))
        rounds = []

    first: int | None = None
    raw_first = record.get("first_dealer")
    if raw_first is None and rounds and isinstance(rounds[0], Mapping):
        # Round 1's own dealer field says who dealt first just as well.
        raw_first = rounds[0].get("dealer")
    if raw_first is not None:
        first = seat.get(raw_first) if isinstance(raw_first, str) else None
        if first is None and players is not None:
            errors.append(
                problem(
                    None,
                    "unknown_player",
                    f"The first dealer, {show(raw_first)}, is not one of the players "
                    f"({names(list(players))}).",
                )
            )
    elif rounds and players is not None:
        errors.append(
            problem(
                None,
                "missing_first_dealer",
                "Say who dealt first: the winner of the high-card draw, or of the last game "
                "at this table.",
            )
        )
    options = _options(record.get("options"), rs, errors) if rs is not None else {}
    if errors or rs is None or players is None:
        if players is not None and len(set(players)) == len(players):
            output["scores"] = dict.fromkeys(players, 0)
        return output

    robots = _robot_marks(rounds, seat)
    if robots:
        output["errors"] = robots
        return output
    setup = GameSetup(players=players, seat=seat, first_dealer=first, options=options)
    result = rs.score(setup, rounds)
    output["valid"] = not result.errors
    output["rounds"] = result.rounds
    output["scores"] = result.scores
    output["finished"] = result.finished
    output["winner"] = result.winner
    output["next_dealer"] = result.next_dealer
    output["errors"] = result.errors
    return output


def simulate(
    rules: str,
    players: Sequence[str],
    *,
    seed: int,
    first_dealer: str | None = None,
    options: Mapping[str, Any] | None = None,
    strategy: str = "random",
    card_play: bool = False,
) -> GameRecord:
    """A whole game played with legal decisions, as a game record `check` accepts.

    The same arguments give the same game. Raises `EngineUsageError` for arguments no
    game could have (unknown rules id or strategy, a wrong player list, bad options).
    """
    rs = rule_set(rules)
    if rs is None:
        raise EngineUsageError(f"unknown rules id {rules!r}; known: {', '.join(sorted(RULES))}")
    if strategy not in rs.info.strategies:
        raise EngineUsageError(
            f"unknown strategy {strategy!r}; use one of {', '.join(rs.info.strategies)}"
        )
    errors: list[Problem] = []
    names_ = _players(list(players), rs, errors)
    options_ = _options(dict(options or {}), rs, errors)
    if names_ is not None and first_dealer is None:
        first_dealer = draw_first_dealer(names_, seed=seed)[0]
    if names_ is not None and first_dealer not in names_:
        errors.append(problem(None, "unknown_player", f"{first_dealer!r} is not a player."))
    if errors or names_ is None or first_dealer is None:
        raise EngineUsageError("; ".join(e["message"] for e in errors))
    seat = {name: s for s, name in enumerate(names_)}
    setup = GameSetup(players=names_, seat=seat, first_dealer=seat[first_dealer], options=options_)
    rounds = rs.simulate(setup, rng=random.Random(seed), strategy=strategy, card_play=card_play)
    return {
        "format": FORMAT,
        "rules": rules,
        "players": list(names_),
        "first_dealer": first_dealer,
        "options": dict(options or {}),
        "rounds": rounds,
    }
