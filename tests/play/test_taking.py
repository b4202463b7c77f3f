"""A move taken on a table's state held in memory (play/taking.py): when the sights the
copy holds decide all that a read of who is present would (`sights_known`), worked
examples at the session's grace time of 60 s, and the property that makes the read
skippable: then no later sights change the table's phase or anyone's "away"."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play import selectors
from play.phases import TableState, phase_of
from play.taking import sights_known
from tests.play.conftest import tokens_of
from tournaments.models import Table

pytestmark = pytest.mark.django_db

GRACE = 60  # the session's grace time: the default


@pytest.fixture
def state(online_session: Any, director: Any) -> TableState:
    """A table of four at its first move, nobody seen yet."""
    session = online_session(4)
    tokens_of(session, director)  # every seat's link
    table = Table.objects.select_related("sitting__session").get(online=True)
    found = selectors.table_state(table)
    assert found.session.online_grace_seconds == GRACE
    assert len(found.tokens) == 4
    return dataclasses.replace(found, seen={}, away_since={}, robots=set())


def _players(state: TableState) -> list[int]:
    return list(state.tokens)


def _at(state: TableState, ages: dict[int, float | None], now: datetime) -> None:
    state.seen = {
        state.tokens[p]: now - timedelta(seconds=age) for p, age in ages.items() if age is not None
    }


@pytest.mark.parametrize(
    ("ages", "covered_ago", "robot", "known"),
    [
        # The mover (the first player) counts as seen now, whatever was held.
        ({1: 10, 2: 10, 3: 10}, None, None, True),
        ({0: None, 1: 0, 2: 29, 3: 30}, None, None, True),  # half the grace time exactly
        ({1: 10, 2: 10, 3: 31}, None, None, False),  # past half: a read may find them later
        ({1: 10, 2: 10, 3: None}, None, None, False),  # never seen here
        ({1: 10, 2: 10, 3: None}, None, 3, True),  # a robot player's presence is nothing
        ({1: 10, 2: 10, 3: 25}, 20, None, False),  # covered by a robot since 20 s ago
        ({1: 10, 2: 10, 3: 5}, 20, None, True),  # seen again after the cover began
    ],
)
def test_the_sights_held_decide_when_everyone_was_seen_within_half_the_grace_time(
    state: TableState,
    ages: dict[int, float | None],
    covered_ago: float | None,
    robot: int | None,
    known: bool,
) -> None:
    now = state.now
    players = _players(state)
    mover = state.tokens[players[0]]
    _at(state, {players[i]: age for i, age in ages.items()}, now)
    if covered_ago is not None:
        state.away_since = {players[3]: now - timedelta(seconds=covered_ago)}
    if robot is not None:
        state.robots = {players[robot]}

    assert sights_known(state, mover, now) is known
    assert state.seen[mover] == now  # the mover's sight, held from now on


#: A sight's age in seconds, or never seen: within half the grace time more often than not.
recent = st.floats(min_value=0, max_value=GRACE / 2)
ages = st.one_of(recent, recent, recent, st.none(), st.floats(min_value=0, max_value=3 * GRACE))


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    held=st.lists(ages, min_size=4, max_size=4),
    later=st.lists(st.floats(min_value=0, max_value=2 * GRACE), min_size=4, max_size=4),
    covered=st.lists(st.one_of(st.none(), st.floats(0, 2 * GRACE)), min_size=4, max_size=4),
    robots=st.sets(st.integers(0, 3), max_size=2),
)
def test_when_the_sights_held_decide_no_later_sight_changes_the_phase_or_who_is_away(
    state: TableState,
    held: list[float | None],
    later: list[float],
    covered: list[float | None],
    robots: set[int],
) -> None:
    """The move's turn starts now (`advance`): with the sights held, and with any later
    ones a read could find (each the same or later, some new), the same phase, the same
    deadline and the same "away" for everyone, whenever `sights_known` says so."""
    now = state.now
    players = _players(state)
    _at(state, dict(zip(players, held, strict=True)), now)
    state.away_since = {
        p: now - timedelta(seconds=ago)
        for p, ago in zip(players, covered, strict=True)
        if ago is not None
    }
    state.robots = {players[i] for i in robots}
    assert state.live is not None
    state.live = (
        dataclasses.replace(state.live) if dataclasses.is_dataclass(state.live) else state.live
    )
    state.live.turn_started_at = now

    if not sights_known(state, state.tokens[players[0]], now):
        return
    read = dataclasses.replace(state, seen=dict(state.seen))
    for player, token in state.tokens.items():
        sight = state.seen.get(token)
        step = later[players.index(player)]
        # A later sight, up to now (a read never finds one past the move).
        read.seen[token] = min(
            now, (sight or now - timedelta(seconds=step)) + timedelta(seconds=step)
        )
        if sight is not None:
            read.seen[token] = max(read.seen[token], sight)

    assert phase_of(read, now) == phase_of(state, now)
    assert [read.away(p) for p in players] == [state.away(p) for p in players]
