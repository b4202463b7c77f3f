"""Ten-Point Buck (`ten-point-buck`): a 56-card trick game scored by bids on card points.

Source: the Ten-Point Buck rules text and the ruling in docs/rules-ten-point-buck.md.
Players bid the card points they will take in ten tricks, and score Hunting Points by how close they
come; the white cards are trump, and the Doe takes the Buck for a 2-point bonus. The
most Hunting Points after five rounds win, a tie at the top playing on. The rules as
implemented, with every decision, are in docs/rules-ten-point-buck.md.
"""

from __future__ import annotations

from engine.base import OptionInfo, RulesInfo, TableSizes
from engine.games._common.rules import GameRules
from engine.games.ten_point_buck.online import TenPointBuckRound
from engine.games.ten_point_buck.rounds import score_game
from engine.games.ten_point_buck.simulate import simulate_game

ROUND_FIELDS = ("dealer", "bids", "points", "doe_bonus", "play")

OPTIONS = {
    "rounds": OptionInfo(
        "rounds",
        5,
        "Rounds in a game before the most Hunting Points win (the rules say 5).",
        minimum=1,
    ),
    "tie_break": OptionInfo(
        "tie_break",
        "play_on",
        "When two or more share the most Hunting Points at the end: play more rounds until "
        "one is alone at the top, as the rules say (play_on), or share the win (shared).",
        choices=("play_on", "shared"),
    ),
}


TEN_POINT_BUCK = GameRules(
    RulesInfo(
        id="ten-point-buck",
        name="Ten-Point Buck",
        min_players=3,
        max_players=5,
        # Object: "Score more Hunting Points than anyone else".
        lower_is_better=False,
        options=OPTIONS,
        round_fields=ROUND_FIELDS,
        # "A Trick-Taking Game for Three to Five Players": tables of four with the rest
        # spread, one more table where that would seat six (docs/format.md).
        tables=TableSizes(split_min=3, split_max=5, play_min=3, play_max=5, ideal=4),
    ),
    score_game,
    simulate_game,
    online=TenPointBuckRound,
)

RULE_SETS = (TEN_POINT_BUCK,)
