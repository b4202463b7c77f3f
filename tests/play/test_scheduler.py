"""The scheduler (`play.scheduler`): one deadline per online table at most, planned at
the table's phase (`play.phases`), and run when it comes; an unattended table keeps one
for the whole night and never waits the grace time twice for the same absence."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.app.task import Task
from django.db import connections, transaction
from django.utils import timezone

from play import bus, rounds, scheduler, selectors
from play import services as play_services
from play.models import LiveRound, TableDeadline
from play.phases import SLACK, Phase
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import look, play_table, up_to_last_card, view_of
from tests.servers import REPO, node_env
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_a_dealt_table_waits_for_the_first_of_its_grace_time_and_its_clock(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, online_grace_seconds=20, move_clock_seconds=10)
    game = Game.objects.get(table__sitting__session=session, number=1)
    live = LiveRound.objects.get(game=game)

    (row,) = TableDeadline.objects.all()

    assert row.table_id == game.table_id
    assert row.phase == Phase.TO_ACT
    assert row.due_at == live.turn_started_at + timedelta(seconds=10) + SLACK


def test_a_deadline_not_come_yet_moves_nothing_and_a_read_moves_nothing(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(4, online_grace_seconds=20)
    game = Game.objects.get(table__sitting__session=session, number=1)
    before = LiveRound.objects.get(game=game).move
    tokens = tokens_of(session, director)
    for token in tokens.values():
        view_of(phone, token)

    assert scheduler.run_due() == 0
    assert LiveRound.objects.get(game=game).move == before
    assert TableDeadline.objects.count() == 1


def test_a_due_table_comes_with_its_session_and_one_gone_since_moves_nothing(
    online_session: Any,
) -> None:
    """The scheduler reads each due table's session with its deadline; a table deleted
    between that read and its step is gone, not an error."""
    session = online_session(4)
    table = Table.objects.get(sitting__session=session)
    TableDeadline.objects.filter(table=table).update(due_at=timezone.now())

    assert scheduler.due_tables() == [(table.pk, session.pk)]
    assert play_services.advance(table_id=table.pk + 1000, session_id=session.pk) is False


def test_a_look_takes_its_due_tables_and_the_next_look_takes_the_others(
    online_session: Any,
) -> None:
    """Two processes' schedulers share a burst of due tables rather than walking the
    same ones: the tables a look returns are its own for a lease (their steps plan them
    again at once), and a look just after gets only the rest."""
    session = online_session(8)
    tables = {t.pk for t in Table.objects.filter(sitting__session=session)}
    now = timezone.now()
    TableDeadline.objects.filter(table_id__in=tables).update(due_at=now)

    first = scheduler.due_tables(now, limit=1)
    second = scheduler.due_tables(now)

    assert len(first) == 1
    assert {t for t, _ in first + second} == tables
    assert len(first + second) == len(tables)
    assert scheduler.due_tables(now) == []
    assert {t for t, _ in scheduler.due_tables(now + scheduler.LEASE)} == tables


@pytest.mark.postgres
def test_a_look_on_postgresql_is_one_statement(
    online_session: Any, django_assert_num_queries: Any
) -> None:
    """The rows taken, their lease set and the tables' sessions read at once
    (`scheduler.due_tables`): a look runs at every poke and a few times a second."""
    session = online_session(8)
    tables = sorted(Table.objects.filter(sitting__session=session).values_list("pk", flat=True))
    now = timezone.now()
    for n, table_id in enumerate(reversed(tables)):
        TableDeadline.objects.filter(table_id=table_id).update(due_at=now - timedelta(seconds=n))

    with django_assert_num_queries(1):
        taken = scheduler.due_tables(now)

    # The oldest deadline first: the tables were made due in the reverse order.
    assert taken == [(table_id, session.pk) for table_id in tables]
    leased = TableDeadline.objects.filter(table_id__in=tables).values_list("due_at", flat=True)
    assert set(leased) == {now + scheduler.LEASE}


def test_a_paper_table_has_no_deadline_and_a_look_at_it_plans_none(
    online_session: Any, director: Any
) -> None:
    session = online_session(4, online=False)
    table = Table.objects.get(sitting__session=session)

    look(table.pk)

    assert not TableDeadline.objects.exists()


class Clock:
    """The time every module reads (`django.utils.timezone.now`), moved by the test."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


