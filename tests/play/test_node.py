"""A move taken where its socket is (play/node.py; docs/architecture.md, "A move's
path"): one write for the move, views from the state held, and a copy that fell behind
never overwrites the row."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.db.backends.utils import CursorWrapper

from play import bus, selectors
from play import services as play_services
from play.models import LiveRound
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, up_to_last_card
from tests.play.sockets import next_view, opened, phone, run
from tests.play.test_websocket import to_act

pytestmark = pytest.mark.django_db(transaction=True)

#: The statements of an ordinary move on the socket: the round's state and history and
#: the table's deadline in one on PostgreSQL; on SQLite the same two writes, one each.
MOVE_STATEMENTS = {"postgresql": 1, "sqlite": 2}


@pytest.mark.usefixtures("in_memory_layer")
def test_a_socket_move_is_one_write_and_every_view_comes_from_memory(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    import psycopg

    tokens = tokens_of(online_session(4), director)
    statements: list[str] = []
    execute = CursorWrapper.execute
    execute_on_loop = psycopg.AsyncCursor.execute

    def counted(self: Any, sql: str, params: Any = None) -> Any:
        if not sql.startswith("BEGIN"):  # SQLite's transaction opens with a statement
            statements.append(sql)
        return execute(self, sql, params)

    async def counted_on_loop(self: Any, sql: Any, params: Any = None, **kw: Any) -> Any:
        statements.append(str(sql))  # the node's own connection (play/node_io.py)
        return await execute_on_loop(self, sql, params, **kw)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}
        mover, view = await database_sync_to_async(to_act)(tokens)
        body = choice_body(view, view["legal"][0])

        monkeypatch.setattr(CursorWrapper, "execute", counted)  # every thread's cursor
        monkeypatch.setattr(psycopg.AsyncCursor, "execute", counted_on_loop)
        await phones[mover].send_json_to({"type": "move", **body})
        got = {token: await next_view(socket) for token, socket in phones.items()}
        monkeypatch.setattr(CursorWrapper, "execute", execute)
        monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute_on_loop)

        assert len(statements) == MOVE_STATEMENTS[connection.vendor], statements
        for token, seen in got.items():
            assert seen["move"] == first[token]["move"] + 1
            assert seen == await database_sync_to_async(selectors.seat_view)(token)
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_move_on_a_copy_that_fell_behind_is_stale_and_writes_nothing(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        socket = phone(mover)
        await opened(socket)  # the node holds the table at this state
        # The same seat's move is taken elsewhere (another device, over HTTP) and its
        # publish never heard here: the node's copy is one move behind.
        monkeypatch.setattr(bus, "publish", lambda table_id, message: None)
        first = choice_body(view, view["legal"][0])
        await database_sync_to_async(play_services.move_make)(
            token=mover, move=view["move"], action={k: v for k, v in first.items() if k != "move"}
        )
        row = await database_sync_to_async(LiveRound.objects.get)()

        other = choice_body(view, view["legal"][-1])
        await socket.send_json_to({"type": "move", **other})
        answer = await socket.receive_json_from(timeout=10)

        assert (answer["type"], answer["code"]) == ("refused", "stale_move")
        assert answer["view"] == await database_sync_to_async(selectors.seat_view)(mover)
        after = await database_sync_to_async(LiveRound.objects.get)()
        assert (after.move, after.history, after.state) == (row.move, row.history, row.state)
        await socket.disconnect()

    run(scenario)


class RedisCount:
    """The Redis commands sent while it counts: each one (`commands`), each round trip
    from the loop's clients (`trips`: a pipeline, or a command's name) and each command
    a thread's client sends (`on_threads`)."""

    def __init__(self, monkeypatch: Any) -> None:
        import redis
        import redis.asyncio
        from redis.asyncio.client import Pipeline

        self.monkeypatch = monkeypatch
        self.commands: list[str] = []
        self.trips: list[str] = []
        self.on_threads: list[str] = []
        execute = redis.asyncio.Redis.execute_command
        stack = Pipeline.pipeline_execute_command
        execute_stacked = Pipeline.execute
        execute_on_thread = redis.Redis.execute_command

        async def counted(client: Any, *args: Any, **options: Any) -> Any:
            self.commands.append(str(args[0]).upper())
            self.trips.append(str(args[0]).upper())
            return await execute(client, *args, **options)

        def stacked(pipe: Any, *args: Any, **options: Any) -> Any:
            self.commands.append(str(args[0]).upper())
            return stack(pipe, *args, **options)

        async def sent(pipe: Any, *args: Any, **options: Any) -> Any:
            self.trips.append("pipeline")
            return await execute_stacked(pipe, *args, **options)

        def counted_on_thread(client: Any, *args: Any, **options: Any) -> Any:
            self.on_threads.append(str(args[0]).upper())
            return execute_on_thread(client, *args, **options)

        self.patches = [
            (redis.asyncio.Redis, "execute_command", counted, execute),
            (Pipeline, "pipeline_execute_command", stacked, stack),
            (Pipeline, "execute", sent, execute_stacked),
            (redis.Redis, "execute_command", counted_on_thread, execute_on_thread),
        ]

    def start(self) -> None:
        self.commands.clear()
        self.trips.clear()
        self.on_threads.clear()
        for owner, name, patched, _ in self.patches:
            self.monkeypatch.setattr(owner, name, patched)

    def stop(self) -> None:
        for owner, name, _, original in self.patches:
            self.monkeypatch.setattr(owner, name, original)


