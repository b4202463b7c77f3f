"""What a node holds of a table between moves (play/node.py; docs/architecture.md, "A
move's path"): after a change made under the table's locks elsewhere, the change's own
state, or the rows read again; a copy read past a move it hears set back to that move's
state, within a round and across a round's end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from play import bus, selectors
from play import node as play_node
from play import services as play_services
from play.models import LiveRound
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


def heard_move(live: LiveRound) -> dict[str, Any]:
    """The message of the move that made the live round's state, as a node hears it."""
    return {
        "kind": "move",
        "live": live.pk,
        "move": live.move - 1,
        "state": live.state,
        "at": live.turn_started_at.timestamp(),
    }


def test_a_copy_read_past_the_move_heard_is_set_back_to_the_state_that_move_made(
    online_session: Any, director: Any
) -> None:
    """A node that read its table again while moves were still on their way to it (it
    was busy, or had just heard a deal) finds the row past the move it hears: set back
    by the move's message, its sockets get that move's view, then the next one's, and
    skip none."""
    from types import SimpleNamespace

    from play import taking

    tokens = tokens_of(online_session(4), director)
    a_move(tokens)
    first = LiveRound.objects.get()
    views_after_first = {t: selectors.seat_view(t) for t in tokens.values()}
    a_move(tokens)

    state = taking.read_table(first.game.table_id)
    assert state is not None
    assert state.live is not None
    assert state.live.move == first.move + 1  # read past the first move
    taking.rewind(state, heard_move(first))
    for player_id, token in state.tokens.items():
        view = taking.view_of(state, SimpleNamespace(player_id=player_id, token=token))
        assert view is not None
        expected = views_after_first[token]
        for key in ("move", "hand", "legal", "to_act", "trick", "phase", "turn_started_at"):
            assert view[key] == expected[key], (key, token)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_state_heard_twice_a_deals_views_then_a_late_move_is_sent_once(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A change's views, then a move's message whose read of the row already holds that
    change (the move's publish was late): each phone gets the state once, though the
    two renderings of it differ (the views were read at another moment: here, the same
    view written with other spacing)."""
    tokens = tokens_of(online_session(4), director)
    published: list[tuple[int, dict[str, Any]]] = []
    publish = bus.publish

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        for socket in phones.values():
            await opened(socket)
        monkeypatch.setattr(bus, "publish", lambda table_id, m: published.append((table_id, m)))
        mover, view = await database_sync_to_async(to_act)(tokens)
        body = choice_body(view, view["legal"][0])
        await database_sync_to_async(play_services.move_make)(
            token=mover, move=body.pop("move"), action=body
        )
        row = await database_sync_to_async(LiveRound.objects.get)()
        [(table_id, views)] = published
        assert views["kind"] == "views"
        assert tuple(views["mark"]) == (row.pk, row.move)
        late_move = {
            "kind": "move",
            "live": row.pk,
            "move": row.move - 1,
            "state": row.state,
            "player": row.history[-1]["player"],
            "action": row.history[-1]["action"],
            "entry": row.history[-1],
            "at": row.turn_started_at.timestamp(),
        }
        monkeypatch.setattr(bus, "publish", publish)
        views["views"] = {
            token: json.dumps(json.loads(text), indent=1) for token, text in views["views"].items()
        }

        bus.publish(table_id, views)
        got = {token: await next_view(socket) for token, socket in phones.items()}
        assert {seen["move"] for seen in got.values()} == {row.move}
        bus.publish(table_id, late_move)
        for socket in phones.values():
            assert await socket.receive_nothing(timeout=1)
            await socket.disconnect()

    run(scenario)


@pytest.mark.usefixtures("in_memory_layer")
def test_a_copy_set_back_by_a_late_move_is_read_again_before_the_next_move(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """Two moves made elsewhere (the scheduler's robots) whose views arrive before the
    message of a move this node took itself: the copy read again is set back to that
    move's state for its sockets, and must not stay there. The player to act at the
    row's state moves at once, and the move is taken: seen in a 250-table run, where the
    refusal (stale, with the set-back view) left the player waiting for good."""
    tokens = tokens_of(online_session(4), director)
    published: list[dict[str, Any]] = []
    publish = bus.publish

    async def scenario() -> None:
        phones = {token: phone(token) for token in tokens.values()}
        for socket in phones.values():
            await opened(socket)
        monkeypatch.setattr(bus, "publish", lambda table_id, m: published.append(m))
        states = []
        for _ in range(3):  # three moves whose messages this node has not heard yet
            mover, view = await database_sync_to_async(to_act)(tokens)
            body = choice_body(view, view["legal"][0])
            await database_sync_to_async(play_services.move_make)(
                token=mover, move=body.pop("move"), action=body
            )
            states.append(await database_sync_to_async(LiveRound.objects.get)())
        row = states[-1]
        monkeypatch.setattr(bus, "publish", publish)
        table_id = await database_sync_to_async(lambda: row.game.table_id)()
        first = row.history[-3]
        late_move = {  # the first move's own message, as the node that took it sends it
            "kind": "move",
            "live": row.pk,
            "move": first["move"],
            "player": first["player"],
            "action": first["action"],
            "entry": first,
            "state": states[0].state,
            "at": states[0].turn_started_at.timestamp(),
        }
        bus.publish(table_id, published[-1])  # the views of the row's state, first
        for socket in phones.values():
            assert (await next_view(socket))["move"] == row.move
        bus.publish(table_id, late_move)  # then the late message: nothing new to send
        for socket in phones.values():
            assert await socket.receive_nothing(timeout=0.5)

        mover, view = await database_sync_to_async(to_act)(tokens)
        assert view["move"] == row.move
        await phones[mover].send_json_to({"type": "move", **choice_body(view, view["legal"][0])})
        got = await next_view(phones[mover])
        assert got["move"] == row.move + 1, got  # taken, not refused with the old state
        for socket in phones.values():
            await socket.disconnect()

    run(scenario)


def test_a_copy_read_past_the_rounds_end_is_set_back_to_the_last_cards_view(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The same across a round's end: a node reads its table while the message of the
    round's last card is on its way, and the scheduler has stored the round and dealt
    the next on the same row meanwhile. Set back by the card's message, its sockets get
    the last card's view, of the round it ended, as a node that heard it in time sends."""
    from types import SimpleNamespace

    from play import scheduler, taking
    from tests.play.helpers import up_to_last_card

    tokens = tokens_of(online_session(4), director)
    token, view = up_to_last_card(tokens)
    body = choice_body(view, view["legal"][0])
    # The last card as the node takes it: the round's end is the scheduler's.
    monkeypatch.setattr(play_services, "advance", lambda **kwargs: False)
    play_services.move_make(token=token, move=body.pop("move"), action=body)
    monkeypatch.undo()
    last = LiveRound.objects.get()
    after_last = {t: selectors.seat_view(t) for t in tokens.values()}
    assert {v["phase"] for v in after_last.values()} == {"end"}

    assert scheduler.run_now([last.game.table_id]) == 1
    state = taking.read_table(last.game.table_id)
    assert state is not None
    assert state.live is not None
    assert (state.live.pk, state.live.number) == (last.pk, last.number + 1)  # dealt
    taking.rewind(state, heard_move(last))
    for player_id, token in state.tokens.items():
        seen = taking.view_of(state, SimpleNamespace(player_id=player_id, token=token))
        assert seen is not None
        assert seen == after_last[token]


@pytest.mark.usefixtures("in_memory_layer")
def test_a_node_whose_copy_is_stale_at_the_last_card_sends_its_view_after_the_deal(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The set-back across a round's end, on a node: its copy stale when the last
    card's message comes, and the next round dealt on the row already. Its phones get
    the last card's view (the round it ended), then the deal's."""
    from play import node as play_node
    from play import scheduler
    from tests.play.helpers import up_to_last_card

    tokens = tokens_of(online_session(4), director)
    published: list[dict[str, Any]] = []
    publish = bus.publish

    async def scenario() -> None:
        mover, view = await database_sync_to_async(up_to_last_card)(tokens)
        phones = {token: phone(token) for token in tokens.values()}
        for socket in phones.values():
            await opened(socket)
        monkeypatch.setattr(bus, "publish", lambda table_id, m, **more: published.append(m))
        monkeypatch.setattr(play_services, "advance", lambda **kwargs: False)
        body = choice_body(view, view["legal"][0])
        await database_sync_to_async(play_services.move_make)(
            token=mover, move=body.pop("move"), action=body
        )
        monkeypatch.undo()
        last = await database_sync_to_async(LiveRound.objects.get)()
        after_last = {
            t: await database_sync_to_async(selectors.seat_view)(t) for t in tokens.values()
        }
        table_id = await database_sync_to_async(lambda: last.game.table_id)()
        monkeypatch.setattr(bus, "publish", lambda table_id, m, **more: published.append(m))
        assert await database_sync_to_async(scheduler.run_now)([table_id]) == 1
        monkeypatch.setattr(bus, "publish", publish)

        play_node.node().mark_stale(table_id)
        entry = last.history[-1]
        bus.publish(
            table_id,
            {
                **heard_move(last),
                "player": entry["player"],
                "action": entry["action"],
                "entry": entry,
            },
        )
        for token, socket in phones.items():
            assert await next_view(socket) == after_last[token]
        bus.publish(table_id, published[-1])  # the deal's views
        for socket in phones.values():
            dealt = await next_view(socket)
            assert (dealt["round"], dealt["move"]) == (last.number + 1, last.move + 1)
            await socket.disconnect()

    run(scenario)
