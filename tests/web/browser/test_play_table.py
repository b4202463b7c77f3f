"""The table as players expect it, on a 390 px phone checked by axe-core (docs/tournament.md,
"Playing online: the seat page"): cards as faces named in words; a tap on a card the rules
forbid says why in the game's words; the trick just taken stays a moment with who took
it; the director and the rules one tap away; a beep on the player's turn when they want
one; a new place shown large; and a move sent over the WebSocket when it is open.

The table of five is test_play_phone.py's: the phone, a seat played through the API, three
robots. On pytest-django's live server (WSGI, no WebSocket) the phone polls and sends its
moves by POST; the last test serves the ASGI application for the socket."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Round
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import PHONE
from tests.web.browser.test_play_phone import WITHIN_MS, Table, api, other_moves, wait_for_move
from tournaments.models import DirectorCall, Session
from tournaments.permissions import SYSTEM
from web.templatetags.card_faces import card, card_name
from workflow.session import movements
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOO_LATE = "Too late: the table had moved on; here is where it stands now."


def phone_plays(phone: Page, view: dict[str, Any]) -> None:
    """The phone's move through the page: in, stand pat, or the first card offered."""
    wait_for_move(phone, view["move"])
    if view["phase"] == "announce":
        phone.get_by_role("button", name="I'm in").click()
    elif view["phase"] == "draw":
        phone.get_by_role("button", name="Stand pat").click()
    else:
        phone.locator("#play-hand button[data-move]").first.click()
    expect(phone.locator("#play")).not_to_have_attribute(
        "data-move", str(view["move"]), timeout=WITHIN_MS
    )


def go_on(phone: Page, table: Table, base: str) -> None:
    """One move at the table: the phone's through the page, or the API seat's."""
    view = table.view()
    if view["to_act"] == table.me:
        phone_plays(phone, view)
    else:
        assert view["to_act"] == table.other, view
        other_moves(base, table)


