"""A phone plays a whole round of Huckley Buck at an online table (docs/tournament.md,
"Playing online: the seat page"), 390 px wide, checked by axe-core: it clicks only the
choices the page offers, from the deal to the round stored with the game. At the table:
the phone's player, one player whose moves the test sends through the API (another
phone), and three robots. Then a move the table had moved on from, and a move the rules
refuse, each answered in words; and a phone whose WebSocket is lost goes on by polling.

The first two tests run on pytest-django's live server, which is WSGI and answers no
WebSocket: the phone's socket fails at once and it plays by polling
`GET /api/play/<token>/`. The last one serves the ASGI application (huckley/asgi.py,
uvicorn in a thread of the test's process, on the in-memory channel layer): the moves
reach the phone over its WebSocket, then by polling while the socket is cut, then over
the socket again."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from play import selectors, services
from scoring.models import Game, Round
from tests.servers import free_ports
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tournaments.models import Player, Seating, Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page polls every 2 s when it has no WebSocket; a loaded machine gets more.
WITHIN_MS = 10_000


class Table:
    """The online table of five: the phone's token, the API seat's token, and the game."""

    def __init__(self, make_session: Callable[..., Session], director: Any) -> None:
        session = make_session(5, start=False)
        Session.objects.filter(pk=session.pk).update(online=True)
        from workflow.session import start_finish

        start_finish.session_start(session_id=session.pk, user=director)
        seats = list(
            Seating.objects.filter(sitting__session=session, left_at__isnull=True)
            .select_related("player", "table")
            .order_by("seat")
        )
        assert len(seats) == 5
        assert seats[0].table.online
        self.table_id = seats[0].table_id
        # The phone sits at the first dealer's left, so it speaks first (in or out while
        # the drop limit allows); the API seat on its left; the other three are robots.
        dealer = Game.objects.get(table_id=self.table_id, number=1).first_dealer_id
        at = next(i for i, s in enumerate(seats) if s.player_id == dealer)
        seats = seats[at + 1 :] + seats[: at + 1]
        links = {
            row["player"]: row["token"]
            for row in services.seat_links_ensure(session_id=session.pk, user=director)
        }
        self.me, self.other = seats[0].player.name, seats[1].player.name
        self.seat = seats[0].seat
        Player.objects.filter(pk__in=[s.player_id for s in seats[2:]]).update(is_robot=True)
        self.token, self.other_token = links[self.me], links[self.other]
        self.session = session

    def view(self, token: str | None = None) -> dict[str, Any]:
        return selectors.seat_view(token or self.token)

    def game(self) -> Game:
        return Game.objects.get(table_id=self.table_id, number=1)


def api(base: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """GET or POST the seat's API over HTTP, as another phone does."""
    url = f"{base}/api/play/{token}/" + ("moves/" if body is not None else "")
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/json", "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def other_moves(base: str, table: Table) -> None:
    """The API seat's move: in, stand pat, or its first legal card."""
    _, view = api(base, table.other_token)
    legal = view["legal"]
    assert legal, view
    choice = legal[0]
    if isinstance(choice, str):
        move: dict[str, Any] = {"action": "play", "card": choice}
    elif choice["action"] == "draw":
        move = {"action": "draw", "discard": []}
    else:
        move = dict(choice)
    status, answer = api(base, table.other_token, {"move": view["move"], **move})
    assert status == 200, answer


def wait_for_move(phone: Page, move: int) -> None:
    expect(phone.locator("#play")).to_have_attribute("data-move", str(move), timeout=WITHIN_MS)


def phone_moves(phone: Page, view: dict[str, Any], clicks: list[str]) -> None:
    """The phone's move, clicking only what the page offers: in, one card to discard and
    the button that draws one, or the first card it may play."""
    wait_for_move(phone, view["move"])
    expect(phone.locator("#play-turn")).to_contain_text("Your turn")
    phase = view["phase"]
    if phase == "announce":
        button = phone.get_by_role("button", name="I'm in")
    elif phase == "draw":
        first = phone.locator("#play-hand button").first
        first.click()
        expect(first).to_have_attribute("aria-pressed", "true")
        button = phone.get_by_role("button", name="Discard 1, draw 1")
    else:
        assert phase == "play", view
        button = phone.locator("#play-hand button[data-move]").first
        # The cards offered to play are exactly the legal ones; the others are dimmed.
        enabled = phone.locator("#play-hand button[data-move]").evaluate_all(
            "bs => bs.map(b => JSON.parse(b.dataset.move).card)"
        )
        assert sorted(enabled) == sorted(view["legal"])
        dimmed = phone.locator("#play-hand button[aria-disabled='true']").count()
        assert dimmed == len(view["hand"]) - len(view["legal"])
    clicks.append(button.inner_text())
    button.click()
    expect(phone.locator("#play")).not_to_have_attribute(
        "data-move", str(view["move"]), timeout=WITHIN_MS
    )


