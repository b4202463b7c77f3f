"""The seat pushes reach a node's sockets on one channel of the channel layer for the
whole node (play/seat_push.py; issue 31): no socket has a channel of its own, a group
holds the node's channel once however many of its sockets are in it, and each socket
gets what its group is sent, in order, from its first view until it leaves. In process,
on the in-memory channel layer, whose groups can be looked at.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import override_settings

from play import bus, push, seat_push, selectors
from play import node as play_node
from play.models import SeatLink
from tests.play.conftest import tokens_of
from tests.play.seat_changes import at_table, place_of, sitting_played, table_id
from tests.play.sockets import next_view, opened, phone, run, watcher
from workflow.session import movements, withdrawals

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def player_of(token: str) -> int:
    return SeatLink.objects.get(token=token).player_id


async def pushed_to(
    session_id: int, *, players: Collection[int] = (), tables: Collection[int] = ()
) -> None:
    """The seats of `players` and `tables` pushed as they are now, as after a change."""
    await database_sync_to_async(push.seats_changed)(
        None, session_id=session_id, player_ids=frozenset(players), table_ids=frozenset(tables)
    )


def channels_of_groups() -> dict[str, set[str]]:
    """Each group of the channel layer and the channels in it."""
    return {group: set(members) for group, members in get_channel_layer().groups.items()}


def held_at(socket_of: Any) -> set[int]:
    """The tables this loop's node holds the consumer at."""
    here = play_node.node()
    return {table for table, held in here.tables.items() if socket_of in held.sockets}


