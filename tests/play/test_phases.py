"""A table's state as a change publishes it (`play.phases.state_text`, `state_from`)."""

from __future__ import annotations

from typing import Any

import pytest

from play import selectors
from play.phases import STATE_FORM, state_from, state_text
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_a_state_read_back_shows_every_seat_what_the_rows_show(
    online_session: Any, director: Any
) -> None:
    """Read back from its text, the state gives every seat and the watchers the views the
    rows give, its round made again from its row."""
    online_session(4)
    table = Table.objects.select_related("sitting__session").get(online=True)
    state = selectors.table_state(table)

    back = state_from(state_text(state), table.pk)

    assert back is not None
    assert back.round is not None
    assert selectors.table_now_of(back).views == selectors.table_now(table.pk).views
    assert selectors.table_now_of(back).watch == selectors.table_now(table.pk).watch


@pytest.mark.parametrize(
    "change", ["another table", "another form", "cut short", "not pickled"], ids=str
)
def test_a_state_that_does_not_read_as_this_table_s_is_none(
    online_session: Any, director: Any, change: str
) -> None:
    """What the node cannot take as its copy it leaves: the rows are read instead."""
    online_session(4)
    table = Table.objects.select_related("sitting__session").get(online=True)
    text = state_text(selectors.table_state(table))
    form, _, body = text.partition(":")
    table_id = table.pk
    if change == "another table":
        table_id += 1
    elif change == "another form":
        text = f"{STATE_FORM + 1}:{body}"
    elif change == "cut short":
        text = text[: len(text) // 2]
    else:
        text = f"{form}:bm90IHBpY2tsZWQ="

    assert state_from(text, table_id) is None