def play_until(
    phone: Page,
    table: Table,
    base: str,
    done: Callable[[dict[str, Any]], bool],
    clicks: list[str],
    checked: set[str],
) -> dict[str, Any]:
    for _ in range(100):
        view = table.view()
        if done(view):
            return view
        if view["to_act"] == table.me:
            if view["phase"] not in checked:
                wait_for_move(phone, view["move"])
                assert overflow(phone) is None, view["phase"]
                assert axe_problems(phone) == [], view["phase"]
                checked.add(view["phase"])
            phone_moves(phone, view, clicks)
        elif view["to_act"] == table.other:
            other_moves(base, table)
        else:
            pytest.fail(f"nobody moves: {view['to_act']} is to act in {view['phase']}")
    pytest.fail("the round did not end")


def test_a_phone_plays_a_whole_round_of_huckley_buck(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
    live_server: Any,
) -> None:
    table = Table(make_session, director)
    phone = new_page(PHONE)
    phone.goto(f"/play/{table.token}/")
    # The first read dealt the round; the page shows the hand without waiting for a script.
    view = table.view()
    assert (view["status"], view["round"], len(view["hand"])) == ("playing", 1, 5)
    expect(phone.locator("#play-hand button")).to_have_count(5)
    expect(phone.get_by_role("heading", level=1)).to_have_text(table.me)
    expect(phone.locator("#play-where")).to_have_text(
        f"Table 1 · seat {table.seat} · game 1 · round 1"
    )
    robots = phone.locator("#play-players .play-marks", has_text="robot")
    expect(robots).to_have_count(3)

    clicks: list[str] = []
    checked: set[str] = set()
    play_until(
        phone,
        table,
        live_server.url,
        lambda v: v["round"] == 2 or table.game().round_count >= 1,
        clicks,
        checked,
    )
    assert {"announce", "draw", "play"} <= checked, checked
    # Round 1 is stored through the scorer's path, with the cards: the record's hands.
    stored = Round.objects.get(game=table.game(), number=1)
    assert table.me in stored.data["play"]["hands"]
    assert clicks[0] == "I'm in"
    assert "Discard 1, draw 1" in clicks
    # The phone shows the round just played and the next round's hand.
    expect(phone.locator("#play-last-title")).to_have_text(
        "The last round (round 1)", timeout=WITHIN_MS
    )
    expect(phone.locator("#play-where")).to_contain_text("round 2")
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    screenshots(phone, "play-phone-round-2")


def test_a_stale_move_and_an_illegal_move_are_answered_in_words(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    director: Any,
    live_server: Any,
) -> None:
    table = Table(make_session, director)
    phone = new_page(PHONE)
    phone.goto(f"/play/{table.token}/")
    clicks: list[str] = []
    view = play_until(
        phone,
        table,
        live_server.url,
        lambda v: v["phase"] == "play" and v["to_act"] == table.me,
        clicks,
        {"announce", "draw"},
    )
    wait_for_move(phone, view["move"])

    # A card the player does not hold, sent as if the page offered it: the rule in words.
    held = set(view["hand"])
    stranger = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C") if c not in held)
    status, refusal = api(
        live_server.url, table.token, {"move": view["move"], "action": "play", "card": stranger}
    )
    assert status == 400
    card = phone.locator("#play-hand button[data-move]").first
    card.evaluate(
        "(b, c) => { b.dataset.move = JSON.stringify({action: 'play', card: c}); }", stranger
    )
    card.click()
    expect(phone.get_by_role("alert")).to_have_text(refusal["message"])
    assert table.view()["move"] == view["move"]

    # The player's other phone plays first: the page's move is stale. The page's own
    # polls are held back so that it still shows the old state when the card is clicked.
    phone.route(
        "**/api/play/**",
        lambda route: route.abort() if route.request.method == "GET" else route.continue_(),
    )
    status, _ = api(
        live_server.url,
        table.token,
        {"move": view["move"], "action": "play", "card": view["legal"][0]},
    )
    assert status == 200
    expect(phone.locator("#play")).to_have_attribute("data-move", str(view["move"]))
    # Another card than the other phone played (the same card would be the same move
    # sent twice, which is taken once and answered as a success).
    assert len(view["legal"]) > 1, view
    phone.locator(
        f"#play-hand button[data-move]:not([data-move*='\"{view['legal'][0]}\"'])"
    ).first.click()
    # One plain sentence, not the server's words wrapped in the page's.
    expect(phone.get_by_role("alert")).to_have_text(
        "Too late: the table had moved on; here is where it stands now."
    )
    now = table.view()
    expect(phone.locator("#play")).to_have_attribute("data-move", str(now["move"]))
    expect(phone.locator("#play-hand button")).to_have_count(len(now["hand"]))
    assert axe_problems(phone) == []


# The page's WebSocket, with a switch: while `__cut` is set, a new socket goes to a port
# where nothing answers (as when the venue's Wi-Fi drops the upgrade) and fails.
CUTTABLE_SOCKETS = """
(function () {
  var Real = window.WebSocket;
  window.__sockets = [];
  window.__cut = false;
  window.WebSocket = function (url, protocols) {
    var socket = new Real(window.__cut ? "ws://127.0.0.1:%d/" : url, protocols);
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
})();
"""


