"""The history of a game's rounds: who entered, corrected or deleted which round, when,
and what it said before and after; and the score sheet that shows it to the table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Game, Round, RoundChange
from tests.scoring.helpers import MakeSession, scorer, signed_in, split, top_game
from tests.snapshots import changed_tables, db_snapshot
from tournaments.permissions import ONLINE, SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8))


def history(game: Game) -> list[tuple[str, int, Any, Any]]:
    """Oldest first: (action, round number, before, after)."""
    return [
        (c.action, c.round_number, c.before, c.after)
        for c in RoundChange.objects.filter(game=game).order_by("at", "id")
    ]


def test_each_write_adds_one_line_with_what_the_round_said(game: Game, director: Any) -> None:
    one, two, fixed = split(game, 3, 2), split(game, 2, 3), split(game, 4, 1)
    services.round_submit(game_id=game.pk, number=1, data=one, actor=director)
    services.round_submit(game_id=game.pk, number=2, data=two, actor=director)
    services.round_correct(game_id=game.pk, number=2, data=fixed, actor=director)
    services.round_delete(game_id=game.pk, number=1, actor=director)
    assert history(game) == [
        ("enter", 1, None, one),
        ("enter", 2, None, two),
        ("edit", 2, two, fixed),
        ("delete", 1, one, None),
    ]
    assert {c.user for c in RoundChange.objects.filter(game=game)} == {director}


def test_a_deletion_keeps_the_number_the_round_had(game: Game) -> None:
    """The history says what happened at the time: round 2 was deleted, even though the
    round after it is now round 2."""
    rounds = [split(game, 3, 2), split(game, 2, 3), split(game, 3, 2)]
    for number, data in enumerate(rounds, start=1):
        services.round_submit(game_id=game.pk, number=number, data=data, actor=SYSTEM)
    services.round_delete(game_id=game.pk, number=2, actor=SYSTEM)
    assert history(game)[-1] == ("delete", 2, rounds[1], None)
    assert [(r.number, r.data) for r in Round.objects.filter(game=game)] == [
        (1, rounds[0]),
        (2, rounds[2]),
    ]


def test_a_correction_to_the_same_numbers_adds_no_line(game: Game) -> None:
    data = split(game, 3, 2)
    services.round_submit(game_id=game.pk, number=1, data=data, actor=SYSTEM)
    before = db_snapshot()
    services.round_correct(game_id=game.pk, number=1, data=dict(data), actor=SYSTEM)
    assert changed_tables(before) == []


def test_a_scorers_change_is_signed_by_the_link_not_an_account(game: Game, director: Any) -> None:
    link = scorer(game, director)
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=link)
    services.round_correct(game_id=game.pk, number=1, data=split(game, 2, 3), actor=link)
    changes = list(RoundChange.objects.filter(game=game))
    assert [c.user for c in changes] == [None, None]
    assert {c.scorer_link.token for c in changes if c.scorer_link} == set(link.scorer_tokens)
    assert all(c.scorer_link is not None for c in changes)


def test_the_score_sheet_lists_the_history_newest_first(game: Game, director: Any) -> None:
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM)
    services.round_submit(game_id=game.pk, number=2, data=split(game, 2, 3), actor=director)
    services.round_delete(game_id=game.pk, number=2, actor=director)
    page = signed_in(director).get(reverse("scoring:table", args=[game.table_id]))
    text = page.content.decode()
    deleted = text.index(f"round 2 deleted by {director.username}")
    entered_2 = text.index(f"round 2 entered by {director.username}")
    entered_1 = text.index("round 1 entered by someone")
    assert deleted < entered_2 < entered_1


def test_a_round_played_online_says_so_rather_than_who_typed_it(game: Game, director: Any) -> None:
    """Nobody typed a round the players played on their phones: the history says it was
    played online at the table, not that "someone" entered it."""
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=ONLINE)
    page = signed_in(director).get(reverse("scoring:table", args=[game.table_id]))
    text = page.content.decode()
    assert "round 1 played online at the table" in text
    assert "entered by someone" not in text


def test_the_history_is_shown_to_the_tables_scorer_only(game: Game, director: Any) -> None:
    from tests.scoring.helpers import link_client

    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=director)
    url = reverse("scoring:table", args=[game.table_id])
    line = f"round 1 entered by {director.username}"
    assert line in link_client(game.table_id, director).get(url).content.decode()
    public = Client().get(url)  # the session is public: the sheet, not its history
    assert public.status_code == 200
    assert line not in public.content.decode()