@pytest.mark.postgres
def test_a_socket_move_sends_its_redis_commands_in_one_trip_on_the_production_path(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """On Redis (the cache and the table's channel), from the node's loop
    (play/node_io.py), however many phones: when the sights the node holds decide who is
    present (everyone seen within half the grace time: each socket's connect is a
    sight), the mover's sight and the move's publish in one round trip. When they do
    not, the mover seen and who is present read first, in one round trip, then the
    publish. No thread's client sends any."""
    from play import node

    tokens = tokens_of(online_session(4), director)
    count = RedisCount(monkeypatch)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}

        async def move_counted() -> dict[str, dict[str, Any]]:
            mover, view = await database_sync_to_async(to_act)(tokens)
            body = choice_body(view, view["legal"][0])
            count.start()
            await phones[mover].send_json_to({"type": "move", **body})
            got = {token: await next_view(socket) for token, socket in phones.items()}
            count.stop()
            return got

        got = await move_counted()
        assert sorted(count.commands) == ["PUBLISH", "SET"], count.commands
        assert count.trips == ["pipeline"], count.trips
        assert all(seen["move"] == first[t]["move"] + 1 for t, seen in got.items())

        (held,) = node.node().tables.values()
        assert held.state is not None
        held.state.seen = {}  # nobody's sight held here: it must be read
        got = await move_counted()
        assert sorted(count.commands) == ["MGET", "PUBLISH", "SET"], count.commands
        assert count.trips == ["pipeline", "PUBLISH"], count.trips
        assert all(seen["move"] == first[t]["move"] + 2 for t, seen in got.items())
        assert count.on_threads == [], count.on_threads
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.postgres
def test_a_rounds_last_card_on_a_socket_asks_the_schedulers_in_its_publishs_round_trip(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The last card of a round leaves the round to store, due at once, to the
    scheduler processes (the node runs none of its own): the ask to look now goes in the
    move's one round trip to Redis, with the mover's sight and the move's publish, and
    the schedulers hear it once. No thread's client sends anything."""
    import redis

    tokens = tokens_of(online_session(4), director)
    listener = redis.Redis.from_url(bus.redis_url()).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(bus.scheduler_channel())
    count = RedisCount(monkeypatch)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        for socket in phones.values():
            await opened(socket)
        mover, view = await database_sync_to_async(up_to_last_card)(tokens)
        for socket in phones.values():  # the views of the moves made over HTTP
            while (await next_view(socket))["move"] < view["move"]:
                pass
        while listener.get_message(timeout=0.2) is not None:
            pass  # the asks of the moves before
        body = choice_body(view, view["legal"][0])
        count.start()
        await phones[mover].send_json_to({"type": "move", **body})
        got = {token: await next_view(socket) for token, socket in phones.items()}
        count.stop()
        assert all(seen["phase"] == "end" for seen in got.values()), got
        assert sorted(count.commands) == ["PUBLISH", "PUBLISH", "SET"], count.commands
        assert count.trips == ["pipeline"], count.trips
        assert count.on_threads == [], count.on_threads
        for socket in phones.values():
            await socket.disconnect()

    try:
        run(scenario)
        asked = listener.get_message(timeout=2)
        assert asked is not None
        assert asked["channel"].decode() == bus.scheduler_channel()
        assert listener.get_message(timeout=0.5) is None  # asked once
    finally:
        listener.close()


@pytest.mark.postgres
@pytest.mark.usefixtures("in_memory_layer")
def test_a_move_after_postgresql_dropped_the_nodes_connections_is_taken(
    online_session: Any, director: Any
) -> None:
    """The node keeps its connections (its own on its loop for the moves, its threads'
    for its reads); one PostgreSQL dropped between two moves (a restart, a failover, a
    killed backend) is replaced on the next move, which is taken and pushed as any
    other, not refused."""
    tokens = tokens_of(online_session(4), director)
    with connection.cursor() as cursor:  # the test's own, kept
        cursor.execute("SELECT pg_backend_pid()")
        test_pid = cursor.fetchone()[0]

    def kill_the_others() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
                [test_pid],
            )
            return int(cursor.fetchone()[0])

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        views = {token: await opened(socket) for token, socket in phones.items()}
        for step in range(2):
            mover, view = await database_sync_to_async(to_act)(tokens)
            if step == 1:
                assert await database_sync_to_async(kill_the_others)() >= 1
            body = choice_body(view, view["legal"][0])
            await phones[mover].send_json_to({"type": "move", **body})
            got = {token: await next_view(socket) for token, socket in phones.items()}
            assert all(seen["move"] == views[t]["move"] + 1 for t, seen in got.items()), got
            views = got
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_move_that_cannot_be_written_is_refused_in_words_and_the_socket_stays_open(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    from django.db import OperationalError

    from play import moves, node_io

    tokens = tokens_of(online_session(4), director)

    def unreachable(**kwargs: Any) -> bool:
        raise OperationalError("server closed the connection unexpectedly")

    async def unreachable_on_loop(self: Any, sql: str, params: Any) -> bool:
        raise OperationalError("server closed the connection unexpectedly")

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        socket = phone(mover)
        await opened(socket)
        monkeypatch.setattr(moves, "write", unreachable)  # on SQLite
        monkeypatch.setattr(node_io.Links, "write", unreachable_on_loop)  # on PostgreSQL
        await socket.send_json_to({"type": "move", **choice_body(view, view["legal"][0])})
        answer = await socket.receive_json_from(timeout=10)
        assert (answer["type"], answer["code"]) == ("refused", "database_unavailable")
        assert "could not be reached" in answer["message"]
        assert (
            await database_sync_to_async(LiveRound.objects.values_list("move", flat=True).get)()
            == view["move"]
        )
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=10) == {"type": "pong"}
        await socket.disconnect()

    run(scenario)


