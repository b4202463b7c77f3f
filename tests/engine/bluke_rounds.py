"""The Bluke rounds of the refusal tests (test_bluke_refusals.py,
test_bluke_refusals_rounds.py, test_plain_words.py): three players bidding one trick
each, all thirteen tricks to Ann, and a schedule short enough to end a game in four
rounds."""

from __future__ import annotations

from typing import Any

BIDS = {"Ann": 1, "Bob": 1, "Cy": 1}
ALL_TO_ANN = {"Ann": 13}
SMALL = {"max_cards": 2}  # three players: bluke deals 2, 1, 2


def rnd(**fields: Any) -> dict[str, Any]:
    return {"bids": BIDS, "tricks": ALL_TO_ANN, **fields}
