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

Why one module of about 600 lines: it is one thing, the format's rules as pure functions
over plain data, read top to bottom in the order of a session (sizes, split, ranking,
movement, seats, sit-outs, rebalancing); each rule is a function a reader can hold.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Generic, Protocol, TypeVar

import engine


class PlayerKey(Hashable, Protocol):
    """What a player key must support: hashing, and an order (to make replays canonical)."""

    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=PlayerKey)


class FormatError(Exception):
    """A problem the director can fix; `code` is stable, the message says what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FormatRules:
    """Table sizes and the sense of a better score, for one rules id (docs/format.md rules 1, 8).

    The split makes tables of `split_min`..`split_max`; after withdrawals and late arrivals
    a table can still play with `play_min`..`play_max` players (rule 7).
    """

    rules_id: str
    split_min: int
    split_max: int
    play_min: int
    play_max: int
    lower_is_better: bool
    # The split aims at tables of this size ("groups of four"), within split_min..split_max.
    ideal: int = 4

    def __post_init__(self) -> None:
        # A misconfigured format is a programming error, not something a director can fix.
        if not 1 <= self.play_min <= self.split_min <= self.split_max <= self.play_max:
            raise ValueError(
                f"{self.rules_id}: need 1 <= play_min <= split_min <= split_max <= play_max"
            )
        if not self.split_min <= self.ideal <= self.split_max:
            raise ValueError(f"{self.rules_id}: need split_min <= ideal <= split_max")


@dataclass(frozen=True)
class TableSizes:
    """The tournament's table sizes for a rules id, where they are narrower than what the
    engine accepts (see `FormatRules` for the meaning of each)."""

    split_min: int
    split_max: int
    play_min: int
    play_max: int
    ideal: int = 4


#: The tournament's decisions on table sizes where they are narrower than the engine's
#: (docs/format.md, rules 1 and 7): Huckley Buck and Hucklebuck split into
#: tables of four to seven though a table of three can play on; Bluke, which the engine
#: checks for two to fifteen players, plays at three to seven. A rules id missing here
#: (Buck Euchre: exactly four, docs/format.md rule 8; Ten-Point Buck: three to five) plays at
#: every size the engine accepts, the split aiming at four. The sense of a better score
#: is never here: it is the engine's (`engine.RulesInfo.lower_is_better`).
TABLE_SIZES: Mapping[str, TableSizes] = {
    "huckley-buck": TableSizes(4, 7, 3, 7),
    "hucklebuck": TableSizes(4, 7, 3, 7),
    "bluke": TableSizes(4, 7, 3, 7),
    "bluke-nj": TableSizes(4, 7, 3, 7),
}


def _format_of(info: engine.RulesInfo) -> FormatRules:
    sizes = TABLE_SIZES.get(info.id)
    if sizes is None:
        low, high = info.min_players, info.max_players
        sizes = TableSizes(low, high, low, high, ideal=min(max(4, low), high))
    return FormatRules(
        info.id,
        sizes.split_min,
        sizes.split_max,
        sizes.play_min,
        sizes.play_max,
        lower_is_better=info.lower_is_better,
        ideal=sizes.ideal,
    )


class _Formats(Mapping[str, FormatRules]):
    """The format of every rules id the engine knows, read from `engine.RULES` at each
    use, so a game added to the engine has a format without an entry here."""

    def __getitem__(self, rules_id: str) -> FormatRules:
        return _format_of(engine.RULES[rules_id])

    def __iter__(self) -> Iterator[str]:
        return iter(engine.RULES)

    def __len__(self) -> int:
        return len(engine.RULES)


FORMATS: Mapping[str, FormatRules] = _Formats()


def format_for(rules_id: str) -> FormatRules:
    """The format of a rules id, or FormatError(code="unknown_rules")."""
    try:
        return FORMATS[rules_id]
    except KeyError:
        known = ", ".join(sorted(FORMATS))
        raise FormatError(
            "unknown_rules",
            f"The rules {rules_id!r} have no tournament format yet; choose one of: {known}.",
        ) from None


def make_rng(seed: int, *labels: str | int) -> random.Random:
    """A random stream for one purpose, derived from the session seed and the labels.

    The labels are hashed with SHA-256 (not `hash()`, which is salted per process), so the
    same seed and labels give the same stream in every run; different labels give
    independent streams, so redrawing the seats of one sitting never changes a coin flip.
    """
    for label in (seed, *labels):
        if not isinstance(label, str | int):
            # repr() of other objects may hold a memory address, which would break replays.
            raise TypeError(f"rng labels must be str or int, not {type(label).__name__}")
    material = json.dumps([seed, *labels], separators=(",", ":"))
    digest = hashlib.sha256(material.encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _too_few(n: int, fmt: FormatRules) -> FormatError:
    info = engine.RULES.get(fmt.rules_id)
    game = info.name if info is not None else fmt.rules_id
    return FormatError(
        "too_few_players",
        f"{n} player{'s' if n != 1 else ''} cannot make a table: {game} needs at least "
        f"{fmt.play_min}. Add players to the roster.",
    )


def _table_count(n: int, fmt: FormatRules) -> int | None:
    """How many tables the split makes of `n` players, or None if no count fits.

    Tables of `ideal` (four) with the rest spread over them; when that makes a table too
    big, one more table at a time, as long as the tables stay big enough.
    """
    if fmt.play_min <= n <= fmt.split_max:
        return 1
    tables = max(1, n // fmt.ideal)
    while -(-n // tables) > fmt.split_max:
        tables += 1
    return tables if n // tables >= fmt.split_min else None


def _can_split(n: int, fmt: FormatRules) -> bool:
    return _table_count(n, fmt) is not None


def sit_out_count(n: int, fmt: FormatRules) -> int:
    """How many of `n` players must sit out a sitting because no split seats them all.

    Always 0 for Huckley Buck and Hucklebuck (4-7 fits every head count from 3 up). It is
    the hook for formats such as Buck Euchre (exactly 4 a table), where the players over a
    multiple of 4 sit out in turn; choosing who sits out is the caller's job.
    """
    if n < fmt.play_min:
        raise _too_few(n, fmt)
    out = 0
    while not _can_split(n - out, fmt):
        out += 1
        if n - out < fmt.play_min:
            raise _too_few(n, fmt)
    return out


def choose_sit_outs(
    players: Sequence[K], count: int, *, sat_out: Mapping[K, int], rng: random.Random
) -> list[K]:
    """Who sits out this sitting (docs/format.md rule 8): those who have sat out least so far,
    ties drawn at random. Sorted before the draw, so only who plays and the seed count."""
    _check_unique(players, "the roster")
    if count <= 0:
        return []
    ordered = sorted(players)
    rng.shuffle(ordered)
    ordered.sort(key=lambda p: sat_out.get(p, 0))
    return ordered[:count]


def table_sizes(n: int, fmt: FormatRules) -> list[int]:
    """The table sizes of the initial split, top table first (docs/format.md rule 1).

    Up to `split_max` players make one table. More are split into as many tables of
    `split_min` as fit, with the players left over spread one per table from the top:
    11 -> [6, 5], 13 -> [5, 4, 4], 15 -> [5, 5, 5].
    """
    if n < fmt.play_min:
        raise _too_few(n, fmt)
    if n <= fmt.split_max:
        return [n]
    tables = _table_count(n, fmt)
    if tables is None:
        out = sit_out_count(n, fmt)
        raise FormatError(
            "cannot_split",
            f"{n} players cannot be split into tables of {fmt.split_min}-{fmt.split_max}; "
            f"{out} must sit out this sitting.",
        )
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _check_unique(players: Iterable[Hashable], where: str) -> None:
    seen: set[Hashable] = set()
    for player in players:
        if player in seen:
            raise FormatError(
                "duplicate_player",
                f"Player {player} appears twice in {where}; remove the extra entry.",
            )
        seen.add(player)


def split(
    players: Sequence[K], *, fmt: FormatRules, seed: int, big_loser: K | None = None
) -> list[list[K]]:
    """Split the roster into ranked tables for the first sitting (docs/format.md rules 1, 2, 6).

    Returns the tables in rank order (index 0 is table 1, the top table), each in seat
    order. Membership and seats both come from `make_rng(seed, "split")`; the players are
    sorted first, so the result depends only on who plays and the seed. Last season's Big
    Loser, if among the players, sits at the bottom table in a seat drawn like the others.
    """
    _check_unique(players, "the roster")
    sizes = table_sizes(len(players), fmt)
    rng = make_rng(seed, "split")
    others = sorted(p for p in players if p != big_loser)
    has_big_loser = len(others) < len(players)
    rng.shuffle(others)
    tables: list[list[K]] = []
    start = 0
    for rank, size in enumerate(sizes, start=1):
        # The Big Loser takes a place at the bottom table, so it draws one fewer player.
        take = size - 1 if rank == len(sizes) and has_big_loser else size
        tables.append(others[start : start + take])
        start += take
    if big_loser is not None and has_big_loser:
        tables[-1].append(big_loser)
    for table in tables:
        rng.shuffle(table)
    return tables


def seeded_split(
    players: Sequence[K],
    *,
    fmt: FormatRules,
    seed: int,
    strength: Mapping[K, float],
    balanced: bool = False,
    big_loser: K | None = None,
) -> list[list[K]]:
    """Split the roster into ranked tables for the first sitting by strength (a rating:
    higher is stronger; a player missing from `strength` counts as 0.0), instead of at
    random. The table sizes are those of `split`.

    - Strongest at the top table (`balanced=False`): table 1 takes the strongest players,
      table 2 the next, and so on down.
    - Balanced (`balanced=True`): the players are dealt out in order of strength, one to
      each table and back again (1, 2, ..., n, n, ..., 1), so every table gets a similar mix.

    Equal strengths are ordered by a draw from `make_rng(seed, "seeded-split")` and the
    seats at each table are drawn from it too, so the result depends only on who plays,
    their strengths and the seed. Last season's Big Loser still sits at the bottom table.
    """
    _check_unique(players, "the roster")
    sizes = table_sizes(len(players), fmt)
    rng = make_rng(seed, "seeded-split")
    others = sorted(p for p in players if p != big_loser)
    has_big_loser = len(others) < len(players)
    rng.shuffle(others)
    others.sort(key=lambda p: -strength.get(p, 0.0))  # stable: the draw breaks ties
    room = list(sizes)
    if has_big_loser:
        room[-1] -= 1  # the Big Loser's place at the bottom table
    tables: list[list[K]] = [[] for _ in sizes]
    if balanced:
        order = list(range(len(sizes)))
        turn = 0
        for player in others:
            # Snake through the tables, skipping the ones already full.
            while True:
                lap, step = divmod(turn, len(order))
                rank = order[step] if lap % 2 == 0 else order[-1 - step]
                turn += 1
                if len(tables[rank]) < room[rank]:
                    tables[rank].append(player)
                    break
    else:
        start = 0
        for rank, take in enumerate(room):
            tables[rank] = others[start : start + take]
            start += take
    if big_loser is not None and has_big_loser:
        tables[-1].append(big_loser)
    for table in tables:
        rng.shuffle(table)
    return tables


@dataclass(frozen=True)
class SittingResult(Generic[K]):
    """One player's record over one sitting at one table."""

    player: K
    score: int
    games_won: int
    hooks: int
    last_game_score: int