@pytest.mark.parametrize(
    ("sent", "mark", "passed"),
    [
        (None, (7, 3), False),  # nothing sent yet
        ((7, 3), (7, 4), False),  # the next state
        ((7, 3), (7, 3), True),  # the same state again
        ((7, 3), (7, 2), True),  # an earlier state of the same round
        ((7, 30), (8, 2), False),  # another game's round: its own numbers
        ((7, 3), None, False),  # no round dealt: nothing to compare
    ],
)
def test_a_node_sends_a_state_of_a_round_once_and_never_one_it_passed(
    sent: tuple[int, int] | None, mark: tuple[int, int] | None, passed: bool
) -> None:
    from play.node import Held

    assert Held(1, sent=sent).passed(mark) is passed


def test_a_robot_players_moves_follow_a_socket_move_on_the_node_with_no_scheduler(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A robot player to act after a move on the socket plays at once where the move was
    taken (its move chosen by the engine, one write each), and the phones get each view;
    the scheduler, which would take it otherwise, is not asked."""
    from play import scheduler
    from tests.play.helpers import settle
    from tournaments.models import Player
    from workflow.session import start_finish

    session = online_session(4, start=False)
    robot = session.entries.order_by("player__name").first().player
    Player.objects.filter(pk=robot.pk).update(is_robot=True)
    start_finish.session_start(session_id=session.pk, user=director)
    settle(session.pk)  # the deal (and the robot's moves if it opens)
    tokens = tokens_of(session, director)
    humans = {name: token for name, token in tokens.items() if name != robot.name}
    monkeypatch.setattr(scheduler, "run_due", lambda *a, **k: pytest.fail("the scheduler ran"))

    def robot_moves() -> list[dict[str, Any]]:
        return [h for h in LiveRound.objects.get().history if h["robot"]]

    async def scenario() -> None:
        phones = {token: phone(token) for token in humans.values()}
        views = {token: await opened(socket) for token, socket in phones.items()}
        for _ in range(8):  # until a human's move hands the turn to the robot
            mover, view = await database_sync_to_async(to_act)(humans)
            await phones[mover].send_json_to(
                {"type": "move", **choice_body(view, view["legal"][0])}
            )
            for token, socket in phones.items():  # each view, in order, up to a human's turn
                while True:
                    seen = await next_view(socket)
                    assert seen["move"] == views[token]["move"] + 1, (seen["move"], token)
                    views[token] = seen
                    if seen["to_act"] != robot.name:
                        break
            if await database_sync_to_async(robot_moves)():
                break
        made = await database_sync_to_async(robot_moves)()
        assert made, "the robot never had the turn"
        assert {(h["player"], h["reason"]) for h in made} == {(robot.name, "robot")}
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_round_ended_before_its_last_card_was_heard_shows_that_card_first(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A node commits a move and then publishes it; a scheduler may store the round and
    deal the next in between, and publish its views first. The phones of a node that
    had not heard the last card still get its view, then the deal's: the scheduler's
    step publishes the move it followed before its own views."""
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        held = {token: await opened(socket) for token, socket in phones.items()}
        mover, view = await database_sync_to_async(up_to_last_card)(tokens)
        for token, socket in phones.items():  # each phone's views up to the last card
            while held[token]["move"] != view["move"]:
                held[token] = await next_view(socket)
        last = held[mover]
        assert last["round"] == 1
        assert sum(last["counts"].values()) == 1

        # The last card written, its publish not out yet (nothing heard), the round's
        # end not taken with it.
        monkeypatch.setattr(play_services.push, "send", lambda *args, **kwargs: True)
        monkeypatch.setattr(play_services, "advance", lambda **kwargs: False)
        body = choice_body(view, view["legal"][0])
        await database_sync_to_async(play_services.move_make)(
            token=mover, move=body.pop("move"), action=body
        )
        monkeypatch.undo()
        table_id = await database_sync_to_async(
            lambda: LiveRound.objects.select_related("game").get().game.table_id
        )()
        assert await database_sync_to_async(play_services.advance)(table_id=table_id)

        for socket in phones.values():
            card = await next_view(socket)
            assert (card["round"], card["move"]) == (1, last["move"] + 1)
            assert sum(card["counts"].values()) == 0
            deal = await next_view(socket)
            assert deal["round"] == 2
            assert deal["move"] > card["move"]
            assert socket.output_queue.empty()  # type: ignore[attr-defined]
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.postgres
@pytest.mark.usefixtures("in_memory_layer")
def test_the_phones_on_the_movers_node_get_the_move_before_its_publish(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """On PostgreSQL, once the move is written the node sends its sockets their views
    and only then publishes it for the other nodes (play/node_io.py): with the publish
    held back, every phone here already has the move."""
    import asyncio

    from play import node_io

    tokens = tokens_of(online_session(4), director)
    published: list[str] = []
    publish = node_io.Links.publish

    async def scenario() -> None:
        release = asyncio.Event()

        async def held_back(self: Any, table_id: int, text: str, **kw: Any) -> None:
            await release.wait()
            published.append(text)
            await publish(self, table_id, text, **kw)

        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}
        mover, view = await database_sync_to_async(to_act)(tokens)
        monkeypatch.setattr(node_io.Links, "publish", held_back)
        await phones[mover].send_json_to({"type": "move", **choice_body(view, view["legal"][0])})
        got = {token: await next_view(socket) for token, socket in phones.items()}
        assert published == []
        assert all(seen["move"] == first[t]["move"] + 1 for t, seen in got.items())
        release.set()
        for _ in range(100):
            if published:
                break
            await asyncio.sleep(0.05)
        assert len(published) == 1
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)
