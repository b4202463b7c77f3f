"""The tournament format: table sizes, the split, ranking, movement, seat draws, rebalancing.

This is the pure half of the tournament app, in the way Tabbycat's draw generator is: it
imports no Django and does no I/O. A service loads the session's rows, calls these functions
on plain values (player keys are ids in practice, but any hashable, orderable key works) and
writes what they return. Everything here follows docs/format.md: the rule numbers in the
docstrings refer to its list "The format, rule by rule", and the rest of that page gives
the decisions taken where the rules are silent.

Every random choice comes from `make_rng(seed, *labels)`, so a director can replay how any
placement came about from the session's seed. Where a result depends on the order of its
input (a set of players, a group of tied players), the input is sorted first, so a replay
does not depend on the order a query happened to return rows in.

One module per rule, in the order of a session; each imports only the ones above it:

| module | rule | what |
|---|---|---|
| `rules` | 1, 7, 8 | `FormatRules` of every rules id (from the engine), `FormatError` |
| `seeds` | | `make_rng`, the seeded stream of every draw |
| `sizes` | 1, 8 | `table_sizes`, `sit_out_count`, `choose_sit_outs` |
| `rebalancing` | 7 | `rebalance`, `rebalance_plan`: after arrivals and withdrawals |
| `robots` | 1, 5, 8 | `robots_needed`, `robot_split`, `robot_fill`: robots that fill seats |
| `splits` | 1, 2, 6 | `split`, `seeded_split`: the first sitting's tables |
| `ranking` | 4 | `order_table`, `order_by_totals`: a table's order, and why |
| `moves` | 5, 6 | `movement`, `seat_tables`: who goes where after a sitting |
| `prizes` | | `prize_pool`, `payouts`: entry fees and prizes (docs/tournament.md) |
| `apart` | | `keep_apart`: the club's keep-apart wishes honoured after the split |
| `numbers` | | `table_numbers`: the physical table of each rank, for players who do not move |

Callers use the names below, `from tournaments import format as fmt; fmt.split(...)`, never
a module of the package: which module holds a rule is this package's business.
"""

from __future__ import annotations

from tournaments.format.apart import Apart, NotKeptApart, canonical_pairs, keep_apart
from tournaments.format.moves import Move, movement, seat_tables
from tournaments.format.numbers import Numbering, table_numbers
from tournaments.format.prizes import (
    CENT,
    WHOLE,
    Payouts,
    Prize,
    PrizeError,
    check_extras,
    check_places,
    format_money,
    parse_amount,
    parse_percent,
    parse_places,
    parse_prize,
    payouts,
    prize_pool,
)
from tournaments.format.ranking import (
    CRITERIA,
    Placing,
    SittingResult,
    order_by_totals,
    order_table,
    ordinal,
)
from tournaments.format.rebalancing import Rebalance, RebalancePlan, rebalance, rebalance_plan
from tournaments.format.robots import (
    RobotSeating,
    RobotSplit,
    robot_fill,
    robot_places,
    robot_split,
    robots_needed,
)
from tournaments.format.rules import (
    FORMATS,
    FormatError,
    FormatRules,
    K,
    PlayerKey,
    TableSizes,
    format_for,
)
from tournaments.format.seeds import make_rng
from tournaments.format.sizes import choose_sit_outs, sit_out_count, table_sizes
from tournaments.format.splits import seeded_split, split

__all__ = [
    "CENT",
    "CRITERIA",
    "FORMATS",
    "WHOLE",
    "Apart",
    "FormatError",
    "FormatRules",
    "K",
    "Move",
    "NotKeptApart",
    "Numbering",
    "Payouts",
    "Placing",
    "PlayerKey",
    "Prize",
    "PrizeError",
    "Rebalance",
    "RebalancePlan",
    "RobotSeating",
    "RobotSplit",
    "SittingResult",
    "TableSizes",
    "canonical_pairs",
    "check_extras",
    "check_places",
    "choose_sit_outs",
    "format_for",
    "format_money",
    "keep_apart",
    "make_rng",
    "movement",
    "order_by_totals",
    "order_table",
    "ordinal",
    "parse_amount",
    "parse_percent",
    "parse_places",
    "parse_prize",
    "payouts",
    "prize_pool",
    "rebalance",
    "rebalance_plan",
    "robot_fill",
    "robot_places",
    "robot_split",
    "robots_needed",
    "seat_tables",
    "seeded_split",
    "sit_out_count",
    "split",
    "table_numbers",
    "table_sizes",
]