@dataclass(frozen=True)
class Placing(Generic[K]):
    """A player's place at their table after a sitting, and why (docs/format.md rule 4).

    `decided_by` names the criterion that separated this player from the one placed just
    above ("score", "games_won", "hooks", "last_game_score" or "coin_flip"); None for 1st.
    """

    player: K
    place: int
    result: SittingResult[K]
    decided_by: str | None
    reason: str


CRITERIA = ("score", "games_won", "hooks", "last_game_score")

# For the reason text: what a level criterion is called, and how the better and the worse
# side of a difference read ("ahead on fewer hooks (1 vs 2)", "behind on more hooks (2 vs 1)").
_LEVEL_WORDS = {
    "score": "points",
    "games_won": "games won",
    "hooks": "hooks",
    "last_game_score": "last game",
}
_AHEAD_WORDS = {
    "games_won": "more games won",
    "hooks": "fewer hooks",
    "last_game_score": "a better last game",
}
_BEHIND_WORDS = {
    "games_won": "fewer games won",
    "hooks": "more hooks",
    "last_game_score": "a worse last game",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _compare(
    this: SittingResult[K], other: SittingResult[K], decided_by: str, other_name: str, ahead: bool
) -> str:
    """How `this` compares with the neighbour `other`, separated by `decided_by`."""
    if decided_by == "score":
        side = "ahead of" if ahead else "behind"
        return f"{side} {other_name} on points ({this.score} vs {other.score})"
    level = CRITERIA if decided_by == "coin_flip" else CRITERIA[: CRITERIA.index(decided_by)]
    text = f"level with {other_name} on {_join([_LEVEL_WORDS[c] for c in level])}"
    if decided_by == "coin_flip":
        return f"{text}, {'won' if ahead else 'lost'} the coin flip"
    mine, theirs = getattr(this, decided_by), getattr(other, decided_by)
    words = _AHEAD_WORDS if ahead else _BEHIND_WORDS
    return f"{text}, {'ahead' if ahead else 'behind'} on {words[decided_by]} ({mine} vs {theirs})"


def order_by_totals(
    totals: Sequence[SittingResult[K]],
    *,
    lower_is_better: bool,
    name: Callable[[K], str] = str,
) -> list[Placing[K]]:
    """Place the players of a table that has no result yet in the current sitting (no
    finished game there), by what each has so far in the session (docs/format.md rule 4,
    "Before a table's first result"): total points (higher first, or lower when
    `lower_is_better`), then more games won, then fewer hooks; players level on all three
    are listed by name. No coin is flipped: nothing has been decided at the table yet, and
    the sitting's own order (`order_table`) takes over at its first finished game. Each
    `SittingResult` holds the player's session totals (`last_game_score` is not read).
    `decided_by` is "session_totals" for every player."""
    _check_unique((r.player for r in totals), "the table's totals")
    sign = 1 if lower_is_better else -1
    ordered = sorted(
        totals, key=lambda r: (sign * r.score, -r.games_won, r.hooks, name(r.player), r.player)
    )
    return [
        Placing(
            player=r.player,
            place=i + 1,
            result=r,
            decided_by="session_totals",
            reason=(
                f"no result at this table yet in this sitting: {_points(r.score)} in the "
                "session so far"
            ),
        )
        for i, r in enumerate(ordered)
    ]


def order_table(
    results: Sequence[SittingResult[K]],
    *,
    lower_is_better: bool,
    rng: random.Random,
    name: Callable[[K], str] = str,
) -> list[Placing[K]]:
    """Place the players of one table after a sitting (docs/format.md rule 4).

    By total score (higher is better, or lower when `lower_is_better`), then more games
    won, fewer hooks, a better score in the last game (higher, or lower when
    `lower_is_better`), then a coin flip drawn from `rng`; the service passes
    `make_rng(seed, "coin", sitting_no, table_rank)`. `rng` is only drawn from when
    players are level on everything, and tied players are sorted before the draw, so the
    outcome does not depend on the order of `results`.
    """
    _check_unique((r.player for r in results), "the table's results")
    sign = 1 if lower_is_better else -1

    def key(r: SittingResult[K]) -> tuple[int, int, int, int]:
        return (sign * r.score, -r.games_won, r.hooks, sign * r.last_game_score)

    ordered: list[SittingResult[K]] = []
    group: list[SittingResult[K]] = []
    for result in sorted(results, key=lambda r: (key(r), r.player)):
        if group and key(group[0]) != key(result):
            ordered.extend(_draw_lots(group, rng))
            group = []
        group.append(result)
    ordered.extend(_draw_lots(group, rng))

    decided: list[str | None] = [None]
    for above, below in pairwise(ordered):
        differs = (c for c, a, b in zip(CRITERIA, key(above), key(below), strict=True) if a != b)
        decided.append(next(differs, "coin_flip"))

    placings: list[Placing[K]] = []
    for i, result in enumerate(ordered):
        parts = [f"{ordinal(i + 1)}: {_points(result.score)}"]
        decided_by = decided[i]
        if decided_by is not None:
            above = ordered[i - 1]
            parts.append(_compare(result, above, decided_by, name(above.player), ahead=False))
        # A tie-break with the player below is shown on this line too, so both sides of
        # every tie-break are visible; a plain difference in points needs no comment.
        if i + 1 < len(ordered) and decided[i + 1] != "score":
            below_by = decided[i + 1]
            assert below_by is not None
            below = ordered[i + 1]
            parts.append(_compare(result, below, below_by, name(below.player), ahead=True))
        placings.append(Placing(result.player, i + 1, result, decided_by, "; ".join(parts)))
    return placings


def _draw_lots(group: list[SittingResult[K]], rng: random.Random) -> list[SittingResult[K]]:
    if len(group) > 1:
        rng.shuffle(group)
    return group


@dataclass(frozen=True)
class Move(Generic[K]):
    """Where one player goes after a sitting (docs/format.md rule 5)."""

    player: K
    from_rank: int
    to_rank: int
    direction: str  # "up" | "down" | "stay"
    place: int
    reason: str


def movement(tables: Sequence[Sequence[Placing[K]]]) -> list[Move[K]]:
    """Move the players after a sitting (docs/format.md rule 5).

    `tables` are in rank order (index 0 is the top table). At a table of n, the better
    half (places 1..n//2) moves up one table and the worse half (the last n//2) down one;
    the middle player of an odd table stays. The better half of the top table and the
    worse half of the bottom table stay, so with one table everybody stays. When every
    table has 4-7 players, every new table does too.
    """
    _check_unique((p.player for table in tables for p in table), "the sitting's placings")
    count = len(tables)
    moves: list[Move[K]] = []
    for rank, table in enumerate(tables, start=1):
        n = len(table)
        if sorted(p.place for p in table) != list(range(1, n + 1)):
            raise ValueError(f"table {rank}: places must run 1..{n} once each")
        half = n // 2
        for placing in sorted(table, key=lambda p: p.place):
            where = f"{ordinal(placing.place)} of {n} at table {rank}"
            if placing.place <= half and rank > 1:
                to, direction, why = rank - 1, "up", f"moves up to table {rank - 1}"
            elif placing.place <= half:
                to, direction, why = rank, "stay", "stays at the top table"
            elif placing.place > n - half and rank < count:
                to, direction, why = rank + 1, "down", f"moves down to table {rank + 1}"
            elif placing.place > n - half:
                to, direction, why = rank, "stay", "stays at the bottom table"
            else:
                to, direction, why = rank, "stay", f"stays at table {rank} (middle place)"
            moves.append(
                Move(placing.player, rank, to, direction, placing.place, f"{where}: {why}")
            )
    return moves


def seat_tables(moves: Sequence[Move[K]], *, table_count: int, rng: random.Random) -> list[list[K]]:
    """The next sitting's tables in rank order, each in seat order (docs/format.md rule 6).

    Seats are drawn from `rng` (the service passes `make_rng(seed, "seats", sitting_no)`
    for the sitting being seated), table 1 first; each table's players are sorted before
    the draw so it depends only on who sits there.
    """
    _check_unique((m.player for m in moves), "the movement")
    tables: list[list[K]] = [[] for _ in range(table_count)]
    for move in moves:
        if not 1 <= move.to_rank <= table_count:
            raise ValueError(f"move to table {move.to_rank}, but there are {table_count} tables")
        tables[move.to_rank - 1].append(move.player)
    for table in tables:
        table.sort()
        rng.shuffle(table)
    return tables


@dataclass(frozen=True)
class Rebalance(Generic[K]):
    """A proposed move for the director to confirm (docs/format.md rule 7)."""

    player: K
    from_rank: int
    to_rank: int
    reason: str


@dataclass(frozen=True)
class RebalancePlan(Generic[K]):
    """The proposal: the moves, and the tables they leave, in rank and seat order.

    `closed` lists the ranks of bottom tables the plan empties and removes; `opened` the
    ranks of new bottom tables it fills. A moved player takes the free seat at the end of
    the seat order of their new table. With nothing to do, `moves` is empty and `tables`
    equals the input.
    """

    moves: list[Rebalance[K]]
    tables: list[list[K]]
    closed: list[int]
    opened: list[int]


def _moves_needed(sizes: list[int], keep: int, lo: int, hi: int) -> int:
    """The fewest players to move so that `keep` tables each hold lo..hi players.

    Tables past `keep` close, so all their players move; tables past len(sizes) open
    empty. Every player over `hi` must leave and every seat under `lo` must be filled; the
    larger of the two is enough because the total fits `keep` tables, so the surplus finds
    room (or the shortfall finds spare players) without moving anyone else.
    """
    surplus = deficit = 0
    for rank in range(max(len(sizes), keep)):
        n = sizes[rank] if rank < len(sizes) else 0
        if rank >= keep:
            surplus += n
        elif n > hi:
            surplus += n - hi
        elif n < lo:
            deficit += lo - n
    return max(surplus, deficit)


def _target_sizes(sizes: list[int], keep: int, lo: int, hi: int, budget: int) -> list[int]:
    """Final table sizes with exactly `budget` moves, chosen in this order of preference:
    fewest tables crossed in all, then the most even tables, then moving players up rather
    than down.

    A dynamic programme over the tables, top first; the state is the net number of players
    carried across the boundary below the current table (positive: carried down). No
    boundary carries more than `budget`, which keeps the states few.
    """
    n = sizes + [0] * (max(len(sizes), keep) - len(sizes))
    # carry -> (moves, tables crossed, sum of squared sizes, players carried down)
    layer: dict[int, tuple[int, int, int, int]] = {0: (0, 0, 0, 0)}
    back: list[dict[int, tuple[int, int]]] = []
    for rank, here in enumerate(n):
        options = range(lo, hi + 1) if rank < keep else range(1)
        nxt: dict[int, tuple[int, int, int, int]] = {}
        came: dict[int, tuple[int, int]] = {}
        for carry, cost in sorted(layer.items()):
            for size in options:
                out = carry + here - size
                moved = cost[0] + max(0, here - size)
                if abs(out) > budget or moved > budget:
                    continue
                new = (moved, cost[1] + abs(out), cost[2] + size * size, cost[3] + max(0, out))
                if out not in nxt or new < nxt[out]:
                    nxt[out], came[out] = new, (carry, size)
        layer = nxt
        back.append(came)
    if 0 not in layer or layer[0][0] != budget:
        raise AssertionError(f"no plan with {budget} moves for {sizes} on {keep} tables")
    result: list[int] = []
    carry = 0
    for came in reversed(back):
        carry, size = came[carry]
        result.append(size)
    return result[::-1]


def rebalance(tables: Sequence[Sequence[K]], fmt: FormatRules) -> list[Rebalance[K]]:
    """The moves of `rebalance_plan`: empty when every table can play.

    A move to rank T+1 (with T tables now) opens that table; a bottom table that all its
    players leave is closed, so the caller deletes it once the moves are made.
    """
    return rebalance_plan(tables, fmt).moves


def rebalance_plan(tables: Sequence[Sequence[K]], fmt: FormatRules) -> RebalancePlan[K]:
    """Propose the fewest moves that bring every table within play_min..play_max (rule 7).

    `tables` are in rank order, each in seat order; a late arrival has joined the bottom
    table at the end of its seat order. The number of tables may change when that needs
    fewer moves, or when the players cannot fit the current number at all: bottom tables
    close (their players move up) or new bottom tables open. Among plans with the fewest
    moves: keep the number of tables if possible, else change it least (closing before
    opening); then cross the fewest tables (moves between adjacent tables first); then make
    the tables most even; then move players up rather than down. From a table that gives
    up players, the last in seat order go, which is the latest arrival if there is one.
    """
    _check_unique((p for table in tables for p in table), "the tables")
    lo, hi = fmt.play_min, fmt.play_max
    sizes = [len(table) for table in tables]
    total = sum(sizes)
    if total < lo:
        raise _too_few(total, fmt)
    fewest, most = -(-total // hi), total // lo
    if fewest > most:
        raise FormatError(
            "cannot_split",
            f"{total} players cannot be seated at tables of {lo}-{hi}; "
            f"{sit_out_count(total, fmt)} must sit out.",
        )
    current = len(tables)
    keep = min(
        range(fewest, most + 1),
        key=lambda k: (_moves_needed(sizes, k, lo, hi), abs(k - current), k),
    )
    budget = _moves_needed(sizes, keep, lo, hi)
    targets = _target_sizes(sizes, keep, lo, hi, budget)

    # Pair the players leaving with the seats to fill, both in rank order: on a line this
    # crosses the fewest tables in all.
    leaving: list[tuple[K, int]] = []
    arriving: list[int] = []
    for rank, target in enumerate(targets, start=1):
        here = list(tables[rank - 1]) if rank <= current else []
        leaving.extend((p, rank) for p in here[target:])
        arriving.extend([rank] * (target - len(here)))
    result = [list(table[:target]) for table, target in zip(tables, targets, strict=False)]
    result.extend([] for _ in range(len(result), keep))
    moves: list[Rebalance[K]] = []
    for (player, source), dest in zip(leaving, arriving, strict=True):
        reason = _rebalance_reason(source, dest, sizes, keep, fmt)
        moves.append(Rebalance(player, source, dest, reason))
        result[dest - 1].append(player)
    return RebalancePlan(
        moves=moves,
        tables=result[:keep],
        closed=list(range(keep + 1, current + 1)),
        opened=list(range(current + 1, keep + 1)),
    )


def _rebalance_reason(source: int, dest: int, sizes: list[int], keep: int, fmt: FormatRules) -> str:
    way = "up" if dest < source else "down"
    had = sizes[source - 1]
    if source > keep:
        return f"table {source} closes: moves up to table {dest}"
    if had > fmt.play_max:
        opens = ", which opens" if dest > len(sizes) else ""
        return (
            f"table {source} has {had} players, at most {fmt.play_max} can play: "
            f"moves {way} to table {dest}{opens}"
        )
    if dest > len(sizes):
        return f"table {dest} opens: moves down from table {source}"
    short = sizes[dest - 1]
    return (
        f"table {dest} has {short} player{'' if short == 1 else 's'}, at least {fmt.play_min} "
        f"are needed: moves {way} from table {source}"
    )
