"""The printed standings show the payouts and the pool; the season's show each player's
prizes (docs/tournament.md, "Entry fees and prizes")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tournaments.models import Session
from workflow.club import prizes
from workflow.session import selectors, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db


def test_the_standings_pdf_shows_each_payout_and_the_pool(
    make_session: Callable[..., Session],
    club: Any,
    season: Any,
    director: Any,
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    prizes.payout_table_create(club_id=club.pk, name="Top two", places=["70", "30"], user=director)
    prizes.club_set_money(club_id=club.pk, currency="EUR", money_unit="cent", user=director)
    session = make_session(8)
    prizes.session_prizes_set(session_id=session.pk, entry_fee="4", user=director)
    prizes.session_mark_paid(session_id=session.pk, player_ids=None, paid=True, user=director)
    finish_sitting_unplayed(session.sittings.get(), random.Random(6))
    start_finish.session_finish(session_id=session.pk, user=director)
    api = api_as()
    response = api.get(f"/api/sessions/{session.pk}/print/standings.pdf")
    assert response.status_code == 200
    text = " ".join(pdf_text(bytes(response.content)))
    assert "Final standings. Prize pool EUR 32.00, split by Top two." in text
    first = selectors.session_standings(session)[0]
    assert f"{first.name} {first.table_rank} {first.points}" in text
    assert "EUR 22.40" in text
    assert "EUR 9.60" in text
    assert text.count("EUR 0.00") == 6
    season_pdf = api.get(f"/api/seasons/{season.pk}/print/standings.pdf")
    season_text = " ".join(pdf_text(bytes(season_pdf.content)))
    assert "Prizes" in season_text
    assert "EUR 22.40" in season_text
