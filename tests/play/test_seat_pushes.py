"""Everything that changes a seat is pushed (issue 30; docs/api.md, "WebSocket"), on one
node: the whole ASGI application with Channels' test communicator on the in-memory
channel layer. Each open `/ws/play/<token>/` of an affected player receives, with no
request of its own, the view of the player's new place, as a read gives it now; each
watcher of an affected table its view; the others receive nothing.

The writes run in the scenario's thread, as a request would, and the tests are
transactional, so the push goes out on commit as in production.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Collection, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connections

from play import director as play_director
from play import push, seats, selectors
from play import services as play_services
from play.models import SeatLink
from scoring import services as scoring
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.seat_changes import (
    at_table,
    bottom_table_short,
    place_of,
    round_played,
    shown_place,
    sitting_played,
    table_id,
)
from tests.play.sockets import next_view, opened, phone, run, watcher
from tests.scoring.helpers import split
from workflow.session import movements, services, start_finish, withdrawals

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]

Views = dict[Any, dict[str, Any]]


def pushed(
    write: Callable[[], object],
    *,
    phones: Collection[str],
    tables: Collection[int] = (),
    quiet: Collection[str] = (),
    quiet_tables: Collection[int] = (),
) -> tuple[Views, Views, Views]:
    """Open the sockets of `phones` and `quiet` (seat tokens) and the watchers of `tables`
    and `quiet_tables`, make the write, and take the view each of `phones` and `tables`
    receives; the others must receive nothing. The views on connect, the phones' views
    pushed and the watchers' views pushed."""
    first: Views = {}
    got: Views = {}
    watched: Views = {}

    async def scenario() -> None:
        sockets = {token: phone(token) for token in [*phones, *quiet]}
        for token, socket in sockets.items():
            first[token] = await opened(socket)
        watchers = {table: watcher(table) for table in [*tables, *quiet_tables]}
        for socket in watchers.values():
            await opened(socket)
        await database_sync_to_async(write)()
        # Every socket is listened to at once: the quiet moments run side by side.
        listened, silent = [*phones], [*quiet, *quiet_tables]
        every: dict[Any, Any] = {**sockets, **watchers}  # tokens and table ids never meet
        phone_views, table_views, nothing = await asyncio.gather(
            asyncio.gather(*(latest(sockets[token]) for token in listened)),
            asyncio.gather(*(latest(watchers[table]) for table in tables)),
            asyncio.gather(*(every[key].receive_nothing(timeout=0.3) for key in silent)),
        )
        got.update(zip(listened, phone_views, strict=True))
        watched.update(zip(tables, table_views, strict=True))
        for key, heard_nothing in zip(silent, nothing, strict=True):
            assert heard_nothing, f"{key} heard of a change"
        for socket in [*sockets.values(), *watchers.values()]:
            await socket.disconnect()

    run(scenario)
    return first, got, watched


async def latest(socket: Any) -> dict[str, Any]:
    """The view pushed after the change, and the last of those that follow it at once (a
    table the change left with a round to deal is dealt by the scheduler just after the
    change's own push)."""
    view = await next_view(socket)
    while not await socket.receive_nothing(timeout=0.3):
        view = await next_view(socket)
    return view


def as_read_now(views: Views) -> None:
    """Each pushed view is the seat's view as a read gives it now, at the player's place
    as the rows say."""
    for token, view in views.items():
        assert view == selectors.seat_view(token)
        assert shown_place(view) == place_of(token)


def setup(step: Callable[[], object]) -> None:
    """A preparation that pushes (a move, a deal), in a thread of its own as a request."""

    async def scenario() -> None:
        await database_sync_to_async(step)()

    run(scenario)


def player_of(token: str) -> int:
    return SeatLink.objects.get(token=token).player_id


def test_the_movement_moves_every_open_phone_to_its_new_table(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    sitting_played(session)
    elsewhere = tokens_of(online_session(4, seed=9), director)

    first, got, _ = pushed(
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=director
        ),
        phones=tokens.values(),
        quiet=[next(iter(elsewhere.values()))],
    )
    as_read_now(got)
    assert {view["sitting"] for view in got.values()} == {2}
    moved = [t for t in got if got[t]["table"] != first[t]["table"]]
    assert moved, "the movement moved nobody to another table"


def test_the_undo_takes_every_open_phone_back_to_its_table(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    sitting_played(session)
    setup(
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=director
        )
    )
    back_to = table_id(session, 1, sitting=1)

    first, got, watched = pushed(
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=director),
        phones=tokens.values(),
        tables=[back_to],
    )
    assert {view["sitting"] for view in first.values()} == {2}
    as_read_now(got)
    assert {view["sitting"] for view in got.values()} == {1}
    assert watched[back_to] == selectors.watch_view(back_to)


