"""Who may print what, and clear refusals for what cannot be printed: a private session's
sheets are as hidden as its pages; a sheet that does not exist, a paper, a sitting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Session

pytestmark = pytest.mark.django_db

PUBLIC_SHEETS = ("score-sheets", "assignments", "standings")


def url(session: Session, sheet: str, query: str = "") -> str:
    return f"/api/sessions/{session.pk}/print/{sheet}.pdf{query}"


def test_a_public_sessions_sheets_print_for_anyone(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8)
    for sheet in PUBLIC_SHEETS:
        response = api_as().get(url(session, sheet))
        assert response.status_code == 200
        assert response.content.startswith(b"%PDF-")


def test_a_private_sessions_sheets_are_hidden_from_those_who_may_not_see_it(
    make_session: Callable[..., Session], api_as: Callable[..., Any], director: Any
) -> None:
    session = make_session(8, is_public=False)
    other_director = UserFactory()
    ClubFactory().directors.add(other_director)
    for sheet in PUBLIC_SHEETS:
        for who in (None, UserFactory(), other_director):
            response = api_as(who).get(url(session, sheet))
            assert response.status_code == 404, (sheet, who)
            assert response.json()["code"] == "not_found"
        assert api_as(director).get(url(session, sheet)).status_code == 200


def test_a_player_on_a_private_sessions_roster_may_print_its_public_sheets(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8, is_public=False)
    player = session.entries.first().player
    player.user = UserFactory()
    player.save()
    assert api_as(player.user).get(url(session, "assignments")).status_code == 200
    # Another club's player of the same name is nobody here.
    stranger = PlayerFactory(name=player.name, user=UserFactory())
    assert api_as(stranger.user).get(url(session, "assignments")).status_code == 404


def test_the_season_ladder_prints_for_anyone_and_an_unknown_season_is_404(
    season: Any, api_as: Callable[..., Any]
) -> None:
    assert api_as().get(f"/api/seasons/{season.pk}/print/standings.pdf").status_code == 200
    response = api_as().get(f"/api/seasons/{season.pk + 1000}/print/standings.pdf")
    assert response.status_code == 404


def test_an_unknown_sheet_is_a_404_that_names_the_sheets(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8)
    response = api_as().get(url(session, "menus"))
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "sheet_unknown"
    assert body["message"] == (
        "There is no sheet “menus”: print one of table-cards, score-sheets, assignments "
        "or standings."
    )


def test_an_unknown_sheet_of_a_private_session_stays_hidden(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8, is_public=False)
    assert api_as().get(url(session, "menus")).json()["code"] == "not_found"


def test_an_unknown_paper_is_a_400_that_says_which_papers_exist(
    make_session: Callable[..., Session], api_as: Callable[..., Any], director: Any
) -> None:
    session = make_session(8)
    for paper, sheet in zip(
        ["a3", "A5", "letterx", "%00"], [*PUBLIC_SHEETS, "table-cards"], strict=True
    ):
        response = api_as(director).get(url(session, sheet, f"?paper={paper}"))
        assert response.status_code == 400
        assert response.json() == {
            "code": "paper_unknown",
            "message": "Choose the paper: a4 or letter (for example ?paper=letter).",
            "field": "paper",
        }


def test_a_sitting_that_is_not_a_number_is_a_400_and_one_that_does_not_exist_a_404(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8)
    for sitting in ("0", "-1", "two", "1.5", "¹", "9" * 5000):
        response = api_as().get(url(session, "assignments", f"?sitting={sitting}"))
        assert response.status_code == 400
        assert response.json() == {
            "code": "sitting_invalid",
            "message": "The sitting is a whole number from 1 (for example ?sitting=2).",
            "field": "sitting",
        }
    for sheet, number in (("score-sheets", "2"), ("assignments", "99999999999999999999")):
        response = api_as().get(url(session, sheet, f"?sitting={number}"))
        assert response.status_code == 404
        assert response.json() == {
            "code": "sitting_not_found",
            "message": f"There is no sitting {number}: this session has 1 sitting so far.",
            "field": "sitting",
        }


def test_a_session_not_started_has_no_sitting_to_print(
    make_session: Callable[..., Session], api_as: Callable[..., Any]
) -> None:
    session = make_session(8, start=False)
    for query in ("", "?sitting=1"):
        response = api_as().get(url(session, "assignments", query))
        assert response.status_code in (404, 409)
        assert response.json()["message"].startswith(
            ("This session has not started yet.", "There is no sitting 1: this session has not")
        )
    # Its standings print: nobody has played yet.
    assert api_as().get(url(session, "standings")).status_code == 200
