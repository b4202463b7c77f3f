"""What a director cannot do at a club night is either not offered or answered in plain
words that say what to do next, on the page and in the API alike: starting with nobody
(or too few) checked in, undoing a movement that cannot be undone, a withdrawal that
cannot be made."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import db_state, token_client
from tests.workflow.session.test_service_refusals import MakeSession, first_round
from tournaments.models import Session
from workflow.session import movements
from workflow.session.simulation import play_sitting

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client: Client, director: Any) -> Client:
    client.force_login(director)
    return client


def manage(page: Client, session: Session) -> str:
    return page.get(f"/director/sessions/{session.pk}/").content.decode()


@pytest.mark.parametrize(
    ("checked_in", "code", "words"),
    [
        (0, "nobody_checked_in", "Nobody is checked in yet. Check players in as they arrive"),
        (2, "too_few_players", "Only 2 players are checked in; a table needs at least 3."),
    ],
)
def test_start_is_not_offered_until_enough_players_are_checked_in(
    make_session: MakeSession,
    page: Client,
    director: Any,
    checked_in: int,
    code: str,
    words: str,
) -> None:
    session = make_session(8, start=False)
    keep = list(session.entries.order_by("pk").values_list("pk", flat=True)[:checked_in])
    session.entries.exclude(pk__in=keep).update(checked_in=False)
    html = manage(page, session)
    assert words in html
    assert "Start with" not in html
    answer = page.post(f"/director/sessions/{session.pk}/start/", follow=True)
    assert words in answer.content.decode()
    before = db_state()
    api = token_client(director).post(f"/api/sessions/{session.pk}/start/")
    assert (api.status_code, api.json()["code"]) == (409, code)
    assert api.json()["message"].startswith(words[:20])
    assert db_state() == before


def test_start_is_offered_with_the_count_once_enough_are_checked_in(
    make_session: MakeSession, page: Client
) -> None:
    session = make_session(8, start=False)
    assert "Start with 8 players" in manage(page, session)


def test_an_undo_that_cannot_work_says_why_instead_of_offering_it(
    make_session: MakeSession, page: Client, director: Any
) -> None:
    session = make_session(8)
    # Nothing to undo yet: no link, and the address alone answers in words.
    assert "Undo the last movement" not in manage(page, session)
    early = page.get(f"/director/sessions/{session.pk}/movement/undo/", follow=True)
    assert "No movement has been confirmed yet." in early.content.decode()
    play_sitting(session.sittings.get(), seed=5)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    assert "Undo the last movement" in manage(page, session)
    game = Game.objects.get(
        table__sitting__session=session, table__sitting__number=2, table__rank=1
    )
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=director)
    html = manage(page, session)
    assert "Undo the last movement" not in html
    assert (
        "The last movement can no longer be undone: Sitting 2 already has results entered" in html
    )
    late = page.get(f"/director/sessions/{session.pk}/movement/undo/", follow=True)
    assert "delete them first if the movement must be undone" in late.content.decode()
    before = db_state()
    api = token_client(director).post(f"/api/sessions/{session.pk}/movement/undo/")
    assert (api.status_code, api.json()["code"]) == (409, "new_sitting_started")
    assert db_state() == before


def test_a_withdrawal_that_cannot_be_made_is_answered_in_words(
    make_session: MakeSession, page: Client
) -> None:
    session = make_session(8)
    entry = session.entries.first()
    assert entry is not None
    url = f"/director/sessions/{session.pk}/players/{entry.player_id}/withdraw/"
    page.post(url)
    # Withdrawn: the page no longer offers it, and asking again says so.
    assert f"/players/{entry.player_id}/withdraw/" not in manage(page, session)
    again = page.post(url, follow=True).content.decode()
    assert f"{entry.player.name} has already withdrawn." in again
