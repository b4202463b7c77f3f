"""The WebSocket side of online play (api/consumers.py, huckley/asgi.py; docs/api.md,
"WebSocket: /ws/play/{seat_token}/"), in process: the whole ASGI application with
Channels' test communicator, on the in-memory channel layer, against the real play app.

Each test is a coroutine run by `async_to_sync`, so the consumers' database calls run in
the test's own thread; the tests are transactional, so a move's push (on commit) goes
out as in production.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from api.consumers import CLOSE_NOT_FOUND
from huckley.asgi import application
from play import presence, selectors, services
from play.models import LiveRound
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, look, to_act
from tests.play.sockets import ORIGIN, TIMEOUT, next_view, opened, phone, run, watcher
from tournaments.models import Session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def table_of(session: Session) -> int:
    return Game.objects.get(table__sitting__session=session, number=1).table_id


def hands_held(tokens: dict[str, str]) -> set[str]:
    """Every card still in a hand at the table."""
    return {card for token in tokens.values() for card in selectors.seat_view(token)["hand"]}


def a_move(tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The seat to act makes its first legal move (through the service, as the POST
    does); its token and its new view."""
    token, view = to_act(tokens)
    body = choice_body(view, view["legal"][0])
    return token, services.move_make(token=token, move=body.pop("move"), action=body).view


def test_a_phone_gets_its_view_on_connect(online_session: Any, director: Any) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    name, token = next(iter(tokens.items()))

    async def scenario() -> None:
        socket = phone(token)
        view = await opened(socket)
        assert view == await database_sync_to_async(selectors.seat_view)(token)
        assert view["player"] == name
        assert view["status"] == "playing"
        assert len(view["hand"]) > 0
        await socket.disconnect()

    run(scenario)


def test_a_move_reaches_the_other_three_phones_and_the_watcher(
    online_session: Any, director: Any
) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    table_id = table_of(session)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}
        watch = watcher(table_id)
        watched = await opened(watch)
        assert watched["move"] == first[next(iter(first))]["move"]

        mover, answer = await database_sync_to_async(a_move)(tokens)
        for token, socket in phones.items():
            view = await next_view(socket)
            assert view["move"] == first[token]["move"] + 1
            # Each phone gets its own seat's view, as a read gives it now.
            assert view == await database_sync_to_async(selectors.seat_view)(token)
            if token == mover:
                assert view == answer
        view = await next_view(watch)
        assert view["move"] == watched["move"] + 1
        assert view == await database_sync_to_async(selectors.watch_view)(table_id)
        for socket in [*phones.values(), watch]:
            assert await socket.receive_nothing(timeout=0.2)
            await socket.disconnect()

    run(scenario)


def test_an_open_socket_is_one_task_of_its_server(online_session: Any, director: Any) -> None:
    """A socket waits on its client's frames in its own task, the one the server runs it
    in (api.consumers `__call__`), with no second task of Channels' beside it: a node
    holds a socket for every phone of a night."""
    session = online_session(4)
    tokens = tokens_of(session, director)
    table_id = table_of(session)

    async def scenario() -> None:
        phones = [phone(token) for token in tokens.values()]
        await opened(phones[0])  # the node starts its own reader of the seats' pushes
        await asyncio.sleep(0.1)
        before = len(asyncio.all_tasks())
        for socket in phones[1:]:
            await opened(socket)
        watch = watcher(table_id)
        await opened(watch)
        await asyncio.sleep(0.1)  # nothing else of the node's is under way
        # One task each: the communicator's, in which it runs the application.
        assert len(asyncio.all_tasks()) - before == len(phones)
        await phones[0].send_json_to({"type": "ping"})
        assert await phones[0].receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
        assert len(asyncio.all_tasks()) - before == len(phones)
        for socket in [*phones, watch]:
            await socket.disconnect()

    run(scenario)


def test_a_watcher_never_receives_a_hand(online_session: Any, director: Any) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    table_id = table_of(session)

    async def scenario() -> None:
        watch = watcher(table_id)
        connected, _ = await watch.connect(timeout=TIMEOUT)
        assert connected
        for _ in range(6):  # the view on connect and after each of five moves
            view = json.loads(await watch.receive_from(timeout=TIMEOUT))["view"]
            assert view["hand"] is None
            held = await database_sync_to_async(hands_held)(tokens)
            assert held
            # No card still in a hand appears anywhere in what the watcher got.
            text = json.dumps(view)
            assert not [card for card in held if f'"{card}"' in text], view
            await database_sync_to_async(a_move)(tokens)
        await watch.disconnect()

    run(scenario)


def test_an_unknown_seat_or_table_is_refused_with_4404(online_session: Any) -> None:
    online_session(4)

    async def scenario() -> None:
        for socket in (phone("no-such-token"), watcher(999999)):
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert connected  # accepted, then closed at once with the code
            closed = await socket.receive_output(timeout=TIMEOUT)
            assert closed == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}

    run(scenario)


