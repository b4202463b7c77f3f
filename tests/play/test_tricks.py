"""The projector's online tricks (`play.director_selectors.tricks_of`): each table's round
play as its watcher's view gives it, read in the same queries for two tables or five."""

from __future__ import annotations

import random
from typing import Any

import pytest

from play import director_selectors, selectors
from play.models import LiveRound
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import play_table
from tournaments.models import Seating
from workflow.session.selectors import current_sitting

pytestmark = pytest.mark.django_db


def tokens_by_table(session: Any, director: Any) -> dict[int, dict[str, str]]:
    tokens = tokens_of(session, director)
    tables: dict[int, dict[str, str]] = {}
    for s in Seating.objects.filter(sitting__session=session).select_related("player", "table"):
        tables.setdefault(s.table.rank, {})[s.player.name] = tokens[s.player.name]
    return tables


def test_each_tables_tricks_are_its_watchers_view(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(12)
    tables = tokens_by_table(session, director)
    # Table 1 plays into its tricks, table 2 has its round dealt, table 3 none yet.
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)

    def in_a_trick() -> bool:
        live = LiveRound.objects.filter(game=game).first()
        return live is not None and bool(live.state["state"].get("trick"))

    play_table(phone, tables[1], rng=random.Random(3), until=in_a_trick)
    LiveRound.objects.filter(game__table__sitting__session=session, game__table__rank=3).delete()
    sitting = current_sitting(session)
    assert sitting is not None

    tricks = director_selectors.tricks_of(sitting)

    assert [t.rank for t, _ in tricks] == [1, 2, 3]
    for table, shown in tricks:
        watched = selectors.watch_view(table.pk)
        assert shown == {key: watched[key] for key in director_selectors.TRICK_KEYS}
    assert tricks[0][1]["trick"]  # the cards on the table
    assert tricks[1][1]["round"] == 1
    assert not tricks[1][1]["trick"]
    assert tricks[2][1]["round"] is None


@pytest.mark.parametrize("players", [8, 20])
def test_the_tricks_take_the_same_queries_for_any_number_of_tables(
    online_session: Any, director: Any, phone: Any, players: int, django_assert_num_queries: Any
) -> None:
    session = online_session(players)
    assert LiveRound.objects.count() == players // 4  # every round dealt
    sitting = current_sitting(session)
    assert sitting is not None
    sitting = type(sitting).objects.get(pk=sitting.pk)  # its session not read yet
    # The session, the tables, their games, the rounds being played.
    with django_assert_num_queries(4):
        tricks = director_selectors.tricks_of(sitting)
    assert len(tricks) == players // 4
