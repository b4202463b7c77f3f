"""`tournaments.signals.seats_changed_on_commit`: the signal goes once the transaction
commits, never inside it nor for one rolled back; the calls of one transaction merge
into one send; a receiver's failure is logged, never the writer's. Real transactions:
the tests commit."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tests.tournaments.conftest import Sent
from tournaments.signals import seats_changed, seats_changed_on_commit

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_is_sent_once_the_transaction_commits(sent: list[Sent]) -> None:
    with transaction.atomic():
        seats_changed_on_commit(7, players=[1, 2], tables=[30])
        assert sent == []
    assert sent == [(7, frozenset({1, 2}), frozenset({30}))]


def test_outside_a_transaction_it_is_sent_at_once(sent: list[Sent]) -> None:
    seats_changed_on_commit(7, tables=[30])
    assert sent == [(7, frozenset(), frozenset({30}))]


def failed_write(session_id: int, **named: Any) -> None:
    """A write that says seats changed, then fails: its transaction is rolled back."""
    with transaction.atomic():
        seats_changed_on_commit(session_id, **named)
        raise RuntimeError("the write failed")


def test_nothing_is_sent_for_a_transaction_rolled_back(sent: list[Sent]) -> None:
    with pytest.raises(RuntimeError):
        failed_write(7)
    assert sent == []


def test_the_calls_of_one_transaction_merge_into_one_send_per_session(sent: list[Sent]) -> None:
    with transaction.atomic():
        seats_changed_on_commit(7, players=[1])
        seats_changed_on_commit(8, tables=[40])
        seats_changed_on_commit(7, tables=[30])
        seats_changed_on_commit(7, players=[2], tables=[31])
    assert sorted(sent) == [
        (7, frozenset({1, 2}), frozenset({30, 31})),
        (8, frozenset(), frozenset({40})),
    ]


def test_every_seat_takes_in_whatever_else_was_named(sent: list[Sent]) -> None:
    with transaction.atomic():
        seats_changed_on_commit(7, players=[1])
        seats_changed_on_commit(7)
        seats_changed_on_commit(7, tables=[30])
    assert sent == [(7, None, None)]


def test_a_savepoint_rolled_back_never_loses_what_the_rest_of_the_transaction_said(
    sent: list[Sent],
) -> None:
    with transaction.atomic():
        with pytest.raises(RuntimeError):
            failed_write(7, players=[1])  # a step that failed, caught by the write
        seats_changed_on_commit(7, players=[2])
    # The rolled back call may widen the send (a view pushed once more is harmless);
    # the one that stood is sent.
    ((session, players, tables),) = sent
    assert session == 7
    assert players is not None
    assert 2 in players
    assert tables == frozenset()


def test_a_failing_receiver_is_logged_and_the_write_stands(sent: list[Sent], caplog: Any) -> None:
    def broken(sender: Any, **kwargs: Any) -> None:
        raise ConnectionError("the channel layer is down")

    seats_changed.connect(broken, dispatch_uid="test-broken")
    try:
        with transaction.atomic():
            seats_changed_on_commit(7)
    finally:
        seats_changed.disconnect(dispatch_uid="test-broken")
    assert sent == [(7, None, None)]  # the other receivers heard it all the same
    assert "a receiver of seats_changed" in caplog.text
    assert "the channel layer is down" in caplog.text
