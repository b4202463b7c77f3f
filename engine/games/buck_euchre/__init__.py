"""Buck Euchre, also called Dirty Clubs (`buck-euchre`).

Four players, each for themselves, with a 24-card pack and Euchre's bowers. Trump comes
from the upcard (a club upcard makes clubs trump with no bidding: dirty clubs) or from
two bidding rounds; the player who fixes trump (the declarer) must take three tricks,
anyone else in the hand one, or be set 5 points. Scores start at 25 and count down: a
trick is a point off, and the first at zero or below wins, or whoever takes all five
tricks in a hand. The rules as implemented are in docs/rules-buck-euchre.md.
"""

from __future__ import annotations

from engine.base import OptionInfo, RulesInfo, TableSizes
from engine.games._common.rules import GameRules
from engine.games.buck_euchre.online import BuckEuchreRound
from engine.games.buck_euchre.rounds import score_game
from engine.games.buck_euchre.simulate import simulate_game

ROUND_FIELDS = (
    "dealer",
    "upcard",
    "trump",
    "declarer",
    "out",
    "tricks",
    "trick_winners",
    "misdeal",
    "play",
    # Extensions written by online rounds (docs/rules-buck-euchre.md, "Round fields").
    "calls",
    "discard",
)

OPTIONS = {
    "start": OptionInfo(
        "start",
        25,
        "The score every player starts from; the game ends at zero or below (the rules say 25).",
        minimum=1,
    ),
    "sweep_wins": OptionInfo(
        "sweep_wins",
        True,
        "Whether taking all five tricks wins the game at once (the rules say yes); when "
        "off, five tricks are simply 5 points off.",
    ),
    "club_upcard_to_dealer": OptionInfo(
        "club_upcard_to_dealer",
        False,
        "Whether the dealer takes a club upcard into the hand (discarding another card) "
        "in dirty clubs; the rules only have the dealer take it when it is ordered up.",
    ),
    "misdeal_set": OptionInfo(
        "misdeal_set",
        False,
        "Whether a misdeal sets the dealer (+5); the rules have no misdeal penalty.",
    ),
}


BUCK_EUCHRE = GameRules(
    RulesInfo(
        id="buck-euchre",
        name="Buck Euchre",
        min_players=4,
        max_players=4,
        lower_is_better=True,
        options=OPTIONS,
        round_fields=ROUND_FIELDS,
        # "a trick-taking game for four players": every table has exactly four, and the
        # players over a multiple of four sit out in turn (docs/format.md rule 8).
        tables=TableSizes(split_min=4, split_max=4, play_min=4, play_max=4, ideal=4),
    ),
    score_game,
    simulate_game,
    online=BuckEuchreRound,
)

RULE_SETS = (BUCK_EUCHRE,)
