"""Moves over the socket (docs/api.md, "WebSocket"): `{"type": "move", ...}` on a phone's
`/ws/play/<token>/`, the same body as `POST /api/play/{seat_token}/moves/` through the
same service. The sender gets its new view once, the table's other phones theirs; a
stale move is refused with the view, an illegal one with the engine's code, on that
socket only, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from play import selectors
from play.models import LiveRound
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body
from tests.play.sockets import TIMEOUT, next_view, opened, phone, run
from tests.play.test_websocket import to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def test_a_move_sent_on_the_socket_reaches_every_phone_once(
    online_session: Any, director: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}
        mover, view = await database_sync_to_async(to_act)(tokens)
        body = choice_body(view, view["legal"][0])

        await phones[mover].send_json_to({"type": "move", **body})

        for token, socket in phones.items():
            got = await next_view(socket)
            assert got["move"] == first[token]["move"] + 1
            assert got == await database_sync_to_async(selectors.seat_view)(token)
        for socket in phones.values():
            assert await socket.receive_nothing(timeout=0.3)  # once, not twice
            await socket.disconnect()

    run(scenario)


def test_a_stale_move_is_refused_with_the_view_and_changes_nothing(
    online_session: Any, director: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        socket = phone(mover)
        await opened(socket)
        body = {**choice_body(view, view["legal"][0]), "move": view["move"] - 1}
        before = await database_sync_to_async(lambda: LiveRound.objects.get().move)()

        await socket.send_json_to({"type": "move", **body})
        answer = await socket.receive_json_from(timeout=TIMEOUT)

        assert answer["type"] == "refused"
        assert answer["code"] == "stale_move"
        assert answer["message"] == (  # one plain sentence, said once
            "Too late: the table had moved on; here is where it stands now."
        )
        assert answer["view"] == await database_sync_to_async(selectors.seat_view)(mover)
        assert await database_sync_to_async(lambda: LiveRound.objects.get().move)() == before
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()

    run(scenario)


def test_an_illegal_move_is_refused_in_the_games_words_on_that_socket_only(
    online_session: Any, director: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        others = [phone(t) for t in tokens.values() if t != mover]
        for other in others:
            await opened(other)
        socket = phone(mover)
        await opened(socket)
        not_mine = "ZZ" if view["phase"] == "play" else None
        body = {"move": view["move"], "action": "play" if not_mine else "nonsense"}
        if not_mine:
            body["card"] = not_mine

        await socket.send_json_to({"type": "move", **body})
        answer = await socket.receive_json_from(timeout=TIMEOUT)

        assert answer["type"] == "refused"
        assert answer["code"] not in ("stale_move", "not_your_turn")
        assert answer["message"]
        assert "view" not in answer
        for other in others:
            assert await other.receive_nothing(timeout=0.2)
            await other.disconnect()
        await socket.disconnect()

    run(scenario)


def test_a_move_out_of_turn_and_a_body_without_its_number_are_refused(
    online_session: Any, director: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        waiting = next(t for t in tokens.values() if t != mover)
        socket = phone(waiting)
        await opened(socket)
        await socket.send_json_to({"type": "move", **choice_body(view, view["legal"][0])})
        answer = await socket.receive_json_from(timeout=TIMEOUT)
        assert (answer["type"], answer["code"]) == ("refused", "not_your_turn")
        assert answer["view"]["player"] != view["player"]

        await socket.send_json_to({"type": "move", "action": "play"})
        answer = await socket.receive_json_from(timeout=TIMEOUT)
        assert (answer["type"], answer["code"]) == ("refused", "invalid_input")
        await socket.disconnect()

    run(scenario)


def test_the_same_move_sent_twice_answers_the_view_and_is_taken_once(
    online_session: Any, director: Any
) -> None:
    tokens = tokens_of(online_session(4), director)

    async def scenario() -> None:
        mover, view = await database_sync_to_async(to_act)(tokens)
        socket = phone(mover)
        await opened(socket)
        body = {"type": "move", **choice_body(view, view["legal"][0])}
        await socket.send_json_to(body)
        once = await next_view(socket)
        await socket.send_json_to(body)
        again = await next_view(socket)
        assert again["move"] == once["move"] == view["move"] + 1
        await socket.disconnect()

    run(scenario)
