"""What a node holds of a table between moves (play/node.py; docs/architecture.md, "A
move's path"): after a change made under the table's locks elsewhere, the change's own
state, or the rows read again."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from play import bus, selectors
from play import node as play_node
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body
from tests.play.sockets import next_view, opened, phone, run
from tests.play.test_websocket import a_move, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_change_s_own_state_becomes_the_node_s_copy_and_no_row_is_read(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A change under the table's locks (here a move over HTTP, as a deal or a round's
    end) publishes its views with the state they were made from: a node whose copy was
    current takes that state as its copy, and the next move on its sockets is checked
    and sent from it, with no read of the table, each view as the rows give it."""
    tokens = tokens_of(online_session(4), director)
    reads: list[int] = []
    read = play_node.read_table

    def counted(table_id: int) -> Any:
        reads.append(table_id)
        return read(table_id)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        first = {token: await opened(socket) for token, socket in phones.items()}
        monkeypatch.setattr(play_node, "read_table", counted)

        await database_sync_to_async(a_move)(tokens)
        heard = {token: await next_view(socket) for token, socket in phones.items()}
        mover, view = await database_sync_to_async(to_act)(tokens)
        body = choice_body(view, view["legal"][0])
        await phones[mover].send_json_to({"type": "move", **body})
        got = {token: await next_view(socket) for token, socket in phones.items()}

        assert reads == []
        for token, seen in got.items():
            assert heard[token]["move"] == first[token]["move"] + 1
            assert seen["move"] == first[token]["move"] + 2
            assert seen == await database_sync_to_async(selectors.seat_view)(token)
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_change_s_views_without_its_state_have_the_rows_read_before_the_next_move(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The same change published without its state (an earlier server's message, or a
    state that does not read): the node reads the table again before the next move."""
    tokens = tokens_of(online_session(4), director)
    reads: list[int] = []
    read = play_node.read_table
    publish = bus.publish

    def counted(table_id: int) -> Any:
        reads.append(table_id)
        return read(table_id)

    def stateless(table_id: int, message: dict[str, Any], **more: Any) -> None:
        message.pop("table", None)
        publish(table_id, message, **more)

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        for socket in phones.values():
            await opened(socket)
        monkeypatch.setattr(play_node, "read_table", counted)
        monkeypatch.setattr(bus, "publish", stateless)

        await database_sync_to_async(a_move)(tokens)
        for socket in phones.values():
            await next_view(socket)
        mover, view = await database_sync_to_async(to_act)(tokens)
        body = choice_body(view, view["legal"][0])
        await phones[mover].send_json_to({"type": "move", **body})
        got = {token: await next_view(socket) for token, socket in phones.items()}

        assert len(reads) == 1
        for token, seen in got.items():
            assert seen == await database_sync_to_async(selectors.seat_view)(token)
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)
