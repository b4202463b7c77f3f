"""`python -m engine`: check a game record, or simulate one.

The only part of the engine that reads files or writes to the terminal. Exit status:
0 valid, 1 invalid (the output JSON is still printed), 2 unreadable input or bad usage
with one line on standard error saying why.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from engine.base import EngineUsageError
from engine.record import check, simulate
from engine.registry import RULES

# Enough names for the largest table of any rule set (Bluke: 15).
DEFAULT_NAMES = (
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal",
    "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oda",
)  # fmt: skip


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints the usage and then the message; the contract is one line.
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Huckley's rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check_cmd = sub.add_parser("check", help="check and score a game record (JSON)")
    check_cmd.add_argument("file", help="the game record, or - for standard input")
    sim = sub.add_parser("simulate", help="print a simulated game record")
    sim.add_argument("--rules", required=True, choices=sorted(RULES))
    sim.add_argument(
        "--players",
        required=True,
        help="how many players (named Ann, Bob, Cy, ...; the rules set the range) or their "
        "names, comma-separated",
    )
    sim.add_argument("--seed", required=True, type=int)
    sim.add_argument("--strategy", default="random", choices=("random", "greedy"))
    sim.add_argument("--first-dealer", default=None)
    sim.add_argument(
        "--target", type=int, default=None, help="points that win the game (games to a target)"
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule-set option, e.g. rounds=7 or sweep_wins=false (repeatable)",
    )
    sim.add_argument("--card-play", action="store_true", help="include the cards dealt and played")
    return parser


def _players(text: str) -> list[str]:
    if text.isdigit():
        count = int(text)
        if not 1 <= count <= len(DEFAULT_NAMES):
            raise _UsageError(f"--players {count}: give 1 to {len(DEFAULT_NAMES)}, or names")
        return list(DEFAULT_NAMES[:count])
    return [name.strip() for name in text.split(",")]


def _options(items: Sequence[str]) -> dict[str, object]:
    """NAME=VALUE pairs; values read as JSON where they can be (7, true), else as text."""
    options: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise _UsageError(f"--option {item!r}: write NAME=VALUE")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def _read(path: str) -> object:
    where = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _UsageError(f"{where} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _UsageError(f"{where} is not JSON: {exc}") from None
    except RecursionError:
        raise _UsageError(f"{where} is nested too deeply to read") from None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command == "check":
            record = _read(args.file)
            output = check(record)  # type: ignore[arg-type]  # check accepts anything
            print(json.dumps(output, indent=2, ensure_ascii=False))
            return 0 if output["valid"] else 1
        options = _options(args.option)
        if args.target is not None:
            if "target" not in RULES[args.rules].options:
                raise _UsageError(f"--target: {args.rules} is not played to a target")
            options["target"] = args.target
        try:
            record = simulate(
                args.rules,
                _players(args.players),
                seed=args.seed,
                first_dealer=args.first_dealer,
                options=options,
                strategy=args.strategy,
                card_play=args.card_play,
            )
        except EngineUsageError as exc:
            raise _UsageError(str(exc)) from None
        print(json.dumps(record, indent=2, ensure_ascii=False))
        return 0
    except _UsageError as exc:
        print(f"engine: {exc}", file=sys.stderr)
        return 2