def test_no_socket_has_a_channel_and_every_group_holds_the_nodes_one_channel(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    first, second = table_id(session, 1), table_id(session, 2)

    async def scenario() -> None:
        phones = [phone(token) for token in tokens.values()]
        watchers = [watcher(first), watcher(second)]
        for socket in [*phones, *watchers]:
            await opened(socket)
        here = play_node.node()
        consumers = [s for held in here.tables.values() for s in held.sockets]
        assert len(consumers) == len(phones) + len(watchers)
        for consumer in consumers:
            assert consumer.channel_layer is None
            assert not hasattr(consumer, "channel_name")
        groups = channels_of_groups()
        expected = {f"play.{t}" for t in tokens.values()} | {f"watch.{first}", f"watch.{second}"}
        assert set(groups) == expected
        (channel,) = set.union(*groups.values())  # one channel for the whole node
        assert all(members == {channel} for members in groups.values())
        for socket in [*phones, *watchers]:
            await socket.disconnect()
        assert channels_of_groups() == {}
        assert here.tables == {}

    run(scenario)


def test_two_sockets_of_one_token_both_get_a_push_until_each_leaves(
    online_session: Any, director: Any
) -> None:
    """A phone reconnecting while its old socket is still open: both get the push; the
    one that left gets nothing more, the other still does; the group empties when the
    last leaves."""
    session = online_session(8)
    tokens = tokens_of(session, director)
    token = next(iter(at_table(tokens, 1).values()))
    others = list(at_table(tokens, 2).values())  # a push to the player reaches their table
    player, other = player_of(token), player_of(others[0])

    async def scenario() -> None:
        old, new = phone(token), phone(token)
        await opened(old)
        await opened(new)
        quiet = [phone(t) for t in others]
        for socket in quiet:
            await opened(socket)
        group = f"play.{token}"
        assert len(channels_of_groups()[group]) == 1

        await pushed_to(session.pk, players=[player])
        now = await database_sync_to_async(selectors.seat_view)(token)
        assert await next_view(old) == now
        assert await next_view(new) == now

        await old.disconnect()
        assert len(channels_of_groups()[group]) == 1  # the other socket is still in it
        await pushed_to(session.pk, players=[player])
        assert await next_view(new) == now
        assert await old.receive_nothing(timeout=0.3)
        for socket in quiet:
            assert await socket.receive_nothing(timeout=0.1)

        await new.disconnect()
        assert group not in channels_of_groups()
        # Pushed to a token with no socket left: nothing happens, and the node's channel
        # still carries the others' pushes.
        await pushed_to(session.pk, players=[player])
        await pushed_to(session.pk, players=[other])
        assert await next_view(quiet[0]) == await database_sync_to_async(selectors.seat_view)(
            others[0]
        )
        for socket in quiet:
            await socket.disconnect()
        assert channels_of_groups() == {}

    run(scenario)


def test_every_watcher_of_a_table_gets_its_push_and_no_other_table_does(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens_of(session, director)
    first, second = table_id(session, 1), table_id(session, 2)

    async def scenario() -> None:
        projector, director_view, other = watcher(first), watcher(first), watcher(second)
        for socket in (projector, director_view, other):
            await opened(socket)
        await pushed_to(session.pk, tables=[first])
        now = await database_sync_to_async(selectors.watch_view)(first)
        assert await next_view(projector) == now
        assert await next_view(director_view) == now
        assert await other.receive_nothing(timeout=0.3)

        await projector.disconnect()
        await pushed_to(session.pk, tables=[first])
        assert await next_view(director_view) == now
        assert await projector.receive_nothing(timeout=0.3)
        for socket in (director_view, other):
            await socket.disconnect()
        assert channels_of_groups() == {}

    run(scenario)


def test_a_message_for_no_group_of_the_node_is_dropped_and_the_reader_reads_on(
    online_session: Any, director: Any, caplog: Any
) -> None:
    session = online_session(4)
    token = next(iter(tokens_of(session, director).values()))

    async def scenario() -> None:
        socket = phone(token)
        await opened(socket)
        pushes = play_node.node().pushes
        layer = get_channel_layer()
        await layer.send(pushes.channel, {"type": "play.view", "text": "{}"})  # no group
        await layer.send(pushes.channel, {"type": "play.view", "group": "play.gone"})
        assert await socket.receive_nothing(timeout=0.3)
        await pushed_to(session.pk, players=[await database_sync_to_async(player_of)(token)])
        assert await next_view(socket) == await database_sync_to_async(selectors.seat_view)(token)
        await socket.disconnect()

    run(scenario)
    assert "not handed on" not in caplog.text


def test_a_change_of_seats_while_the_socket_connects_is_taken_after_its_first_view(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The player is withdrawn after the socket joined its group, before its view is read:
    the push waits for the first view, and the socket then leaves the table it was
    joining. Taken at once, it would leave before the join and be held there for good."""
    session = online_session(8)
    tokens = tokens_of(session, director)
    token = next(iter(at_table(tokens, 1).values()))
    player = player_of(token)
    real_join = play_node.Node.join
    withdrawn: list[bool] = []

    async def join(self: Any, table: int, socket: Any) -> bool:
        if not withdrawn and getattr(socket, "token", "") == token:
            withdrawn.append(True)
            await database_sync_to_async(withdrawals.session_withdraw)(
                session_id=session.pk, player_id=player, user=director
            )
            await asyncio.sleep(0.3)  # the push has reached the node
        return await real_join(self, table, socket)

    monkeypatch.setattr(play_node.Node, "join", join)

    async def scenario() -> None:
        socket = phone(token)
        first = await opened(socket)
        assert first["status"] == "not_seated"  # read after the change
        assert (await next_view(socket))["status"] == "not_seated"  # the push, after it
        await asyncio.sleep(0.1)
        (consumer,) = play_node.node().pushes.groups[f"play.{token}"].sockets
        assert held_at(consumer) == set()
        await socket.disconnect()
        assert play_node.node().tables == {}
        assert channels_of_groups() == {}

    run(scenario)
    assert withdrawn


def test_after_the_nodes_channel_fails_each_socket_reads_its_place_again(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """A push lost while the channel layer was down (Redis gone): once it answers again,
    the node's sockets read their place again and follow it."""
    session = online_session(8)
    tokens = tokens_of(session, director)
    token = next(iter(at_table(tokens, 1).values()))
    watched = table_id(session, 1)
    player = player_of(token)
    monkeypatch.setattr(seat_push, "RETRY_SECONDS", 0.05)

    async def scenario() -> None:
        layer = get_channel_layer()
        receive = layer.receive

        async def failing(channel: str) -> dict[str, Any]:
            message: dict[str, Any] = await receive(channel)
            if message.get("type") == "down":
                raise ConnectionError("the channel layer is down")
            return message

        monkeypatch.setattr(layer, "receive", failing)  # before the node's reader starts
        socket, projector = phone(token), watcher(watched)
        await opened(socket)
        await opened(projector)
        # Redis gone: the push is lost, and so is what the change publishes to its table.
        monkeypatch.setattr(push, "_run", lambda coroutine, layer: coroutine.close())
        monkeypatch.setattr(bus, "publish", lambda *args, **kwargs: None)
        await database_sync_to_async(withdrawals.session_withdraw)(
            session_id=session.pk, player_id=player, user=director
        )
        assert await socket.receive_nothing(timeout=0.3)
        assert await projector.receive_nothing(timeout=0.1)
        await layer.send(play_node.node().pushes.channel, {"type": "down"})

        view = await next_view(socket)
        assert view == await database_sync_to_async(selectors.seat_view)(token)
        assert view["status"] == "not_seated"
        watched_now = await next_view(projector)
        assert watched_now == await database_sync_to_async(selectors.watch_view)(watched)
        assert len(watched_now["players"]) == 3
        for each in (socket, projector):
            await each.disconnect()
        assert play_node.node().tables == {}

    run(scenario)


def test_a_socket_that_leaves_while_it_follows_its_player_is_held_nowhere_after(
    online_session: Any, director: Any, monkeypatch: Any
) -> None:
    """The movement's push sends the view, then the socket joins its new table (slow
    here); the phone closes meanwhile. Its leave waits for the join, then leaves that
    table: nothing holds the socket once it is gone, and no push reaches it after."""
    session = online_session(8)
    tokens = tokens_of(session, director)
    token = next(iter(tokens.values()))
    sitting_played(session)
    first_table = table_id(session, place_of(token)[1])  # type: ignore[index]
    player = player_of(token)
    real_join = play_node.Node.join

    async def join(self: Any, table: int, socket: Any) -> bool:
        if getattr(socket, "token", "") == token and table != first_table:
            await asyncio.sleep(0.5)
        return await real_join(self, table, socket)

    monkeypatch.setattr(play_node.Node, "join", join)

    async def scenario() -> None:
        socket = phone(token)
        await opened(socket)
        await database_sync_to_async(movements.sitting_move_players)(
            session_id=session.pk, sitting_number=1, user=director
        )
        assert (await next_view(socket))["sitting"] == 2  # the push; now it follows
        await socket.disconnect()
        await asyncio.sleep(0.7)  # past the join it was on
        assert play_node.node().tables == {}
        assert channels_of_groups() == {}
        while not await socket.receive_nothing(timeout=0.1):
            await socket.receive_output()  # what the join sent before the leave ended
        await pushed_to(session.pk, players=[player])
        assert await socket.receive_nothing(timeout=0.3)

    run(scenario)


def test_without_a_channel_layer_a_phone_still_connects_and_leaves(
    online_session: Any, director: Any, settings: Any
) -> None:
    """No channel layer (Channels not configured): no push, the phones that poll read the
    same views; a socket opens with its view and closes as ever."""
    settings.CHANNEL_LAYERS = {}
    session = online_session(4)
    token = next(iter(tokens_of(session, director).values()))

    async def scenario() -> None:
        socket = phone(token)
        assert await opened(socket) == await database_sync_to_async(selectors.seat_view)(token)
        await socket.disconnect()
        assert play_node.node().tables == {}

    run(scenario)


class Listener:
    """A socket of the node in one group, keeping what it is handed."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    async def seats_pushed(self, event: dict[str, Any]) -> None:
        self.events.append(event)


@pytest.mark.parametrize("layers", ["in memory", "as configured"])
def test_a_movement_that_pushes_to_many_sockets_of_one_node_loses_none(layers: str) -> None:
    """A movement sends one push to each phone at once, all on the node's one channel: a
    channel holds them all (past the layers' default of 100 waiting, a push would be
    dropped). On the in-memory layer, and on the configured one (Redis under CI)."""
    from huckley import settings as configured

    count = 300
    groups = [f"play.many-{n}" for n in range(count)]
    listeners = [Listener() for _ in groups]

    async def scenario() -> None:
        pushes = seat_push.SeatPushes(asyncio.get_running_loop())
        for group, listener in zip(groups, listeners, strict=True):
            await pushes.join(group, listener)
            pushes.ready(listener)
        layer = get_channel_layer()
        await asyncio.gather(
            *(layer.group_send(g, push.message(g, {"n": g})) for g in groups)  # at once
        )
        for _ in range(200):
            if all(listener.events for listener in listeners):
                break
            await asyncio.sleep(0.05)
        for group, listener in zip(groups, listeners, strict=True):
            await pushes.leave(group, listener)

    if layers == "in memory":
        run(scenario)
    else:
        with override_settings(CHANNEL_LAYERS=configured.CHANNEL_LAYERS):
            run(scenario)
    got = [[json.loads(e["text"])["view"]["n"] for e in listener.events] for listener in listeners]
    assert got == [[group] for group in groups]
