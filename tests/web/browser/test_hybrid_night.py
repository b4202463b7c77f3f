"""A hybrid night end to end (docs/tournament.md, "Online play"): two online tables of
four phones each (390 px, axe-core) and one paper table, on the ASGI server with the
scheduler running, as `make run` serves it.

- the phones play through the API over HTTP, as other phones do, while every seat page
  stays open on its socket; one phone is closed for the rest of the night and its player
  is covered by a robot after one grace time, never a second;
- the director's round typed for an online table is refused (409 `table_online`);
- the director confirms the movement and every open seat page shows its new table with
  no reload;
- the standings and the ratings follow the engine's verdict of every stored game.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from rest_framework.authtoken.models import Token

import engine
from play import selectors
from play import services as play_services
from play.models import LiveRound
from ratings.models import RatingHistory
from scoring.models import Game
from scoring.records import game_record
from tests.play.rounds import online_round
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Seating, Session, Table
from workflow.session.selectors import session_standings
from workflow.session.simulation import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GRACE = 3
WITHIN_MS = 15_000


def call(base: str, path: str, body: Any = None, *, auth: str = "") -> tuple[int, Any]:
    """The API over HTTP, through the server (so its pushes go out from it)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if auth:
        headers["Authorization"] = f"Token {auth}"
    request = urllib.request.Request(f"{base}{path}", data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def body_of(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of `legal`, sent as it is (each entry is a move the engine takes)."""
    choice = rng.choice(view["legal"])
    if isinstance(choice, str):
        return {"move": view["move"], "action": "play", "card": choice}
    return {"move": view["move"], **choice}


def play_sitting(
    base: str, tokens: dict[str, str], tables: list[Table], absent: str | None, seed: int
) -> None:
    """The phones at the online tables play until each table's games of the sitting are
    over; nobody plays for `absent` (the robot does, as the scheduler decides). Each
    answer names who is to act next, whose phone reads its view and moves."""
    rng = random.Random(seed)
    for table in tables:
        over = Game.objects.filter(table=table, status=Game.Status.FINISHED).count
        who = selectors.watch_view(table.pk)["to_act"]
        for _ in range(6_000):
            if over() == table.sitting.games_per_sitting:
                break
            if who is None or who == absent or who not in tokens:
                time.sleep(0.05)  # the robot's turn: the scheduler's, or the next deal
                who = selectors.watch_view(table.pk)["to_act"]
                continue
            status, view = call(base, f"/api/play/{tokens[who]}/")
            assert status == 200, view
            if view["to_act"] != view["player"]:
                who = view["to_act"]
                continue
            status, answer = call(base, f"/api/play/{tokens[who]}/moves/", body_of(view, rng))
            assert status in (200, 409), answer  # 409: a robot moved first
            who = (answer.get("view") or answer)["to_act"]
        else:
            raise AssertionError("the sitting did not end")


def play_paper(table: Table, seed: int) -> None:
    """The paper table's games of the sitting, entered round by round as a scorer would."""
    for number in range(1, table.sitting.games_per_sitting + 1):
        play_game(Game.objects.get(table=table, number=number), seed=seed + number)


def open_phone(
    new_page: Callable[..., Page], base: str, token: str, sockets: list[str] | None = None
) -> Page:
    """A seat page on a phone; the address of each socket it opens added to `sockets`."""
    phone = new_page(PHONE)
    if sockets is not None:
        phone.on("websocket", lambda socket: sockets.append(socket.url))
    phone.goto(f"{base}/play/{token}/")
    expect(phone.locator("#play")).to_be_visible()
    phone.evaluate("window.__sameDocument = true")
    return phone


def test_a_hybrid_night_on_phones_and_paper(
    new_page: Callable[..., Page],
    asgi_url: str,
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(12, games_per_sitting=2)
    Session.objects.filter(pk=session.pk).update(online_grace_seconds=GRACE)
    sitting = session.sittings.get(number=1)
    tables = list(sitting.tables.order_by("rank"))
    assert len(tables) == 3
    for table in tables[:2]:
        play_services.table_online_set(table_id=table.pk, online=True, user=director)
    online_tables, paper = tables[:2], tables[2]
    tokens = {
        row["player"]: row["token"]
        for row in play_services.seat_links_ensure(session_id=session.pk, user=director)
    }
    seated = {
        s.player.name: s.table_id
        for s in Seating.objects.filter(sitting=sitting).select_related("player")
    }
    online_names = [name for name, t in seated.items() if t in {x.pk for x in online_tables}]
    assert len(online_names) == 8
    # Dealt by the scheduler after the switches' commits.
    expect_dealt = [LiveRound.objects.filter(game__table=t).exists() for t in online_tables]
    for _ in range(100):
        if all(expect_dealt):
            break
        time.sleep(0.1)
        expect_dealt = [LiveRound.objects.filter(game__table=t).exists() for t in online_tables]
    assert all(expect_dealt)

    sockets: dict[str, list[str]] = {name: [] for name in online_names}
    phones = {
        name: open_phone(new_page, asgi_url, tokens[name], sockets[name]) for name in online_names
    }
    # Each socket names its table, by which a proxy sends a table's sockets to one server.
    ranks = {t.pk: t.rank for t in tables}
    for name in online_names:
        key = f"{session.pk}.1.{ranks[seated[name]]}"
        assert sockets[name][-1].endswith(f"/ws/play/{tokens[name]}/?table={key}")
    first = next(iter(phones.values()))
    assert overflow(first) is None
    assert axe_problems(first) == []
    # One phone is closed for the rest of the night, before its first turn is over.
    absent = online_names[0]
    phones.pop(absent).close()

    # The director types a round for an online table: refused, the hand plays on.
    auth = Token.objects.create(user=director).key
    game = Game.objects.get(table=online_tables[0], number=1)
    status, refused = call(
        asgi_url,
        f"/api/games/{game.pk}/rounds/",
        {"number": 1, **online_round(game, seed=3)},
        auth=auth,
    )
    assert (status, refused["code"]) == (409, "table_online")

    play_paper(paper, seed=4)
    play_sitting(asgi_url, tokens, online_tables, absent, seed=5)

    # The absent player's turns: the robot covered them, and waited the grace time for
    # them once only (each later turn was played at once).
    covered = [
        g
        for g in Game.objects.filter(table__sitting=sitting)
        if absent in [gp.name for gp in g.game_players.all()]
    ]
    record = game_record(covered[0])
    robots = [r["play"].get("robots", []) for r in record["rounds"]]
    assert len(robots) >= 2
    assert all(any(m["player"] == absent for m in marks) for marks in robots)
    last = LiveRound.objects.get(game=covered[0])  # the game's last round, kept
    assert last.number >= 2
    history = last.history
    gaps = [
        datetime.fromisoformat(h["at"]) - datetime.fromisoformat(history[i - 1]["at"])
        for i, h in enumerate(history)
        if i and h["player"] == absent
    ]
    assert gaps
    assert all(gap.total_seconds() < GRACE for gap in gaps)
    assert all(h["reason"] == "away" for h in history if h["player"] == absent)

    # The movement: every open seat page moves to its new table with no reload.
    status, moved = call(
        asgi_url, f"/api/sessions/{session.pk}/movement/", {"sitting": 1}, auth=auth
    )
    assert status == 201, moved
    new = session.sittings.get(number=2)
    for name, phone in phones.items():
        place = Seating.objects.select_related("table").get(sitting=new, player__name=name)
        expect(phone.locator("#play-moved")).to_be_visible(timeout=WITHIN_MS)
        expect(phone.locator("#play-moved-table")).to_have_text(str(place.table.number))
        expect(phone.locator("#play-moved-seat")).to_have_text(str(place.seat))
        assert phone.evaluate("window.__sameDocument") is True
    # ... and opens its socket again for its new table, within the few seconds a room's
    # phones take between them.
    for name, phone in phones.items():
        place = Seating.objects.select_related("table").get(sitting=new, player__name=name)
        key = f"{session.pk}.2.{place.table.rank}"
        for _ in range(WITHIN_MS // 250):
            if sockets[name][-1].endswith(f"?table={key}"):
                break
            phone.wait_for_timeout(250)
        assert sockets[name][-1].endswith(f"/ws/play/{tokens[name]}/?table={key}")
        expect(phone.locator("#play-conn")).to_have_text("Live.", timeout=WITHIN_MS)
    some = next(iter(phones.values()))
    assert overflow(some) is None
    assert axe_problems(some) == []

    # The second sitting: the robot still covers the absent player at once.
    new_tables = list(new.tables.order_by("rank"))
    for table in new_tables:
        if not table.online:
            play_paper(table, seed=6)
    before = datetime.now().astimezone()
    play_sitting(asgi_url, tokens, [t for t in new_tables if t.online], absent, seed=7)
    assert (datetime.now().astimezone() - before).total_seconds() < 600

    # The standings and the ratings follow the engine's verdict of every game.
    games = list(Game.objects.filter(table__sitting__session=session))
    assert games
    assert all(g.status == Game.Status.FINISHED for g in games)
    for g in games:
        verdict = engine.check(game_record(g))
        assert verdict["valid"]
        assert verdict["finished"]
        stored = {gp.name: gp.score for gp in g.game_players.all()}
        assert stored == verdict["scores"]
    rows = session_standings(session)
    assert {r.name for r in rows} >= set(online_names)
    assert RatingHistory.objects.filter(game__in=games).exists()