def test_a_rebalance_moves_the_phones_of_the_tables_it_touches_only(
    online_session: Any, director: Any
) -> None:
    session = online_session(12)
    tokens = tokens_of(session, director)
    left: list[list[str]] = []
    setup(lambda: left.append(bottom_table_short(session, tokens, 3)))
    (gone,) = left
    proposal = [
        (m.player, m.from_rank, m.to_rank) for m in movements.rebalance_proposal(session=session)
    ]
    assert [(rank, to) for _, rank, to in proposal] == [(2, 3)]
    (mover,) = [t for t in tokens.values() if player_of(t) == proposal[0][0]]
    touched = [*at_table(tokens, 2).values(), *at_table(tokens, 3).values()]
    untouched = [*at_table(tokens, 1).values(), *(tokens[name] for name in gone)]

    first, got, watched = pushed(
        lambda: movements.session_rebalance(
            session_id=session.pk, expected=proposal, user=director
        ),
        phones=touched,
        tables=[table_id(session, 2), table_id(session, 3)],
        quiet=untouched,
        quiet_tables=[table_id(session, 1)],
    )
    as_read_now(got)
    assert (first[mover]["table"], got[mover]["table"]) == (2, 3)
    for table, view in watched.items():
        assert view == selectors.watch_view(table)


def test_a_withdrawal_clears_the_seat_and_tells_its_table(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    first_table = at_table(tokens, 1)
    leaver = first_table.pop(sorted(first_table)[0])

    _, got, watched = pushed(
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_of(leaver), user=director
        ),
        phones=[leaver, *first_table.values()],
        tables=[table_id(session, 1)],
        quiet=at_table(tokens, 2).values(),
        quiet_tables=[table_id(session, 2)],
    )
    as_read_now(got)
    assert got[leaver]["status"] == "not_seated"
    for token in first_table.values():
        assert len(got[token]["players"]) == 3
    assert len(watched[table_id(session, 1)]["players"]) == 3


def test_a_substitute_takes_the_seat_and_both_phones_follow(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    first_table, second_table = at_table(tokens, 1), at_table(tokens, 2)
    stand_in = sorted(first_table)[0]  # withdraws first, then stands in at table 2
    setup(
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_of(tokens[stand_in]), user=director
        )
    )
    del first_table[stand_in]
    leaver = sorted(second_table)[0]

    first, got, _ = pushed(
        lambda: withdrawals.session_withdraw(
            session_id=session.pk,
            player_id=player_of(tokens[leaver]),
            substitute=stand_in,
            user=director,
        ),
        phones=[tokens[stand_in], *second_table.values()],
        quiet=first_table.values(),
    )
    as_read_now(got)
    assert first[tokens[stand_in]]["status"] == "not_seated"
    assert got[tokens[stand_in]]["table"] == 2
    assert got[tokens[stand_in]]["seat"] == first[tokens[leaver]]["seat"]
    assert got[tokens[leaver]]["status"] == "not_seated"


def test_a_late_arrival_is_seen_by_the_bottom_table(online_session: Any, director: Any) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)

    _, got, _ = pushed(
        lambda: services.session_add_players(
            session_id=session.pk, new_names=["Zed"], user=director
        ),
        phones=at_table(tokens, 2).values(),
        quiet=at_table(tokens, 1).values(),
    )
    as_read_now(got)
    for view in got.values():
        assert "Zed" in {p["name"] for p in view["players"]}


