"""The projector in a real browser: it changes by itself after a round and a movement,
without a reload, and fits the wall."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import services as scoring
from scoring.models import Game
from tests.web.browser.conftest import DESKTOP, PHONE
from tournaments.models import Seating, Session
from workflow.session import movements
from workflow.session.simulation import play_game, play_sitting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The screen polls every 1.5 s; the issue asks for a change within 2 s. A shared,
# loaded CI machine gets a little more before the test calls it a failure.
WITHIN_MS = 3_000


def test_the_projector_follows_a_round_and_a_movement_without_a_reload(
    new_page: Callable[..., Page],
    screenshots: Callable[[Page, str], Any],
    make_session: Callable[..., Session],
    director: Any,
) -> None:
    session = make_session(13)
    wall = new_page(DESKTOP)
    wall.goto(f"/sessions/{session.pk}/screen/")
    expect(wall.get_by_role("heading", name="Table 3")).to_be_visible()
    wall.evaluate("window.__sameDocument = true")

    game = Game.objects.get(table__sitting__session=session, table__rank=2)
    play_game(game, seed=11, rounds=1)
    started = time.monotonic()
    table_two = wall.locator("article", has=wall.get_by_role("heading", name="Table 2"))
    expect(table_two).to_contain_text("round 1 · leads:", timeout=WITHIN_MS)
    seen_after = time.monotonic() - started
    assert seen_after < WITHIN_MS / 1000

    # The rest of the sitting, played from the start (the round above is taken back).
    scoring.round_delete(game_id=game.pk, number=1, actor=director)
    play_sitting(session.sittings.get(), seed=5)
    expect(wall.get_by_role("heading", name="Next sitting: who moves")).to_be_visible(
        timeout=WITHIN_MS
    )
    screenshots(wall, "projector-movement")
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    expect(wall.get_by_text("Sitting 2 ·")).to_be_visible(timeout=WITHIN_MS)
    assert wall.evaluate("window.__sameDocument") is True
    # Nothing sticks out sideways on the wall.
    assert wall.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshots(wall, "projector-sitting-2")


def test_the_projector_says_so_when_the_server_is_gone_and_comes_back(
    new_page: Callable[..., Page], make_session: Callable[..., Session]
) -> None:
    session = make_session(8)
    wall = new_page(DESKTOP)
    wall.goto(f"/sessions/{session.pk}/screen/")
    wall.context.set_offline(True)
    expect(wall.get_by_role("status")).to_have_text("Reconnecting…", timeout=WITHIN_MS)
    wall.context.set_offline(False)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    play_game(game, seed=2, rounds=1)
    # Back online: the next poll comes at once (the "online" event), not after the back-off.
    expect(wall.get_by_role("status")).to_have_text("", timeout=WITHIN_MS)
    expect(wall.locator("article").first).to_contain_text("round 1", timeout=WITHIN_MS)


def test_a_players_phone_shows_the_new_table_after_a_movement_without_a_reload(
    new_page: Callable[..., Page], make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(13)
    play_sitting(session.sittings.get(), seed=5)
    seating = Seating.objects.filter(sitting__session=session, table__rank=1).first()
    assert seating is not None
    phone = new_page(PHONE)
    phone.goto(f"/sessions/{session.pk}/")
    phone.get_by_label("Find my table").fill(seating.player.name)
    phone.get_by_role("button", name="Find").click()
    expect(phone.get_by_text("Sitting 1.")).to_be_visible()
    phone.evaluate("window.__sameDocument = true")
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    new = Seating.objects.get(sitting__session=session, sitting__number=2, player=seating.player)
    expect(phone.locator(".found")).to_contain_text(
        f"table {new.table.rank}, seat {new.seat}", timeout=WITHIN_MS
    )
    assert phone.evaluate("window.__sameDocument") is True
