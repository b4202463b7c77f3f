"""Every pair of writes that race in a running session, through the API on PostgreSQL with
real threads: no 500, no deadlock, nothing half written (docs/architecture.md, "Lock
order").

The scene is the minute that matters most: three tables of four, two games a sitting;
tables 2 and 3 have played both games (a correction at table 2 can be restored), and
table 1 is one round short of the end of the sitting. Then two writes start at once, each
on its own thread, client and connection: the last round, a correction, a restore, the
movement, its undo, a withdrawal, a rebalance, the finish, the timer, a table calling
the director. The "moved" scene is the same a moment later, the movement confirmed,
where the undo races the others.

Either write may win; what is checked is that each answer is one a client can act on (no
5xx), that PostgreSQL detected no deadlock while they ran (the lock order holds, not only
the retry behind it), and that the rows tell one consistent story afterwards. SQLite
runs one write at a time, so these need PostgreSQL (.ci/run provides it and turns a skip
into a failure).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring import corrections, records, services
from scoring import rounds as kernel
from scoring.models import Game, Round, RoundChange
from tests import rows, saved_rows
from tests.deadlocks import deadlocks, report_statistics
from tournaments.models import Placing, Session, SessionStanding, Sitting
from workflow.session import movements
from workflow.session.simulation import play_sitting
from workflow.tables import links as table_links

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WRITES = (
    "enter",
    "correct",
    "restore",
    "movement",
    "undo",
    "withdraw",
    "rebalance",
    "finish",
    "timer",
    "call",
)


@dataclass
class Scene:
    session: Session
    user: Any  # the club's director
    director: Client
    scorers: dict[int, Client]  # by table rank
    last_round: tuple[int, dict[str, Any]]  # table 1's last game and its missing round
    correction: tuple[int, int, dict[str, Any]]  # game, round number, new data (table 3)
    restorable: tuple[int, int]  # game, change (table 2)
    sitting: int


def _a_quiet_correction(game: Game) -> tuple[int, dict[str, Any]]:
    """A round of `game` changed so that the engine still accepts it and nobody's win
    changes: two players' tricks swapped."""
    for stored in game.rounds.order_by("number"):
        tricks = stored.data.get("tricks")
        if not isinstance(tricks, dict):
            continue
        for a, b in itertools.combinations(sorted(tricks), 2):
            if tricks[a] == tricks[b]:
                continue
            data = {**stored.data, "tricks": {**tricks, a: tricks[b], b: tricks[a]}}
            try:
                impact = corrections.correction_preview(
                    game_id=game.pk, number=stored.number, data=data
                )
            except Exception:  # the engine refuses this one; try the next
                continue
            if not impact.needs_confirm:
                return stored.number, data
    raise AssertionError(f"no quiet correction found in {game}")


def _correctable(session: Session, rank: int) -> tuple[Game, int, dict[str, Any]]:
    for game in Game.objects.filter(table__sitting__session=session, table__rank=rank):
        try:
            return (game, *_a_quiet_correction(game))
        except AssertionError:
            continue
    raise AssertionError(f"no quiet correction at table {rank}")


@pytest.fixture(scope="module", autouse=True)
def _saved_scenes_dropped(django_db_blocker: Any) -> Iterator[None]:
    yield
    with django_db_blocker.unblock():
        saved_rows.forget()


@pytest.fixture
def scene_of(transactional_db: None) -> Callable[[bool], Scene]:
    """The scene (`build`), played once per process and kind, and its rows put back for
    each later test (tests/saved_rows.py)."""

    def scene(moved: bool) -> Scene:
        return saved_rows.scene(f"lock_order_{int(moved)}", lambda: build(moved=moved))

    return scene