def test_faces_a_card_that_may_not_be_played_and_the_trick_just_taken(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    director: Any,
    live_server: Any,
    screenshots: Callable[[Page, str], Any],
) -> None:
    table = Table(make_session, director)
    phone = new_page(PHONE)
    phone.goto(f"/play/{table.token}/")
    view = table.view()
    # Faces, never codes: each card of the hand is named in words, the upcard too.
    for code in view["hand"]:
        button = phone.get_by_role("button", name=card_name(code), exact=True)
        expect(button).to_have_text(card(code)[0])
        expect(button).to_have_class("playing-card red" if card(code)[2] else "playing-card")
    upcard = phone.locator("#play-info").get_by_role("img", name=card_name(view["upcard"]))
    expect(upcard).to_have_text(card(view["upcard"])[0])
    assert view["upcard"] not in phone.locator("#play-info").inner_text()

    tapped = held = final = False
    taker = phone.locator("#play-trick-taken")
    for _ in range(150):
        view = table.view()
        if tapped and held and final:
            break
        mine = view["to_act"] == table.me and view["phase"] == "play"
        if mine and not tapped and len(view["legal"]) < len(view["hand"]):
            # A card the rules forbid is dimmed, not dead: its tap says why.
            wait_for_move(phone, view["move"])
            forbidden = phone.locator("#play-hand button[data-illegal]").first
            expect(forbidden).to_have_attribute("aria-disabled", "true")
            code = forbidden.evaluate("b => JSON.parse(b.dataset.illegal).card")
            assert code not in view["legal"]
            expect(forbidden).to_have_accessible_name(f"{card_name(code)}: not playable now")
            status, refusal = api(
                live_server.url,
                table.token,
                {"move": view["move"], "action": "play", "card": code},
            )
            assert status == 400
            assert refusal["code"] in ("must_follow", "must_trump", "must_kill"), refusal
            # Marked aria-disabled (dimmed for a screen reader too), which Playwright
            # will not click of itself; a thumb does.
            forbidden.click(force=True)
            expect(phone.get_by_role("alert")).to_have_text(refusal["message"])
            assert table.view()["move"] == view["move"]  # nothing changed
            assert overflow(phone) is None
            assert axe_problems(phone) == []
            tapped = True
            continue
        taken = len(view["tricks"])
        go_on(phone, table, live_server.url)
        now = table.view()
        wait_for_move(phone, now["move"])  # the phone sees every state of the table
        last = now["last_trick"]
        if held and not final and now["round"] != view["round"]:
            # The round's last trick: the next round was dealt at once, and still the
            # trick shows a moment with who took it (from the round's record).
            rec = Round.objects.get(game=table.game(), number=view["round"]).data
            expect(taker).to_have_text(f"{rec['trick_winners'][-1]} took the trick.")
            cards = phone.locator("#play-trick").get_by_role("img")
            expect(cards).to_have_count(len(rec["play"]["tricks"][-1]))
            for i, code in enumerate(rec["play"]["tricks"][-1]):
                expect(cards.nth(i)).to_have_accessible_name(card_name(code))
            expect(taker).to_be_hidden(timeout=5_000)
            final = True
        if not held and now["round"] == view["round"] and len(now["tricks"]) > taken:
            # The trick just taken stays on the table a moment with who took it, then
            # the table clears (or shows the next trick's cards).
            assert last is not None
            expect(taker).to_have_text(f"{last['winner']} took the trick.")
            cards = phone.locator("#play-trick").get_by_role("img")
            expect(cards).to_have_count(len(last["cards"]))
            for i, c in enumerate(last["cards"]):
                expect(cards.nth(i)).to_have_accessible_name(card_name(c["card"]))
            assert axe_problems(phone) == []
            screenshots(phone, "play-trick-taken")
            expect(taker).to_be_hidden(timeout=5_000)
            expect(phone.locator("#play-trick").get_by_role("img")).to_have_count(
                len(table.view()["trick"])
            )
            held = True
    assert tapped, "the phone never held a card it could not play"
    assert held, "no trick was taken"
    assert final, "no round was played to its end"


def test_call_the_director_the_rules_and_the_sound_on_your_turn(
    browser: Any,
    make_session: Callable[..., Session],
    director: Any,
    live_server: Any,
) -> None:
    table = Table(make_session, director)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(WITHIN_MS)
    # Web Audio without a sound card: each beep counted.
    context.add_init_script(COUNTED_BEEPS)
    phone = context.new_page()
    try:
        phone.goto(f"/play/{table.token}/")
        sound = phone.get_by_role("button", name="Sound on your turn: off")
        expect(sound).to_have_attribute("aria-pressed", "false")
        assert phone.evaluate("window.__beeps") == 0
        sound.click()
        on = phone.get_by_role("button", name="Sound on your turn: on")
        expect(on).to_have_attribute("aria-pressed", "true")
        assert phone.evaluate("window.__beeps") == 1  # what it sounds like
        phone.reload()
        expect(on).to_have_attribute("aria-pressed", "true")  # kept on the phone

        # The player's turn comes round again: a beep.
        phone_plays(phone, table.view())
        for _ in range(20):
            if table.view()["to_act"] == table.me:
                break
            other_moves(live_server.url, table)
        wait_for_move(phone, table.view()["move"])
        expect(phone.locator("#play-turn")).to_contain_text("Your turn")
        # (The count starts again with each page load.)
        assert phone.evaluate("window.__beeps") >= 1
        beeps = phone.evaluate("window.__beeps")
        on.click()  # off again: no more beeps
        expect(phone.get_by_role("button", name="Sound on your turn: off")).to_be_visible()
        assert phone.evaluate("window.__beeps") == beeps

        # The director, one tap away.
        phone.get_by_role("link", name="Call the director").click()
        form = phone.locator("#call")
        expect(form).to_be_in_viewport()
        form.get_by_label("Why").select_option("question")
        form.get_by_label("In a few words").fill("Is the jack of trumps high?")
        form.get_by_role("button", name="Call the director").click()
        expect(
            phone.get_by_text("The director is called to your table: a question")
        ).to_be_visible()
        expect(phone.get_by_text("The director has been called")).to_be_visible()
        call = DirectorCall.objects.get()
        assert (call.table_id, call.text) == (table.table_id, "Is the jack of trumps high?")
        assert overflow(phone) is None
        assert axe_problems(phone) == []

        # The rules, one tap away.
        phone.get_by_role("link", name="The rules of Huckley Buck (IHBA)").click()
        expect(phone.get_by_role("heading", level=1)).to_have_text(
            "The rules of Huckley Buck (IHBA)"
        )
        expect(phone.get_by_text("Kill the trick if you can")).to_be_visible()
        assert overflow(phone) is None
        assert axe_problems(phone) == []
    finally:
        context.close()


