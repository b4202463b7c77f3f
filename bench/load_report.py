"""The crowd bench's figures (bench/load.py): each page's runs summed up against the bare
view's, and the table it prints."""

from __future__ import annotations

import statistics
from typing import Any


def summarise(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per page and client count: median requests/s, ratio to the bare view of the same
    run (median over runs), worst p95 and p99, the p95 over the bare view's of the same run
    (median over runs), total errors."""
    floor = {(r["run"], r["clients"]): r["rps"] for r in runs if r["page"] == "bare view"}
    floor_p95 = {(r["run"], r["clients"]): r["p95_ms"] for r in runs if r["page"] == "bare view"}
    rows = []
    for page in dict.fromkeys(r["page"] for r in runs):
        for clients in sorted({r["clients"] for r in runs}):
            mine = [r for r in runs if r["page"] == page and r["clients"] == clients]
            ratios = [r["rps"] / floor[(r["run"], clients)] for r in mine]
            p95_ratios = [r["p95_ms"] / floor_p95[(r["run"], clients)] for r in mine]
            rows.append(
                {
                    "page": page,
                    "clients": clients,
                    "rps": round(statistics.median(r["rps"] for r in mine), 1),
                    "ratio": round(statistics.median(ratios), 3),
                    "p50_ms": round(max(r["p50_ms"] for r in mine), 1),
                    "p95_ms": round(max(r["p95_ms"] for r in mine), 1),
                    # The page's p95 over the bare view's, same run (median over runs).
                    "p95_ratio": round(statistics.median(p95_ratios), 2),
                    "p99_ms": round(max(r["p99_ms"] for r in mine), 1),
                    "errors": sum(r["errors"] for r in mine),
                }
            )
    return rows


def print_table(report: dict[str, Any]) -> None:
    print(
        f"\n{report['command']}\n{report['machine']}, load average "
        f"{report['load_average_at_start']} at the start, {report['load_average']} at the end"
    )
    print(f"{report['players']} players, {report['duration_s']} s per run\n")
    print(
        "| page | clients | req/s | vs bare view | p50 ms | p95 ms | p95 vs bare view "
        "| p99 ms | errors |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in report["summary"]:
        print(
            f"| {r['page']} | {r['clients']} | {r['rps']:,.0f} | {r['ratio']:.2f} | "
            f"{r['p50_ms']} | {r['p95_ms']} | {r['p95_ratio']:.2f} | {r['p99_ms']} | "
            f"{r['errors']} |"
        )
    s = report["screens"]
    print(
        f"\n{s['connections']} open screens on the projector poll: {s['rps']:,.0f} req/s, "
        f"p95 {s['p95_ms']} ms, {s['errors']} errors (a screen polls every 1.5 s)"
    )
    print("\nDirector's pages, one client, sequential requests:\n")
    print("| page | p50 ms | p95 ms | p99 ms | size KiB | gzipped KiB | status |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for d in report["director_sequential"]:
        print(
            f"| {d['page']} | {d['p50_ms']} | {d['p95_ms']} | {d['p99_ms']} | "
            f"{d['kib']} | {d['sent_kib']} | {d['status']} |"
        )