def build(*, moved: bool) -> Scene:
    director = rows.make_director()
    club = rows.make_club(director)
    session = rows.build_session(club, rows.make_season(club), director, 12, seed=5)
    sitting = session.sittings.get(number=1)
    play_sitting(sitting, seed=3)
    last = Game.objects.get(table__sitting=sitting, table__rank=1, number=2)
    missing = dict(last.rounds.order_by("-number").first().data)  # type: ignore[union-attr]
    number = last.round_count
    services.round_delete(game_id=last.pk, number=number, actor=director)
    game, at, data = _correctable(session, 2)
    services.round_correct(game_id=game.pk, number=at, data=data, actor=director)
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.EDIT)
    target, target_at, target_data = _correctable(session, 3)
    if moved:
        services.round_submit(game_id=last.pk, number=number, data=missing, actor=director)
        movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
        # In the new sitting, the last round raced is the first round of table 1.
        last = Game.objects.get(table__sitting__session=session, table__sitting__number=2,
                                table__rank=1, number=1)  # fmt: skip
        record, output = records.game_record(last), records.game_check(last)
        taker = record["players"][(record["players"].index(output["next_dealer"]) + 1) % 4]
        number, missing = 1, {"dealer": output["next_dealer"], "tricks": {taker: 5}}
    current = session.sittings.order_by("-number").first()
    assert current is not None
    token = Token.objects.create(user=director).key
    links = {
        t.rank: table_links.scorer_link_create(table_id=t.pk, user=director).token
        for t in current.tables.all()
    }
    scorers = {
        rank: Client(headers={"X-Scorer-Token": token}, raise_request_exception=False)
        for rank, token in links.items()
    }
    return Scene(
        session=session,
        user=director,
        director=Client(headers={"Authorization": f"Token {token}"}, raise_request_exception=False),
        scorers=scorers,
        last_round=(last.pk, {"number": number, **missing}),
        correction=(target.pk, target_at, target_data),
        restorable=(game.pk, change.pk),
        sitting=current.number,
    )


def request(scene: Scene, write: str) -> Callable[[], Any]:
    """The write as its client sends it; each returns the response."""
    s = scene.session.pk

    def post(client: Client, url: str, body: Any = None) -> Callable[[], Any]:
        data = json.dumps(body or {})
        return lambda: client.post(url, data, content_type="application/json")

    if write == "enter":
        game, body = scene.last_round
        return post(scene.scorers[1], f"/api/games/{game}/rounds/", body)
    if write == "correct":
        game, number, data = scene.correction
        return lambda: scene.director.put(
            f"/api/games/{game}/rounds/{number}/", json.dumps(data), content_type="application/json"
        )
    if write == "restore":
        game, change = scene.restorable
        return post(scene.director, f"/api/games/{game}/changes/{change}/restore/")
    if write == "movement":
        return post(scene.director, f"/api/sessions/{s}/movement/", {"sitting": scene.sitting})
    if write == "undo":
        return post(scene.director, f"/api/sessions/{s}/movement/undo/")
    if write == "withdraw":
        # Someone at table 3, between games (both played): the seat is left empty.
        player = (
            Sitting.objects.get(session_id=s, number=scene.sitting)
            .seatings.filter(table__rank=3)
            .values_list("player_id", flat=True)
            .first()
        )
        return post(scene.director, f"/api/sessions/{s}/withdraw/", {"player_id": player})
    if write == "rebalance":
        return post(scene.director, f"/api/sessions/{s}/rebalance/", {"moves": []})
    if write == "finish":
        return post(scene.director, f"/api/sessions/{s}/finish/", {"early": True})
    if write == "call":
        # Table 1's scorer calls the director (a second call from it is refused, 409).
        table = Sitting.objects.get(session_id=s, number=scene.sitting).tables.get(rank=1)
        return post(scene.scorers[1], f"/api/tables/{table.pk}/calls/", {"reason": "question"})
    if write == "timer":
        return post(scene.director, f"/api/sessions/{s}/timer/", {"action": "start", "minutes": 20})
    raise AssertionError(write)


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = calls[i]()
        except BaseException as exc:  # reported on the test's thread
            results[i] = exc
        finally:
            report_statistics()  # before run_pair reads the count of deadlocks
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    return results


