"""Huckley Buck (IHBA rules, `huckley-buck`) and Hucklebuck (`hucklebuck`).

Both games score alike: a point a trick, a hook of -3 (never below zero) for staying in
and taking no trick or for a penalty, first to 11. They differ in the play rules (the
IHBA text makes a player trump and kill; Hucklebuck only asks to follow suit), in where
the upcard may go, and in how two players reaching 11 in one round are told apart.
The rulings are in docs/rules.md.
"""

from __future__ import annotations

import random
from typing import Any

from engine.base import GameResult, OptionInfo, RuleSet, RulesInfo, Table
from engine.games.huckley.rounds import Variant, score_game
from engine.games.huckley.simulate import simulate_game

ROUND_FIELDS = (
    "dealer",
    "out",
    "tricks",
    "trick_winners",
    "penalties",
    "misdeal",
    "upcard",
    "play",
)


def _options(tie_break: str) -> dict[str, OptionInfo]:
    return {
        "target": OptionInfo(
            "target", 11, "Points that win the game (the rules say 11).", minimum=1
        ),
        "dealer_may_drop": OptionInfo(
            "dealer_may_drop",
            True,
            "Whether the dealer may drop like anyone else (ruling 1 says yes).",
        ),
        "tie_break": OptionInfo(
            "tie_break",
            tie_break,
            "When two or more reach the target in one round: the first to reach it in "
            "trick order wins (trick_order), or the highest score wins and an exact tie "
            "plays on (highest_score).",
            choices=("trick_order", "highest_score"),
        ),
    }


class BuckRules(RuleSet):
    """A game of the Huckley Buck family."""

    def __init__(self, info: RulesInfo, variant: Variant) -> None:
        self.info = info
        self.variant = variant

    def score(self, table: Table, rounds: list[Any]) -> GameResult:
        return score_game(table, self.variant, rounds)

    def simulate(
        self, table: Table, *, rng: random.Random, strategy: str, card_play: bool
    ) -> list[dict[str, Any]]:
        return simulate_game(table, self.variant, rng, strategy, card_play)


HUCKLEY_BUCK = BuckRules(
    RulesInfo(
        id="huckley-buck",
        name="Huckley Buck (IHBA)",
        min_players=3,
        max_players=7,
        lower_is_better=False,
        options=_options("trick_order"),
        round_fields=ROUND_FIELDS,
    ),
    Variant(kill=True, upcard_to_anyone=False),
)

HUCKLEBUCK = BuckRules(
    RulesInfo(
        id="hucklebuck",
        name="Hucklebuck",
        min_players=3,
        max_players=7,
        lower_is_better=False,
        options=_options("highest_score"),
        round_fields=ROUND_FIELDS,
    ),
    Variant(kill=False, upcard_to_anyone=True),
)

RULE_SETS = (HUCKLEY_BUCK, HUCKLEBUCK)