def test_two_unattended_tables_play_a_whole_sitting_with_one_deadline_each(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    clock = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", clock)
    queued: list[Any] = []
    # Any Celery task queued, eager or not.
    monkeypatch.setattr(Task, "apply_async", lambda *a, **k: queued.append(a))
    grace = 20
    session = online_session(8, online_grace_seconds=grace, games_per_sitting=2)
    tables = list(Table.objects.filter(sitting__session=session).values_list("pk", flat=True))
    assert len(tables) == 2
    waits: list[float] = []

    # Nobody connects all night: the clock jumps to each deadline in turn.
    for _ in range(2_000):
        pending = list(TableDeadline.objects.order_by("due_at"))
        assert len(pending) <= len(tables)
        assert len({row.table_id for row in pending}) == len(pending)
        if not pending:
            break
        step = (pending[0].due_at - clock.at).total_seconds()
        waits.append(step)
        clock.at = max(clock.at, pending[0].due_at)
        scheduler.run_due()
    else:
        raise AssertionError("the night did not end")

    games = Game.objects.filter(table__sitting__session=session)
    assert games.count() == 4
    assert all(g.status == Game.Status.FINISHED for g in games)
    # Each of the eight absent players was waited for once (the two tables wait side by
    # side), then covered at once: the whole sitting took eight grace times at most.
    assert 4 <= sum(1 for w in waits if w >= grace) <= 8
    assert sum(waits) <= 8 * (grace + 1)
    # And nothing was queued anywhere else.
    assert queued == []


def test_a_substitute_mid_round_is_dealt_the_hand_again_and_can_play(
    online_session: Any, director: Any, phone: Any
) -> None:
    from workflow.session import withdrawals

    session = online_session(4)
    game = Game.objects.get(table__sitting__session=session, number=1)
    tokens = tokens_of(session, director)
    play_table(phone, tokens, rng=random.Random(2), until=lambda: game.rounds.exists())
    before = LiveRound.objects.get(game=game)
    assert before.number == 2  # round 2 dealt to the four who sat down
    leaving = game.game_players.order_by("seat").first()
    assert leaving is not None

    withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaving.player_id, user=director, substitute="Sub"
    )
    look(game.table_id)  # as the withdrawal's commit wakes the table

    live = LiveRound.objects.get(game=game)  # the same game, its round 2 dealt again
    assert live.number == 2
    assert live.move > before.move
    assert "Sub" in live.state["start"]["players"]
    assert leaving.name not in live.state["start"]["players"]
    tokens = tokens_of(session, director)
    view = view_of(phone, tokens["Sub"])
    assert view["status"] == "playing"
    assert len(view["hand"]) > 0
    assert view["to_act"] in tokens