def assert_one_story(session: Session) -> None:
    """What a write leaves behind is whole: every game's summary is the engine's verdict
    on its rounds, each next game follows a finished one, only the last sitting is open,
    a moved sitting has its placings (and the last one once the session is finished, for
    its tables that finished a game), a finished session its standings."""
    session.refresh_from_db()
    sittings = list(session.sittings.order_by("number"))
    assert [s.number for s in sittings] == list(range(1, len(sittings) + 1))
    assert all(s.moved_at is not None for s in sittings[:-1])
    assert sittings[-1].moved_at is None
    for sitting in sittings:
        placed = Placing.objects.filter(sitting=sitting).exists()
        if sitting.moved_at is not None:
            assert placed, sitting
        elif session.status != Session.Status.FINISHED:
            assert not placed, sitting  # the finish places the last sitting, nothing before
    for game in Game.objects.filter(table__sitting__session=session).order_by("table", "number"):
        numbers = list(game.rounds.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, game.round_count + 1)), game
        verdict = records.game_check(game)
        assert verdict["valid"], game
        assert (game.status == Game.Status.FINISHED) == verdict["finished"], game
        scores = dict(game.game_players.values_list("name", "score"))
        assert scores == {p: verdict["scores"].get(p, 0) for p in scores}, game
        if game.number > 1:
            before = Game.objects.get(table=game.table, number=game.number - 1)
            assert before.status == Game.Status.FINISHED, game
    if session.status == Session.Status.FINISHED:
        assert SessionStanding.objects.filter(session=session).exists()


def run_pair(scene: Scene, first: str, second: str) -> None:
    before = deadlocks()
    answers = race([request(scene, first), request(scene, second)])
    statuses = {w: r.status_code for w, r in zip((first, second), answers, strict=True)}
    assert all(code < 500 for code in statuses.values()), (
        statuses,
        [r.content[:300] for r in answers],
    )
    # Every refusal is one a client can act on: a 400/404/409 with a code.
    for response in answers:
        if response.status_code >= 400:
            assert response.json().get("code"), response.content[:300]
    assert deadlocks() == before, f"{first} and {second} deadlocked"
    assert_one_story(scene.session)


def test_a_deadlock_between_two_racing_threads_is_counted_as_soon_as_they_have_joined(
    club: Any, season: Any
) -> None:
    """What `run_pair` relies on to fail: two threads of `race` that lock the same two
    rows in opposite orders deadlock, and the count read right after shows it."""
    both_hold_one = threading.Barrier(2)

    def lock(first: Any, second: Any) -> Callable[[], str]:
        def locked() -> str:
            try:
                with transaction.atomic():
                    type(first).objects.select_for_update().get(pk=first.pk)
                    both_hold_one.wait(timeout=30)
                    type(second).objects.select_for_update().get(pk=second.pk)
            except OperationalError as e:
                return type(e.__cause__).__name__
            return "locked"

        return locked

    before = deadlocks()
    answers = race([lock(club, season), lock(season, club)])
    assert sorted(answers) == ["DeadlockDetected", "locked"]
    assert deadlocks() == before + 1


PAIRS = list(itertools.combinations_with_replacement(WRITES, 2))


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_two_writes_racing_at_the_end_of_a_sitting_never_answer_500(
    scene_of: Callable[[bool], Scene], first: str, second: str
) -> None:
    scene = scene_of(False)
    run_pair(scene, first, second)


MOVED_PAIRS = [("undo", w) for w in WRITES]


@pytest.mark.parametrize(("first", "second"), MOVED_PAIRS, ids=[f"{a}-{b}" for a, b in MOVED_PAIRS])
def test_two_writes_racing_just_after_a_movement_never_answer_500(
    scene_of: Callable[[bool], Scene], first: str, second: str
) -> None:
    scene = scene_of(True)
    run_pair(scene, first, second)


@pytest.mark.parametrize("attempt", range(5))
def test_the_last_round_and_the_movement_store_both_or_refuse_one(
    scene_of: Callable[[bool], Scene], attempt: int
) -> None:
    """The issue's own minute: whichever commits first, the round is stored, and the
    movement either waited for it and moved everyone, or was refused as unfinished."""
    scene = scene_of(False)
    game_id, body = scene.last_round
    entered, moved = race([request(scene, "enter"), request(scene, "movement")])
    assert entered.status_code == 201, entered.content
    assert Round.objects.filter(game_id=game_id, number=body["number"]).exists()
    if moved.status_code == 201:
        assert scene.session.sittings.count() == 2
    else:
        assert (moved.status_code, moved.json()["code"]) == (409, "sitting_unfinished")
        assert scene.session.sittings.count() == 1
    assert_one_story(scene.session)


