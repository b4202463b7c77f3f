"""Online moves racing on PostgreSQL with real threads (docs/architecture.md, "Lock order"):
the four phones of a table send their moves at once, each several times, while the
director confirms the movement of another table's sitting... and the round ends in one
consistent story: every move taken once, in turn, no 500, no deadlock.

SQLite runs one write at a time, so these need PostgreSQL (.ci/run provides it and
turns a skip into a failure)."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

import engine
from common.errors import ConflictError
from play import scheduler
from play.models import LiveRound, TableDeadline
from scoring.models import Game, Round
from scoring.records import game_record
from tests.deadlocks import deadlocks, report_statistics
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body
from tournaments.models import Table
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def phone_loop(token: str, seed: int, stop: threading.Event, answers: list[int]) -> None:
    """A phone that reads and, when it is its turn, sends its move twice at once."""
    client = Client()
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            read = client.get(f"/api/play/{token}/")
            answers.append(read.status_code)
            view = read.json()
            if view["status"] != "playing" or view["to_act"] != view["player"]:
                continue
            body = choice_body(view, rng.choice(view["legal"]), rng)
            for _ in range(2):
                sent = client.post(
                    f"/api/play/{token}/moves/", body, content_type="application/json"
                )
                answers.append(sent.status_code)
    finally:
        report_statistics()  # before the test reads the count of deadlocks
        connection.close()


def test_four_phones_racing_and_a_movement_leave_one_consistent_story(
    online_session: Any, director: Any
) -> None:
    # Two sessions: one whose table the phones play, one whose movement is confirmed.
    session = online_session(4, seed=21)
    other = online_session(8, seed=22, online=False)
    finish_sitting_unplayed(other.sittings.get(), random.Random(1))
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    before = deadlocks()
    stop = threading.Event()
    answers: list[int] = []
    threads = [
        threading.Thread(target=phone_loop, args=(token, i, stop, answers))
        for i, token in enumerate(tokens.values())
    ]
    for t in threads:
        t.start()

    movements.sitting_move_players(session_id=other.pk, sitting_number=1, user=director)
    # The phones' own session: the movement takes it exclusively, then refuses (the
    # sitting is being played), again and again while the moves take it shared.
    refused = 0
    for _ in range(5):
        try:
            movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
        except ConflictError as e:
            refused += e.code == "sitting_unfinished"
    assert refused == 5
    for _ in range(600):
        if Round.objects.filter(game=game).count() >= 2:
            break
        threading.Event().wait(0.1)
    stop.set()
    for t in threads:
        t.join(timeout=60)

    assert not any(t.is_alive() for t in threads)
    assert set(answers) <= {200, 409}, sorted(set(answers))
    assert 409 in answers or answers.count(200) > 0
    assert deadlocks() == before
    assert Round.objects.filter(game=game).count() >= 2
    verdict = engine.check(game_record(game))
    assert verdict["valid"], verdict["errors"]
    # Each move of the round being played is taken once, in turn, numbered in order.
    live = LiveRound.objects.get(game=game)
    numbers = [h["move"] for h in live.history]
    assert numbers == sorted(set(numbers))
    assert other.sittings.count() == 2


def to_paper_and_stop(
    game: Game, director: Any, stop: threading.Event, threads: list[threading.Thread]
) -> None:
    """The director switches the table to paper while the racers run; then they stop."""
    from play import services as play_services

    play_services.table_online_set(
        table_id=game.table_id, online=False, user=director, confirm=True
    )
    threading.Event().wait(1)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)


def on_paper(game: Game) -> None:
    """On paper now: no round on the phones, no deadline, and the stored rounds valid."""
    from play.models import TableDeadline

    assert not LiveRound.objects.filter(game__table_id=game.table_id).exists()
    assert not TableDeadline.objects.filter(table_id=game.table_id).exists()
    game.refresh_from_db()
    verdict = engine.check(game_record(game))
    assert verdict["valid"], verdict["errors"]


def scheduler_loop(table_id: int, stop: threading.Event, failures: list[BaseException]) -> None:
    """The scheduler looking at the table again and again, as the ASGI processes do."""
    from play import scheduler

    try:
        while not stop.is_set():
            scheduler.wake([table_id])
            scheduler.run_due()
    except BaseException as e:
        failures.append(e)
    finally:
        report_statistics()  # before the test reads the count of deadlocks
        connection.close()


def test_phones_the_scheduler_and_a_switch_to_paper_race_into_one_story(
    online_session: Any, director: Any
) -> None:
    from tests.play.helpers import settle

    session = online_session(4, seed=23, online_grace_seconds=5)
    settle(session.pk)
    tokens = tokens_of(session, director)
    absent = next(iter(tokens))  # never reads: the scheduler's robot covers them
    game = Game.objects.get(table__sitting__session=session, number=1)
    before = deadlocks()
    stop = threading.Event()
    answers: list[int] = []
    failures: list[BaseException] = []
    threads = [
        threading.Thread(target=phone_loop, args=(token, i, stop, answers))
        for i, (name, token) in enumerate(tokens.items())
        if name != absent
    ]
    threads += [
        threading.Thread(target=scheduler_loop, args=(game.table_id, stop, failures))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for _ in range(300):
        if answers.count(200) > 30:
            break
        threading.Event().wait(0.1)

    to_paper_and_stop(game, director, stop, threads)

    assert failures == []
    assert set(answers) <= {200, 409}, sorted(set(answers))
    assert deadlocks() == before
    on_paper(game)


def socket_phone(
    token: str, seed: int, stop: threading.Event, codes: list[str], failures: list[BaseException]
) -> None:
    """A phone on its own socket and its own event loop (so its own node, as if on
    another server process: the nodes of one process hear each other through
    `play.bus`), sending its move twice at once whenever its view says it is its turn."""
    import asyncio
    import json

    from asgiref.sync import async_to_sync

    from tests.play.sockets import opened, phone

    async def play() -> None:
        socket = phone(token)
        view = await opened(socket)
        rng = random.Random(seed)
        while not stop.is_set():
            if view["status"] == "playing" and view["to_act"] == view["player"] and view["legal"]:
                body = choice_body(view, rng.choice(view["legal"]), rng)
                for _ in range(2):
                    await socket.send_json_to({"type": "move", **body})
            try:  # the queue itself: a communicator's own timeout would end the app
                sent = await asyncio.wait_for(socket.output_queue.get(), 0.5)
            except TimeoutError:
                continue
            message = json.loads(sent["text"])
            if message["type"] == "refused":
                codes.append(message["code"])
            view = message.get("view") or view
        await socket.disconnect()

    try:
        async_to_sync(play)()
    except BaseException as e:
        failures.append(e)
    finally:
        report_statistics()  # before the test reads the count of deadlocks
        connection.close()


@pytest.mark.usefixtures("in_memory_layer")  # Channels' Redis layer takes one loop a process
def test_socket_moves_the_scheduler_a_movement_and_a_switch_to_paper_race_into_one_story(
    online_session: Any, director: Any
) -> None:
    """The moves taken on the sockets (play.node: one conditional write, no lock but the
    row's) against every write at the same table and session: each other (the same move
    twice at once, from four nodes), two schedulers storing, dealing and playing robots,
    the movement of the session (refused: the sitting is being played) and, last, the
    switch of the table to paper."""
    from tests.play.helpers import settle

    session = online_session(4, seed=31)
    settle(session.pk)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    before = deadlocks()
    stop = threading.Event()
    codes: list[str] = []
    failures: list[BaseException] = []
    threads = [
        threading.Thread(target=socket_phone, args=(token, i, stop, codes, failures))
        for i, token in enumerate(tokens.values())
    ]
    threads += [
        threading.Thread(target=scheduler_loop, args=(game.table_id, stop, failures))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    refused = 0
    for _ in range(3):
        try:
            movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
        except ConflictError as e:
            refused += e.code == "sitting_unfinished"
    for _ in range(600):
        if Round.objects.filter(game=game).count() >= 2:
            break
        threading.Event().wait(0.1)
    stored = Round.objects.filter(game=game).count()
    live = LiveRound.objects.get(game=game)
    numbers = [h["move"] for h in live.history]

    to_paper_and_stop(game, director, stop, threads)

    assert failures == []
    assert refused == 3
    assert stored >= 2, "the sockets' moves did not play two rounds in a minute"
    # Each move of the round being played is taken once, in turn, numbered in order; the
    # move sent twice at once is refused (stale) or answered again, nothing else.
    assert numbers == sorted(set(numbers))
    assert set(codes) <= {"stale_move", "not_your_turn", "no_game"}, sorted(set(codes))
    assert deadlocks() == before
    on_paper(game)
    assert game.round_count == Round.objects.filter(game=game).count() >= stored


def test_a_look_skips_the_due_tables_another_look_is_taking(online_session: Any) -> None:
    """A look whose rows another process's look holds takes the others at once, neither
    waiting for it nor taking the same tables (`play.scheduler.due_tables`)."""
    session = online_session(8)
    held, other = sorted(
        Table.objects.filter(sitting__session=session).values_list("pk", flat=True)
    )
    now = timezone.now()
    TableDeadline.objects.filter(table_id__in=[held, other]).update(due_at=now)
    holding, done = threading.Event(), threading.Event()

    def another_look() -> None:
        try:
            with transaction.atomic():
                TableDeadline.objects.select_for_update().get(table_id=held)
                holding.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    thread = threading.Thread(target=another_look)
    thread.start()
    try:
        assert holding.wait(timeout=30)
        taken = scheduler.due_tables(now)
    finally:
        done.set()
        thread.join(timeout=30)

    assert [table_id for table_id, _ in taken] == [other]