def test_a_table_switched_to_paper_tells_its_phones_and_watchers(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    switched = table_id(session, 1)

    first, got, watched = pushed(
        lambda: play_services.table_online_set(
            table_id=switched, online=False, user=director, confirm=True
        ),
        phones=at_table(tokens, 1).values(),
        tables=[switched],
        quiet=at_table(tokens, 2).values(),
        quiet_tables=[table_id(session, 2)],
    )
    as_read_now(got)
    assert {view["status"] for view in first.values()} == {"playing"}
    assert {view["status"] for view in got.values()} == {"paper"}
    assert watched[switched]["status"] == "paper"


def test_robots_seated_at_a_short_table_reach_its_phones(
    online_session: Any, director: Any
) -> None:
    session = online_session(3)
    tokens = tokens_of(session, director)

    _, got, _ = pushed(
        lambda: play_director.table_robot_seat(table_id=table_id(session, 1), user=director),
        phones=tokens.values(),
    )
    as_read_now(got)
    for view in got.values():
        assert [p["robot"] for p in view["players"]].count(True) == 1


def test_a_correction_reaches_the_phones_of_its_table(online_session: Any, director: Any) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    games: list[Game] = []
    setup(lambda: games.append(round_played(at_table(tokens, 1))))
    (game,) = games
    corrected = split(game, 3, 2)

    first, got, watched = pushed(
        lambda: scoring.round_correct(game_id=game.pk, number=1, data=corrected, actor=director),
        phones=at_table(tokens, 1).values(),
        tables=[game.table_id],
        quiet=at_table(tokens, 2).values(),
    )
    as_read_now(got)
    for token, view in got.items():
        assert first[token]["last_round"]["record"] != view["last_round"]["record"]
        assert view["last_round"]["record"]["tricks"] == corrected["tricks"]
    assert watched[game.table_id]["last_round"] == got[next(iter(got))]["last_round"]


def test_the_end_of_the_session_reaches_every_phone_and_watcher(
    online_session: Any, director: Any
) -> None:
    session = online_session(8)
    tokens = tokens_of(session, director)
    tables = [table_id(session, 1), table_id(session, 2)]

    _, got, watched = pushed(
        lambda: start_finish.session_finish(session_id=session.pk, early=True, user=director),
        phones=tokens.values(),
        tables=tables,
    )
    as_read_now(got)
    assert {view["status"] for view in [*got.values(), *watched.values()]} == {"finished"}


# The receiver's reads ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "queries"), [(8, 3 + 2 * 5), (16, 3 + 4 * 5)])
def test_the_push_of_every_seat_reads_five_queries_a_table(
    online_session: Any,
    director: Any,
    django_assert_num_queries: Any,
    monkeypatch: Any,
    players: int,
    queries: int,
) -> None:
    """Three for the session (its seat links, its current sitting, its tables), then
    five a table (its game, the game's players, the round, who sits there, the last
    round), however many phones."""
    session = online_session(players)
    tokens = tokens_of(session, director)
    sent: list[seats.SeatsNow] = []
    # What would go to the channel layer, kept instead of sent.
    monkeypatch.setattr(push, "_send_seats", lambda layer, now: now)
    monkeypatch.setattr(push, "_run", lambda now, layer: sent.append(now))
    with django_assert_num_queries(queries):
        push.seats_changed(None, session_id=session.pk, player_ids=None, table_ids=None)
    (now,) = sent
    assert set(now.seats) == set(tokens.values())
    assert len(now.tables) == players // 4


def test_the_push_of_one_table_reads_as_much_in_any_session(
    online_session: Any, director: Any, django_assert_num_queries: Any
) -> None:
    for players in (8, 16):
        session = online_session(players, seed=players)
        tokens = tokens_of(session, director)
        first = table_id(session, 1)
        with django_assert_num_queries(3 + 5):
            now = seats.seats_now(session.pk, frozenset(), frozenset([first]))
        assert set(now.tables) == {first}
        assert set(now.seats) == set(at_table(tokens, 1).values())


def test_a_night_on_paper_with_no_seat_link_reads_two_queries_and_sends_nothing(
    online_session: Any, django_assert_num_queries: Any
) -> None:
    session = online_session(16, online=False)
    with django_assert_num_queries(2):
        now = seats.seats_now(session.pk, None, None)
    assert now == seats.SeatsNow(seats={}, tables={})


def test_a_failing_channel_layer_is_logged_and_the_write_stands(
    online_session: Any, director: Any, monkeypatch: Any, caplog: Any
) -> None:
    session = online_session(8)
    tokens_of(session, director)

    class Broken:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            raise ConnectionError("the channel layer is down")

    monkeypatch.setattr(push, "channel_layer", Broken)
    setup(lambda: start_finish.session_finish(session_id=session.pk, early=True, user=director))
    session.refresh_from_db()
    assert session.status == "finished"
    assert "the push of the seats of session" in caplog.text


def test_a_push_from_a_thread_whose_own_loop_runs_is_logged_and_leaves_nothing_unawaited(
    online_session: Any, director: Any, caplog: Any, monkeypatch: Any
) -> None:
    """As a test driving a browser writes from Playwright's thread: `async_to_sync`
    cannot run there, so the push is logged and its coroutine closed, not left for the
    garbage collector to warn about."""
    session = online_session(4)
    tokens_of(session, director)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    made: list[Coroutine[Any, Any, None]] = []
    real = push._send_seats

    def kept(layer: Any, now: seats.SeatsNow) -> Coroutine[Any, Any, None]:
        made.append(real(layer, now))
        return made[-1]

    monkeypatch.setattr(push, "_send_seats", kept)

    async def in_its_loop() -> None:
        push.seats_changed(None, session_id=session.pk, player_ids=None, table_ids=None)

    def in_thread() -> None:
        try:
            asyncio.run(in_its_loop())
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(in_thread).result()
    assert "the push of the seats of session" in caplog.text
    (coroutine,) = made
    assert inspect.getcoroutinestate(coroutine) == inspect.CORO_CLOSED