def test_a_round_holding_its_locks_leaves_another_table_free(
    make_session: Callable[..., Session], director: Any
) -> None:
    """A round takes only a shared lock on the session, then its own table and game: while
    one round holds its locks (the engine is checking it), a round at another table of the
    same session is stored from start to commit."""
    session = make_session(8)
    top, bottom = (
        Game.objects.get(table__sitting__session=session, table__rank=r, number=1) for r in (1, 2)
    )
    holding = threading.Event()
    release = threading.Event()

    def lock_and_hold() -> None:
        try:
            with transaction.atomic():
                kernel.lock_for_change(top.pk)
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=lock_and_hold)
    holder.start()
    done: list[bool] = []

    def other() -> None:
        try:
            _enter_first_round(bottom, director)
            done.append(True)
        finally:
            connection.close()

    try:
        assert holding.wait(timeout=30)
        second = threading.Thread(target=other)
        second.start()
        second.join(timeout=10)
        assert done, "the round at the other table waited for the first table's locks"
    finally:
        release.set()
        holder.join(timeout=30)
    assert Round.objects.filter(game=bottom).count() == 1


def test_a_movement_waits_for_a_round_being_stored_and_sees_it(
    scene_of: Callable[[bool], Scene],
) -> None:
    scene = scene_of(False)
    director = scene.user
    game_id, body = scene.last_round
    holding = threading.Event()
    release = threading.Event()

    def enter_and_hold() -> None:
        try:
            with transaction.atomic():
                services.round_submit(
                    game_id=game_id, number=body["number"],
                    data={k: v for k, v in body.items() if k != "number"}, actor=director,
                )  # fmt: skip
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=enter_and_hold)
    holder.start()
    assert holding.wait(timeout=30)
    answer: list[Any] = []

    def move() -> None:
        try:
            answer.append(request(scene, "movement")())
        finally:
            connection.close()

    mover = threading.Thread(target=move)
    mover.start()
    mover.join(timeout=1)
    waited = mover.is_alive()
    release.set()
    holder.join(timeout=30)
    mover.join(timeout=30)
    assert waited, "the movement did not wait for the round being stored"
    assert answer[0].status_code == 201, answer[0].content
    assert_one_story(scene.session)


def test_a_round_that_waited_for_an_undo_which_took_its_game_away_is_refused_plainly(
    scene_of: Callable[[bool], Scene],
) -> None:
    """The round reads its game, then waits for the session while the undo deletes the
    new sitting, tables and games; once it gets the lock, its table is gone: a refusal
    the scorer can act on, not a 500."""
    scene = scene_of(True)
    director = scene.user
    game_id, _ = scene.last_round
    undone = threading.Event()
    release = threading.Event()

    def undo_and_hold() -> None:
        try:
            with transaction.atomic():
                movements.sitting_undo_movement(session_id=scene.session.pk, user=director)
                undone.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=undo_and_hold)
    holder.start()
    answer: list[Any] = []

    def enter() -> None:
        try:
            answer.append(request(scene, "enter")())
        finally:
            connection.close()

    assert undone.wait(timeout=30)
    scorer = threading.Thread(target=enter)
    scorer.start()
    scorer.join(timeout=1)  # it has read its game and waits for the session
    release.set()
    holder.join(timeout=30)
    scorer.join(timeout=30)
    assert answer[0].status_code in (400, 401, 404), answer[0].content
    assert answer[0].json()["code"]
    assert not Game.objects.filter(pk=game_id).exists()
    assert_one_story(scene.session)


def _enter_first_round(game: Game, actor: Any) -> None:
    record, output = records.game_record(game), records.game_check(game)
    players = record["players"]
    taker = players[(players.index(output["next_dealer"]) + 1) % len(players)]
    services.round_submit(
        game_id=game.pk,
        number=1,
        data={"dealer": output["next_dealer"], "tricks": {taker: 5}},
        actor=actor,
    )