def test_a_foreign_origin_is_refused(online_session: Any, director: Any) -> None:
    token = next(iter(tokens_of(online_session(4), director).values()))

    async def scenario() -> None:
        socket = phone(token, origin=(b"origin", b"http://evil.example"))
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert not connected

    run(scenario)


def test_ping_is_answered_pong_and_marks_the_player_present(
    online_session: Any, director: Any
) -> None:
    token = next(iter(tokens_of(online_session(4), director).values()))

    async def scenario() -> None:
        socket = phone(token)
        await opened(socket)
        before = await database_sync_to_async(presence.last_seen)(token)
        assert before is not None
        await asyncio.sleep(0.05)
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
        after = await database_sync_to_async(presence.last_seen)(token)
        assert after is not None
        assert after > before
        await socket.disconnect()

    run(scenario)


def test_what_the_socket_does_not_take_is_answered_and_the_socket_stays_open(
    online_session: Any, director: Any
) -> None:
    token = next(iter(tokens_of(online_session(4), director).values()))

    async def scenario() -> None:
        socket = phone(token)
        await opened(socket)
        for sent, code in [
            ("not json", "bad_message"),
            ("x" * 2000, "bad_message"),
            ('{"type": "hello"}', "unknown_type"),
            ("[1, 2]", "unknown_type"),
        ]:
            await socket.send_to(text_data=sent)
            answer = await socket.receive_json_from(timeout=TIMEOUT)
            assert answer["type"] == "error"
            assert answer["code"] == code
            assert answer["message"]
        await socket.send_to(bytes_data=b"\x00\x01")
        assert (await socket.receive_json_from(timeout=TIMEOUT))["code"] == "bad_message"
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
        await socket.disconnect()

    run(scenario)


def test_a_phone_that_reconnects_gets_the_whole_state(online_session: Any, director: Any) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    token = next(iter(tokens.values()))

    async def scenario() -> None:
        socket = phone(token)
        first = await opened(socket)
        await socket.disconnect()
        for _ in range(3):  # the table plays on while the phone is away
            await database_sync_to_async(a_move)(tokens)
        again = phone(token)
        view = await opened(again)
        assert view["move"] == first["move"] + 3
        assert view == await database_sync_to_async(selectors.seat_view)(token)
        # And it carries on: the next move reaches it.
        await database_sync_to_async(a_move)(tokens)
        assert (await next_view(again))["move"] == first["move"] + 4
        await again.disconnect()

    run(scenario)


def test_the_schedulers_robot_move_reaches_the_watcher_with_nobody_asking(
    online_session: Any, director: Any
) -> None:
    """Nobody reads or moves: once the absent player's grace time has run out, the
    scheduler's look makes the robot's move, and it is pushed to the open socket."""
    session = online_session(4)
    Session.objects.filter(pk=session.pk).update(online_grace_seconds=5)
    table_id = table_of(session)

    async def scenario() -> None:
        watch = watcher(table_id)
        first = await opened(watch)
        assert first["to_act"] is not None
        await database_sync_to_async(LiveRound.objects.update)(
            turn_started_at=timezone.now() - timedelta(seconds=10)
        )
        await database_sync_to_async(look)(table_id)
        view = await next_view(watch)
        assert view["move"] > first["move"]
        await watch.disconnect()

    run(scenario)


def signed_in(user: Any) -> tuple[bytes, bytes]:
    """The cookie header of a browser signed in as `user`."""
    browser = Client()
    browser.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return (b"cookie", f"{name}={browser.cookies[name].value}".encode())


def signed_in_watcher(table_id: int, cookie: tuple[bytes, bytes]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/watch/{table_id}/", headers=[ORIGIN, cookie])


async def refused(socket: WebsocketCommunicator) -> bool:
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    output = await socket.receive_output(timeout=TIMEOUT)
    return output == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}


def test_a_duplicate_sittings_tables_are_watched_by_its_directors_only(
    online_session: Any, director: Any
) -> None:
    """The cards on a table of a duplicate sitting may not have been played at another
    yet (docs/tournament.md, "Duplicate deals"): the socket answers as for no table."""
    table_id = table_of(online_session(4, duplicate=True))
    cookie = signed_in(director)

    async def scenario() -> None:
        assert await refused(watcher(table_id))
        view = await opened(signed_in_watcher(table_id, cookie))
        assert view["hand"] is None
        assert view["table"] == 1

    run(scenario)


def test_a_private_sessions_tables_are_not_watched_by_the_public(
    online_session: Any, director: Any
) -> None:
    session = online_session(4)
    Session.objects.filter(pk=session.pk).update(is_public=False)
    table_id = table_of(session)
    cookie = signed_in(director)

    async def scenario() -> None:
        assert await refused(watcher(table_id))
        assert (await opened(signed_in_watcher(table_id, cookie)))["hand"] is None

    run(scenario)
