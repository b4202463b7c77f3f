"""Why a player moves in a rebalancing, worded for a page (`format_words.rebalance_reason`),
reads in English exactly as the pure rebalancing's own (`Rebalance.reason`)."""

from __future__ import annotations

import random

from django.utils import translation

from tournaments.format import FormatError, format_for
from tournaments.format.apart import keep_apart
from tournaments.format.rebalancing import Rebalance, rebalance
from workflow.session import format_words


def test_in_english_each_move_reads_as_the_rebalancing_words_it() -> None:
    rng = random.Random(5)
    codes: set[str] = set()
    with translation.override("en"):
        for rules_id in ("huckley-buck", "bluke"):
            rules = format_for(rules_id)
            for _ in range(400):
                sizes = [rng.randint(0, 9) for _ in range(rng.randint(1, 5))]
                tables = [[f"{t}-{i}" for i in range(n)] for t, n in enumerate(sizes)]
                try:
                    moves = rebalance(tables, rules)
                except FormatError:
                    continue
                for move in moves:
                    codes.add(move.code)
                    assert format_words.rebalance_reason(move) == move.reason
    assert codes == {"closes", "too_many", "too_many_opens", "opens", "too_few"}


def test_a_move_with_no_code_keeps_its_own_words() -> None:
    move = Rebalance(player="a", from_rank=1, to_rank=2, reason="as the engine said")
    assert format_words.rebalance_reason(move) == "as the engine said"


def test_in_english_each_pair_not_kept_apart_reads_as_the_seating_words_it() -> None:
    rng = random.Random(11)
    codes: set[str] = set()
    with translation.override("en"):
        for _ in range(600):
            sizes = [rng.randint(2, 5) for _ in range(rng.randint(1, 3))]
            players = list(range(sum(sizes)))
            tables, start = [], 0
            for n in sizes:
                tables.append(players[start : start + n])
                start += n
            pairs = [tuple(rng.sample(players, 2)) for _ in range(rng.randint(1, 8))]
            pinned = rng.sample(players, rng.randint(0, min(3, len(players))))
            names = {p: f"P{p}" for p in players}
            found = keep_apart(tables, pairs, rng=random.Random(1), pinned=pinned, names=names)
            for pair in found.not_kept:
                codes.add(pair.code)
                worded = format_words.apart_reason(pair.code, pair.values, "")
                assert worded == pair.reason
    assert codes == {"one_table", "pinned_together", "too_many_apart", "partners", "no_seating"}


def test_a_pair_kept_before_the_codes_keeps_its_own_words() -> None:
    assert format_words.apart_reason("", {}, "as it was written") == "as it was written"
