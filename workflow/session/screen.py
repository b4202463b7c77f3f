"""The projector's read: every table of a sitting as the wall shows it, who sits where
and how its current game stands, in four queries whatever the size of the sitting.
"Find my table" (`workflow.front.find`) reads a player's own table with it. The other
reads of a running session are `workflow.session.selectors`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

import engine
from scoring.models import Game, GamePlayer
from tournaments.models import Seating, Sitting


@dataclass(frozen=True)
class ScreenTable:
    """One table on the projector: who sits where and how its current game stands."""

    rank: int
    seats: list[str]
    game_number: int | None
    rounds: int
    leaders: list[str]
    leader_score: int | None
    games_finished: int
    games_total: int
    table_id: int = 0
    #: The physical table players sit at; `rank` is its place in the format.
    number: int = 0
    #: The names among `seats` of robots (`Player.is_robot`), which the wall marks.
    robots: frozenset[str] = frozenset()

    @property
    def done(self) -> bool:
        return self.games_finished >= self.games_total


def sitting_screen(
    sitting: Sitting, *, lower_is_better: bool, table_ids: Collection[int] | None = None
) -> list[ScreenTable]:
    """Every table of a sitting for the wall (or only `table_ids`: a player's own table on
    "find my table"), in four queries whatever its size."""
    only = {} if table_ids is None else {"table_id__in": list(table_ids)}
    tables = list(
        sitting.tables.filter(**({} if table_ids is None else {"pk__in": list(table_ids)}))
        .order_by("rank")
        .values_list("pk", "rank", "number")
    )
    seats: dict[int, list[str]] = defaultdict(list)
    robots: dict[int, set[str]] = defaultdict(set)
    for table_id, name, robot in (
        Seating.objects.filter(sitting=sitting, left_at__isnull=True, **only)
        .order_by("table_id", "seat")
        .values_list("table_id", "player__name", "player__is_robot")
    ):
        seats[table_id].append(name)
        if robot:
            robots[table_id].add(name)
    latest: dict[int, tuple[int, int, int]] = {}
    finished: dict[int, int] = defaultdict(int)
    for game_id, table_id, number, status, rounds in (
        Game.objects.filter(table__sitting=sitting, **only)
        .order_by("table_id", "number")
        .values_list("pk", "table_id", "number", "status", "round_count")
    ):
        latest[table_id] = (game_id, number, rounds)
        finished[table_id] += status == Game.Status.FINISHED
    scores: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for game_id, name, score in GamePlayer.objects.filter(
        game_id__in=[g for g, _, _ in latest.values()]
    ).values_list("game_id", "name", "score"):
        scores[game_id].append((name, score))
    result = []
    for pk, rank, table_number in tables:
        game_id, number, rounds = latest.get(pk, (0, 0, 0))
        leaders: list[str] = []
        best: int | None = None
        if rounds and scores.get(game_id):
            best = engine.best_score(
                (score for _, score in scores[game_id]), lower_is_better=lower_is_better
            )
            leaders = [name for name, score in scores[game_id] if score == best]
        result.append(
            ScreenTable(
                rank=rank,
                seats=seats[pk],
                game_number=number or None,
                rounds=rounds,
                leaders=leaders,
                leader_score=best,
                games_finished=finished[pk],
                games_total=sitting.games_per_sitting,
                table_id=pk,
                number=table_number,
                robots=frozenset(robots[pk]),
            )
        )
    return result
