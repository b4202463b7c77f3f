"""Reads for "find my table": the index of who sits where in the current sitting, built
once per generation of the session (`find_my_table_index`), and the answer for a typed
name (`find_in`), matched by the names' match keys (`common.matching.match_key`). The
tables' games come from the projector's read, `workflow.session.screen.sitting_screen`.
Each seat says whether its table plays online (`Table.online`); no seat link is ever
part of it: the index answers anyone who types a name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from common.matching import match_key, near_misses
from tournaments import format as fmt
from tournaments.models import Session, Sitting
from workflow.session.screen import ScreenTable, sitting_screen
from workflow.session.selectors import players_by_table


@dataclass(frozen=True)
class FoundSeat:
    """Where one player sits in the current sitting, for "find my table": plain values, so
    that the index of a 1,000-player session is kept and read back cheaply."""

    name: str
    table_id: int
    table_rank: int
    seat: int
    #: The others at that table: (name, seat), by seat.
    companions: tuple[tuple[str, int], ...]
    #: Who it is, for "Follow my table".
    player_id: int = 0
    #: The physical table the player sits at: what "find my table" says.
    table_number: int = 0
    #: The table plays online (`Table.online`): the cards are on the players' phones.
    online: bool = False


@dataclass(frozen=True)
class FindIndex:
    """Every name of the current sitting by its match key (`common.matching.match_key`):
    who is seated where, who sits out, and how each table's game stands. Built once per
    generation of the session (`tournaments.pagecache.kept`), so a lookup costs no query."""

    seated: dict[str, tuple[FoundSeat, ...]]
    #: Match key -> the (name, player id) of the players sitting out this sitting.
    sitting_out: dict[str, tuple[tuple[str, int], ...]]
    tables: dict[int, ScreenTable]
    #: Whether any table of the sitting plays online: then a seat at a paper table says
    #: "on paper" too (a hybrid night).
    any_online: bool = False


@dataclass(frozen=True)
class Found:
    """What "find my table" answers for one typed name."""

    seats: list[tuple[FoundSeat, ScreenTable | None]]
    #: (name, player id) of each player found sitting out.
    sitting_out: list[tuple[str, int]]
    #: Some table of the sitting plays online (`FindIndex.any_online`).
    any_online: bool = False
    #: Nobody found: the names of the sitting the typed name nearly is (a typo or two,
    #: `common.matching.near_misses`), for "Did you mean …?".
    near: tuple[str, ...] = ()


#: The most seats "find my table" lists for a part of a name ("Ann" for every Ann).
FIND_LIMIT = 10


def find_my_table_index(session: Session, sitting: Sitting | None) -> FindIndex:
    """The index "find my table" answers from, in seven queries whatever the session's size."""
    if sitting is None:
        return FindIndex(seated={}, sitting_out={}, tables={})
    tables = {
        t.table_id: t
        for t in sitting_screen(
            sitting, lower_is_better=fmt.format_for(session.rules_id).lower_is_better
        )
    }
    online = set(sitting.tables.filter(online=True).values_list("pk", flat=True))
    seated: dict[str, list[FoundSeat]] = defaultdict(list)
    for table_id, people in players_by_table(sitting).items():
        rank = tables[table_id].rank if table_id in tables else 0
        number = tables[table_id].number if table_id in tables else 0
        for seat, name, player_id in people:
            seated[match_key(name)].append(
                FoundSeat(
                    name=name,
                    table_id=table_id,
                    table_rank=rank,
                    seat=seat,
                    companions=tuple((n, s) for s, n, _ in people if s != seat),
                    player_id=player_id,
                    table_number=number,
                    online=table_id in online,
                )
            )
    sitting_out: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for name, player_id in sitting.sit_outs.values_list("player__name", "player_id"):
        sitting_out[match_key(name)].append((name, player_id))
    return FindIndex(
        seated={k: tuple(sorted(v, key=lambda f: f.name)) for k, v in seated.items()},
        sitting_out={k: tuple(sorted(v)) for k, v in sitting_out.items()},
        tables=tables,
        any_online=bool(online),
    )


def _matching(keys: Collection[str], key: str) -> list[str]:
    """The keys a typed name finds: the same name if there is one, else every name that
    contains it ("rosa" finds Rosa Díaz and Rosa Ortiz)."""
    if key in keys:
        return [key]
    return sorted(k for k in keys if key in k)


def find_in(index: FindIndex, query: str) -> Found:
    """ "Find my table" for a typed name, by the names' match keys (case, accents,
    punctuation and spaces do not count): where each matching player sits, with their
    table's game, and which matching players sit out this sitting; for a name that is
    nobody's, the names it nearly is ("Did you mean …?")."""
    key = match_key(query)
    if not key:
        return Found(seats=[], sitting_out=[])
    seats = [
        (seat, index.tables.get(seat.table_id))
        for k in _matching(index.seated.keys(), key)
        for seat in index.seated[k]
    ][:FIND_LIMIT]
    resting = [
        name for k in _matching(index.sitting_out.keys(), key) for name in index.sitting_out[k]
    ]
    near: list[str] = []
    if not seats and not resting:
        names = [s.name for seated in index.seated.values() for s in seated]
        names += [name for out in index.sitting_out.values() for name, _ in out]
        near = near_misses(query, names)
    return Found(
        seats=seats,
        sitting_out=resting[:FIND_LIMIT],
        any_online=index.any_online,
        near=tuple(near),
    )
