"""A season counts games played (docs/tournament.md, Standings): a session ended before any
game finished gives no places and counts nowhere in the season (ladder, averages, awards,
ratings), and its pages say so; one ended part-way counts its finished games only; a
player with no finished game, one sitting out among them, never gets a place."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from ratings import services as rating_services
from ratings.models import Rating, RatingHistory
from scoring.models import Game, GamePlayer
from tournaments.models import Session, SessionStanding, SitOut
from tournaments.permissions import SYSTEM
from workflow.club import selectors as club_selectors
from workflow.session import movements, selectors, start_finish
from workflow.session.simulation import play_game, play_sitting

pytestmark = pytest.mark.django_db

NOT_COUNTED = "Ended before any game finished: not counted in the season."


def finish_early(session: Session) -> Session:
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    session.refresh_from_db()
    return session


def season_view(season_id: int) -> Any:
    """Everything the season shows that a session could change."""
    rows = club_selectors.season_standings(season_id)
    awards = club_selectors.season_awards(season_id, rows)
    return (
        [(r.player.name, r.sessions, r.average_finish, r.score, r.points, r.games_won, r.hooks)
         for r in rows],
        [r.player.name for r in awards.most_wins],
        [r.player.name for r in club_selectors.big_loser_suggestion(season_id, "hooks")],
    )  # fmt: skip


def ratings_view(club_id: int) -> Any:
    rating_services.ratings_rebuild(club_id=club_id, user=SYSTEM)
    return (
        sorted(Rating.objects.values_list("player__name", "rules_id", "ordinal", "games")),
        RatingHistory.objects.count(),
    )


def finished_games_points(session: Session) -> dict[int, int]:
    return dict(
        GamePlayer.objects.filter(
            game__table__sitting__session=session, game__status=Game.Status.FINISHED
        )
        .values("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )


def test_a_session_ended_before_any_game_finished_counts_nowhere(
    make_session: Any, season: Any
) -> None:
    played = make_session(8, seed=1)
    play_sitting(played.sittings.get(), seed=1)
    start_finish.session_finish(session_id=played.pk, user=SYSTEM)
    before, ratings_before = season_view(season.pk), ratings_view(played.club_id)
    assert before[0], "the played night is on the ladder"

    empty = finish_early(make_session(8, seed=2))  # the same eight players

    assert empty.status == Session.Status.FINISHED
    assert selectors.session_standings(empty) == []
    assert not SessionStanding.objects.filter(session=empty).exists()
    assert season_view(season.pk) == before
    assert ratings_view(played.club_id) == ratings_before
    assert club_selectors.session_not_counted(empty)
    assert not club_selectors.session_not_counted(played)


def test_the_pages_of_a_session_that_counts_nowhere_say_so(make_session: Any) -> None:
    empty = finish_early(make_session(8, seed=2))
    client = Client()
    for url in (
        reverse("tournaments:standings", args=[empty.pk]),
        reverse("tournaments:session", args=[empty.pk]),
    ):
        page = client.get(url).content.decode()
        assert NOT_COUNTED in page, url
    played = make_session(8, seed=1)
    play_sitting(played.sittings.get(), seed=1)
    start_finish.session_finish(session_id=played.pk, user=SYSTEM)
    page = client.get(reverse("tournaments:standings", args=[played.pk])).content.decode()
    assert NOT_COUNTED not in page


def test_a_session_ended_part_way_counts_the_finished_games_only(
    make_session: Any, season: Any
) -> None:
    session = make_session(8, seed=3)  # two tables of four, two games a sitting
    sitting = session.sittings.get()
    play_sitting(sitting, seed=3, games=1)
    # Game 2 of the top table is half played when the night ends: it does not count.
    second = Game.objects.get(table__sitting=sitting, table__rank=1, number=2)
    play_game(second, seed=4, rounds=2)
    assert second.rounds.exists()
    finish_early(session)

    expected = finished_games_points(session)
    rows = selectors.session_standings(session)
    assert [r.position for r in rows] == list(range(1, 9))
    assert {r.player_id: r.points for r in rows} == expected
    assert {r.games_played for r in rows} == {1}
    ladder = club_selectors.season_standings(session.season_id)
    assert {r.player.pk: r.points for r in ladder} == expected
    assert {r.sessions for r in ladder} == {1}


def test_a_table_that_finished_no_game_gives_its_players_no_place(
    make_session: Any, season: Any
) -> None:
    session = make_session(8, seed=3)
    top = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    play_game(top, seed=5)
    finish_early(session)
    placed = {r.player_id: r.position for r in selectors.session_standings(session)}
    assert set(placed) == set(top.game_players.values_list("player_id", flat=True))
    assert sorted(placed.values()) == [1, 2, 3, 4]
    averages = [r.average_finish for r in club_selectors.season_standings(session.season_id)]
    assert sorted(averages) == [1.0, 2.0, 3.0, 4.0]


def test_a_player_sitting_out_with_no_finished_game_never_gets_a_place(
    make_session: Any, season: Any
) -> None:
    session = make_session(7, seed=6, rules_id="buck-euchre")  # one table of four, three out
    sitting = session.sittings.get()
    out = set(SitOut.objects.filter(sitting=sitting).values_list("player_id", flat=True))
    assert len(out) == 3
    game = Game.objects.get(table__sitting=sitting, number=1)
    play_game(game, seed=6)
    finish_early(session)
    rows = selectors.session_standings(session)
    assert [r.position for r in rows] == [1, 2, 3, 4]
    assert not out & {r.player_id for r in rows}
    ladder = club_selectors.season_standings(session.season_id)
    assert not out & {r.player.pk for r in ladder}
    assert len(ladder) == 4


def test_a_player_who_played_then_sat_out_keeps_a_place_for_the_games_played(
    make_session: Any,
) -> None:
    session = make_session(5, seed=8, rules_id="buck-euchre")  # a table of four, one out
    first = session.sittings.get()
    (idle,) = SitOut.objects.filter(sitting=first).values_list("player_id", flat=True)
    play_sitting(first, seed=8)
    second = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    (resting,) = SitOut.objects.filter(sitting=second).values_list("player_id", flat=True)
    # The night ends before sitting 2 finishes a game: who sat out sitting 1 played none.
    finish_early(session)
    rows = selectors.session_standings(session)
    assert [r.position for r in rows] == [1, 2, 3, 4]
    assert idle not in {r.player_id for r in rows}
    assert rows[-1].player_id == resting
    assert rows[-1].sitting_out
    assert rows[-1].games_played == 2