def _last_card_played(session: Any, director: Any) -> Game:
    """The table's first round played to its end, the last card taken as a node takes
    it (written, its deadline planned: `Phase.STORING`), the round not stored yet: that
    is the scheduler's."""
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    up_to_last_card(tokens)
    with transaction.atomic():
        at = rounds.lock(game.table_id)
        rnd = at.round()
        assert rnd is not None
        assert at.live is not None
        who = rnd.to_act()
        assert who is not None
        now = timezone.now()
        rounds.apply_move(at.live, rnd, who, rnd.robot_move(who), robot=None, now=now)
        at.kept(rnd)
        rounds.plan(at, at.phase(now))
    assert TableDeadline.objects.get(table_id=game.table_id).phase == Phase.STORING
    assert not game.rounds.exists()
    return game


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_scheduler_process_looks_as_soon_as_it_is_asked_on_redis(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A process with no scheduler of its own (an ASGI node in a deployment) asks the
    scheduler processes to look now: the round is stored at once, not at the next poll
    (made far longer than the test waits)."""
    monkeypatch.setattr(scheduler, "POLL_SECONDS", 60)
    looked = threading.Event()
    looking = scheduler._look

    def look_and_say() -> int:
        try:
            return looking()
        finally:
            looked.set()

    monkeypatch.setattr(scheduler, "_look", look_and_say)
    session = online_session(4)
    game = _last_card_played(session, director)
    TableDeadline.objects.filter(table_id=game.table_id).update(
        due_at=timezone.now() + timedelta(minutes=5)
    )
    stop = threading.Event()
    thread = threading.Thread(target=_serving, args=(stop,))
    thread.start()
    try:
        assert looked.wait(10)  # its first look, at once: nothing due yet
        looked.clear()
        TableDeadline.objects.filter(table_id=game.table_id).update(due_at=timezone.now())
        assert not looked.wait(0.5)  # the poll is a minute away

        bus.poke_schedulers()

        assert looked.wait(5)
        assert list(game.rounds.values_list("number", flat=True)) == [1]
    finally:
        stop.set()
        bus.poke_schedulers()  # out of its wait at once
        thread.join(10)
    assert not thread.is_alive()


def _serving(stop: threading.Event) -> None:
    try:
        scheduler.serve(stop)
    finally:
        connections.close_all()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_scheduler_command_stores_a_round_ended_and_stops_on_sigterm(
    online_session: Any, director: Any, tmp_path: Path
) -> None:
    """`manage.py run_scheduler`, as deploy/huckley-scheduler.service runs it: a round
    whose last card was taken, with no scheduler asked, is stored at the scheduler's
    next poll; SIGTERM stops it within a poll, cleanly."""
    session = online_session(4)
    game = _last_card_played(session, director)
    log = tmp_path / "scheduler.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "run_scheduler"],
            cwd=REPO,
            env=node_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while not game.rounds.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert list(game.rounds.values_list("number", flat=True)) == [1]
        assert selectors.watch_view(game.table_id)["round"] == 2
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(10)
    assert code == 0, log.read_text()
    assert "The scheduler stopped." in log.read_text()


@pytest.mark.services
def test_a_node_with_no_scheduler_of_its_own_asks_the_scheduler_processes_on_redis() -> None:
    """A move on a socket that leaves its table something due at once (`poke`, on the
    server's loop) reaches the scheduler processes when the node runs none."""
    import redis

    listener = redis.Redis.from_url(bus.redis_url()).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(bus.scheduler_channel())
    try:
        while listener.get_message(timeout=0.2) is not None:
            pass

        async def a_move_on_a_socket() -> None:
            scheduler.poke()

        asyncio.run(a_move_on_a_socket())  # its executor finished before it returns

        asked = listener.get_message(timeout=2)
        assert asked is not None
        assert asked["channel"].decode() == bus.scheduler_channel()
    finally:
        listener.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_rounds_end_publishes_the_move_it_followed_and_its_views_in_one_round_trip(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The scheduler's step at a round's end publishes the last card's move again, then
    the views of the next deal (`play.push.send`): on the table's channel, in that
    order, in one round trip to Redis."""
    import redis
    from redis.client import Pipeline

    game = _last_card_played(online_session(4), director)
    listener = redis.Redis.from_url(bus.redis_url()).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(bus.channel(game.table_id))
    while listener.get_message(timeout=0.2) is not None:
        pass
    trips: list[list[str]] = []
    execute, execute_stacked = redis.Redis.execute_command, Pipeline.execute

    def counted(client: Any, *args: Any, **options: Any) -> Any:
        if str(args[0]).upper() == "PUBLISH":
            trips.append(["PUBLISH"])
        return execute(client, *args, **options)

    def sent(pipe: Any, *args: Any, **options: Any) -> Any:
        trips.append([str(stacked[0][0]).upper() for stacked in pipe.command_stack])
        return execute_stacked(pipe, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counted)
    monkeypatch.setattr(Pipeline, "execute", sent)
    try:
        assert play_services.advance(table_id=game.table_id)
        heard = [listener.get_message(timeout=2) for _ in range(2)]
    finally:
        listener.close()
    assert trips == [["PUBLISH", "PUBLISH"]], trips
    kinds = [bus.read(message["data"])["kind"] for message in heard if message is not None]
    assert kinds == ["move", "views"]
