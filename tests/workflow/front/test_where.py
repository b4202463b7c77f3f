"""Where and how each player plays (workflow.front.find, workflow.front.follow): every
seat of find my table's index and every place of follow my table says whether its table
plays online, as the table's row says, and a finished session plays nowhere. The pages
are tests/web/test_find_my_table.py and tests/web/test_follow.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from play import services as play_services
from tournaments.models import Seating, Session
from workflow.front import find, follow
from workflow.session import start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


@pytest.fixture
def hybrid(make_session: Callable[..., Session], director: Any) -> Session:
    """Eight players at two tables, table 2 switched online."""
    session = make_session(8)
    table = session.sittings.get().tables.get(rank=2)
    play_services.table_online_set(table_id=table.pk, online=True, user=director)
    return session


def online_players(session: Session) -> set[int]:
    return set(
        Seating.objects.filter(sitting__session=session, table__online=True).values_list(
            "player_id", flat=True
        )
    )


def test_every_seat_of_find_my_tables_index_says_whether_its_table_plays_online(
    hybrid: Session,
) -> None:
    index = find.find_my_table_index(hybrid, hybrid.sittings.get())
    seats = [seat for found in index.seated.values() for seat in found]
    assert len(seats) == 8
    assert {s.player_id for s in seats if s.online} == online_players(hybrid)
    assert len(online_players(hybrid)) == 4
    assert index.any_online
    some = seats[0]
    assert find.find_in(index, some.name).any_online


def test_a_paper_night_plays_online_nowhere(make_session: Callable[..., Session]) -> None:
    session = make_session(8)
    index = find.find_my_table_index(session, session.sittings.get())
    assert not index.any_online
    assert not any(s.online for found in index.seated.values() for s in found)
    assert not any(w.online for w in follow.where_everyone_is(session).values())


def test_each_players_place_says_whether_the_table_plays_online_until_the_night_ends(
    hybrid: Session, director: Any
) -> None:
    places = follow.where_everyone_is(hybrid)
    assert {p for p, w in places.items() if w.online} == online_players(hybrid)
    one = places[min(online_players(hybrid))]
    assert one.as_json()["online"] is True
    assert one.text.endswith("The table plays online: play on your phone.")
    finish_sitting_unplayed(hybrid.sittings.get(), random.Random(3))
    start_finish.session_finish(session_id=hybrid.pk, user=director)
    hybrid.refresh_from_db()
    finished = follow.where_everyone_is(hybrid)
    assert {w.state for w in finished.values()} == {"finished"}
    assert not any(w.online for w in finished.values())
