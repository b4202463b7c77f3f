"""Engine throughput on one core: rounds checked, card-level rounds replayed, games simulated.

Run: .venv/bin/python bench/engine.py  (--quick for a short run, --rules ID for one game)

Records are made by the engine's own simulator first (not timed), then timed through
`engine.check`. The process is single-threaded (pinned to one core where the OS allows);
each figure is the best of several repeats, in CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
TARGETS = {"summary": 50_000, "card": 20_000, "simulate": 2_000}


def best_of(repeats: int, work: Callable[[], int]) -> tuple[float, int]:
    """(seconds, units) of the fastest of `repeats` runs of `work`, which returns units.

    Seconds are CPU seconds of this process (`time.process_time`), so that other work on
    a shared machine does not count against the engine; the best run keeps out the rest
    of the noise (cache and frequency effects of that other work).
    """
    best = float("inf")
    units = 0
    for _ in range(repeats):
        start = time.process_time()
        units = work()
        best = min(best, time.process_time() - start)
    return best, units


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--rules", action="append", help="Only this rules id (repeatable); default: all."
    )
    args = parser.parse_args()
    games = 60 if args.quick else 200
    repeats = 3 if args.quick else 9
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"python {platform.python_version()}, nproc {os.cpu_count()}, cpu {cpu_model()}, "
        f"{pinned}, load average {load}"
    )
    results: list[tuple[str, str, float]] = []

    # 1. Summary rounds checked: long records (target 300, so one game runs hundreds of
    # rounds), and many ordinary games to 11.
    long_records = [
        engine.simulate("huckley-buck", NAMES, seed=s, options={"target": 300})
        for s in range(max(2, games // 60))
    ]
    short_records = [engine.simulate("huckley-buck", NAMES, seed=s) for s in range(games)]
    long_rounds = sum(len(r["rounds"]) for r in long_records) // len(long_records)
    short_rounds = sum(len(r["rounds"]) for r in short_records) / len(short_records)
    print(
        f"records: {len(long_records)} long ones of {long_rounds} rounds on average; "
        f"{len(short_records)} games to 11 of {short_rounds:.1f} rounds on average"
    )
    for label, records in (
        ("summary rounds checked/s, long records (5 players, target 300)", long_records),
        ("summary rounds checked/s, whole games to 11 (5 players)", short_records),
    ):

        def check_all(records: list[dict[str, object]] = records) -> int:
            rounds = 0
            for record in records:
                out = engine.check(record)
                if not (out["valid"] and out["finished"]):
                    raise SystemExit(f"a simulated record did not check: {out['errors']}")
                rounds += len(out["rounds"])
            return rounds

        seconds, rounds = best_of(repeats, check_all)
        results.append(("summary", label, rounds / seconds))

    # 2 and 3, for every rule set the engine knows: card-level rounds replayed (every round
    # carries its hands and tricks), summary rounds checked on whole games, and whole games
    # simulated (cards dealt and played internally).
    parser_rules = args.rules or sorted(engine.RULES)
    for rules in parser_rules:
        info = engine.rules_info(rules)
        count = min(max(5, info.min_players), info.max_players)
        names = (NAMES * 3)[:count] if count <= len(NAMES) else [f"P{i}" for i in range(count)]
        card_records = [engine.simulate(rules, names, seed=s, card_play=True) for s in range(games)]
        summary_records = [engine.simulate(rules, names, seed=s) for s in range(games)]

        def replay_all(records: list[dict[str, object]] = card_records) -> int:
            rounds = 0
            for record in records:
                out = engine.check(record)
                if not (out["valid"] and out["finished"]):
                    raise SystemExit(f"a simulated record did not check: {out['errors']}")
                rounds += sum(1 for r in record["rounds"] if "play" in r)  # type: ignore[attr-defined]
            return rounds

        def check_all(records: list[dict[str, object]] = summary_records) -> int:
            rounds = 0
            for record in records:
                out = engine.check(record)
                if not (out["valid"] and out["finished"]):
                    raise SystemExit(f"a simulated record did not check: {out['errors']}")
                rounds += len(out["rounds"])
            return rounds

        if rules != "huckley-buck":  # huckley-buck's summary figures are measured above
            seconds, rounds = best_of(repeats, check_all)
            results.append(
                (
                    "summary",
                    f"summary rounds checked/s ({rules}, {count} players)",
                    rounds / seconds,
                )
            )
        seconds, rounds = best_of(repeats, replay_all)
        results.append(
            ("card", f"card-level rounds replayed/s ({rules}, {count} players)", rounds / seconds)
        )
        for strategy in info.strategies:

            def simulate_all(
                strategy: str = strategy, rules: str = rules, names: list[str] = names
            ) -> int:
                for s in range(games):
                    engine.simulate(rules, names, seed=s, strategy=strategy)
                return games

            seconds, done = best_of(repeats, simulate_all)
            results.append(
                (
                    "simulate",
                    f"whole games simulated/s ({rules}, {strategy}, {count} players)",
                    done / seconds,
                )
            )

    for kind, label, rate in results:
        target = TARGETS[kind]
        verdict = "meets" if rate >= target else "MISSES"
        print(f"{label:72} {rate:>9,.0f}   target {target:,} ({verdict})")


if __name__ == "__main__":
    main()