# The page's Web Audio, counted: each oscillator is one beep.
COUNTED_BEEPS = """
(function () {
  window.__beeps = 0;
  function Param() { this.value = 0; }
  Param.prototype.setValueAtTime = function () {};
  Param.prototype.exponentialRampToValueAtTime = function () {};
  function Context() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  Context.prototype.resume = function () {};
  Context.prototype.createOscillator = function () {
    window.__beeps += 1;
    return {frequency: new Param(), connect: function (g) { return g; },
            start: function () {}, stop: function () {}};
  };
  Context.prototype.createGain = function () {
    return {gain: new Param(), connect: function (d) { return d; }};
  };
  window.AudioContext = Context;
})();
"""


def test_a_new_place_is_shown_large(
    new_page: Callable[..., Page],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    """The movement seats the player at their table of the next sitting: the open page
    shows the new table and seat large, with no reload (here a night on paper, whose
    seat page says where to sit)."""
    from play import services

    session = make_session(8)
    links = {
        row["player"]: row["token"]
        for row in services.seat_links_ensure(session_id=session.pk, user=director)
    }
    token = sorted(links.items())[0][1]
    phone = new_page(PHONE)
    phone.goto(f"/play/{token}/")
    expect(phone.locator("#play-state")).to_contain_text("Your table plays on paper")
    big = phone.locator("#play-moved")
    expect(big).to_be_hidden()
    phone.evaluate("window.__sameDocument = true")
    finish_sitting_unplayed(session.sittings.get(number=1), random.Random(5))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    from play import selectors

    view = selectors.seat_view(token)
    assert view["sitting"] == 2
    expect(big).to_be_visible(timeout=WITHIN_MS)
    expect(big).to_contain_text("Sitting 2: your new place.")
    expect(phone.locator("#play-moved-table")).to_have_text(str(view["table_number"]))
    expect(phone.locator("#play-moved-seat")).to_have_text(str(view["seat"]))
    assert phone.evaluate("window.__sameDocument") is True
    assert overflow(phone) is None
    assert axe_problems(phone) == []
    expect(big).to_be_hidden(timeout=15_000)  # a moment, then the new table


def test_a_move_goes_over_the_open_websocket(
    browser: Any, asgi_url: str, make_session: Callable[..., Session], director: Any
) -> None:
    """With the socket open the phone sends its move on it, not by POST; the answer, the
    new view, comes back on the socket."""
    table = Table(make_session, director)
    context = browser.new_context(viewport=PHONE, base_url=asgi_url)
    context.set_default_timeout(10_000)
    posts: list[str] = []
    phone = context.new_page()
    phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    try:
        phone.goto(f"/play/{table.token}/")
        expect(phone.locator("#play-conn")).to_have_text("Live.")
        view = table.view()
        assert view["to_act"] == table.me
        phone_plays(phone, view)
        assert table.view()["move"] > view["move"]
        assert posts == []
    finally:
        context.close()