def test_a_phone_that_loses_its_websocket_goes_on_by_polling(
    browser: Any, asgi_url: str, make_session: Callable[..., Session], director: Any
) -> None:
    table = Table(make_session, director)
    context = browser.new_context(viewport=PHONE, base_url=asgi_url)
    context.set_default_timeout(10_000)
    nowhere = free_ports(1)[0]  # a port of the test's range where nothing listens
    context.add_init_script(CUTTABLE_SOCKETS % nowhere)
    polls: list[str] = []
    phone = context.new_page()
    phone.on(
        "request",
        lambda r: polls.append(r.url) if r.method == "GET" and "/api/play/" in r.url else None,
    )
    try:
        phone.goto(f"/play/{table.token}/")
        expect(phone.locator("#play-conn")).to_have_text("Live.")
        phone.evaluate("window.__sameDocument = true")

        def go_on(moves: int) -> None:
            for _ in range(moves):
                view = table.view()
                if view["to_act"] == table.me:
                    phone_moves(phone, view, [])
                else:
                    assert view["to_act"] == table.other, view
                    other_moves(asgi_url, table)
                    wait_for_move(phone, table.view()["move"])

        # Over the socket: every move reaches the phone, and it never polls.
        go_on(2)
        assert polls == []
        # The socket is cut and cannot open again: the phone polls, and the game goes on.
        phone.evaluate("window.__cut = true; window.__sockets.forEach(s => s.close())")
        expect(phone.locator("#play-conn")).to_have_text("Updating every few seconds.")
        go_on(3)
        assert polls, "no poll while the socket was cut"
        # The network is back: the socket opens again (its retry delay grows to a few
        # seconds) and the polling stops.
        phone.evaluate("window.__cut = false")
        expect(phone.locator("#play-conn")).to_have_text("Live.", timeout=40_000)
        go_on(2)
        asked = len(polls)
        phone.wait_for_timeout(5_000)
        assert len(polls) == asked
        assert phone.evaluate("window.__sameDocument") is True
        assert axe_problems(phone) == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("rules_id", "size"),
    [("buck-euchre", 4), ("ten-point-buck", 4), ("bluke", 4), ("hucklebuck", 4)],
)
def test_the_script_offers_each_game_s_choices_in_the_page_s_words(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    director: Any,
    live_server: Any,
    rules_id: str,
    size: int,
) -> None:
    """The script draws the page again from the view as soon as it runs: the choices it
    offers are the view's `legal`, in the same words as the page the server drew."""
    from web.templatetags.play_words import move_label

    session = make_session(size, start=False, rules_id=rules_id)
    Session.objects.filter(pk=session.pk).update(online=True)
    from workflow.session import start_finish

    start_finish.session_start(session_id=session.pk, user=director)
    tokens = [
        row["token"] for row in services.seat_links_ensure(session_id=session.pk, user=director)
    ]
    services.advance(table_id=Seating.objects.filter(sitting__session=session).first().table_id)
    view = next(v for v in map(selectors.seat_view, tokens) if v["to_act"] == v["player"])
    token = next(t for t in tokens if selectors.seat_view(t)["player"] == view["player"])
    phone = new_page(PHONE)

    def script_only(route: Any) -> None:
        # The server's own choices and hand are taken out: what is offered below was
        # drawn by the script.
        html = route.fetch().text()
        html = re.sub(
            r'(id="play-choices">).*?(</div>\s*<section aria-labelledby="play-hand-title">)',
            r"\1\2",
            html,
            flags=re.DOTALL,
        )
        html = re.sub(r'(id="play-hand">).*?(</div>)', r"\1\2", html, flags=re.DOTALL)
        route.fulfill(body=html, content_type="text/html; charset=utf-8")

    page_url = f"{live_server.url}/play/{token}/"
    phone.route(lambda url: url == page_url, script_only)  # the page, not the API's polls
    phone.goto(f"/play/{token}/")
    phone.unroute_all(behavior="wait")
    expect(phone.locator("#play-turn")).to_contain_text("Your turn")
    expect(phone.locator("#play-hand button")).to_have_count(len(view["hand"]))
    legal = view["legal"]
    if view["phase"] == "play":
        names = phone.locator("#play-hand button[data-move]").evaluate_all(
            "bs => bs.map(b => JSON.parse(b.dataset.move).card)"
        )
        assert set(names) == set(legal)
    elif legal[0]["action"] == "draw":
        expect(phone.get_by_role("button", name="Stand pat")).to_be_enabled()
    else:
        bids = [m for m in legal if m["action"] == "bid"]
        if len(bids) > 12:
            options = phone.locator("#play-bid option").all_inner_texts()
            assert options == [str(m["bid"]) for m in bids]
            legal = [m for m in legal if m["action"] != "bid"]
        shown = phone.locator("#play-choices button[data-move]").all_inner_texts()
        assert shown == [move_label(m, view["phase"]) for m in legal]
    assert overflow(phone) is None
    assert axe_problems(phone) == []
