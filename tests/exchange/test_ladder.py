"""The season ladder's scoring is the club's choice: average finish, points per placing
or totals, with "best N nights count". The expected orders below are worked out by hand
from the nights in `NIGHTS` (see the comments), not by the code under test."""

from __future__ import annotations

import sys
import types
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from exchange import services
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory
from tournaments.models import BigLoserAward, Club, Season, Session, SessionStanding
from workflow.club import selectors as club_selectors

pytestmark = pytest.mark.django_db

# name: (position, points, games won, hooks) per night.
NIGHTS: list[dict[str, tuple[int, int, int, int]]] = [
    # A field of 4: placing points A 4, B 3, C 2, D 1.
    {"A": (1, 30, 2, 0), "B": (2, 20, 1, 1), "C": (3, 10, 0, 2), "D": (4, 5, 0, 3)},
    # A field of 6: E 6, D 5, C 4, A 3, B 2, F 1.
    {
        "E": (1, 50, 2, 0),
        "D": (2, 40, 1, 0),
        "C": (3, 30, 1, 1),
        "A": (4, 20, 0, 2),
        "B": (5, 10, 0, 1),
        "F": (6, 0, 0, 5),
    },
    # A field of 4: D 4, B 3, A 2, C 1.
    {"D": (1, 35, 2, 0), "B": (2, 25, 1, 1), "A": (3, 15, 1, 2), "C": (4, 5, 0, 4)},
]


def play_nights(club: Club, season: Season, nights: list[dict[str, tuple[int, int, int, int]]],
                rules_id: str = "huckley-buck") -> dict[str, Any]:  # fmt: skip
    players: dict[str, Any] = {}
    for number, night in enumerate(nights, start=1):
        session = SessionFactory(
            club=club,
            season=season,
            name=f"Night {number}",
            rules_id=rules_id,
            status=Session.Status.FINISHED,
        )
        for name, (position, points, won, hooks) in night.items():
            if name not in players:
                players[name] = PlayerFactory(club=club, name=name)
            SessionStanding.objects.create(
                session=session,
                player=players[name],
                position=position,
                points=points,
                games_played=3,
                games_won=won,
                hooks=hooks,
            )
    return players


def ladder(season: Season) -> list[str]:
    return [r.player.name for r in club_selectors.season_standings(season.pk)]


def set_scoring(club: Club, scoring: str, best: int | None = None) -> None:
    club.ladder_scoring = scoring
    club.ladder_best_nights = best
    club.save()


@pytest.fixture
def nights(club: Club, season: Season) -> dict[str, Any]:
    return play_nights(club, season, NIGHTS)


def test_the_default_ladder_ranks_by_average_finish(
    club: Club, season: Season, nights: Any
) -> None:
    # A 8/3, B 9/3, C 10/3, D 7/3, E 1/1, F 6/1.
    assert ladder(season) == ["E", "D", "A", "B", "C", "F"]
    rows = {r.player.name: r for r in club_selectors.season_standings(season.pk)}
    assert rows["D"].score == pytest.approx(7 / 3)
    assert (rows["A"].sessions, rows["A"].games_won, rows["A"].points, rows["A"].hooks) == (
        3,
        3,
        65,
        4,
    )


def test_points_per_placing_give_a_bigger_night_more_weight(
    club: Club, season: Season, nights: Any
) -> None:
    set_scoring(club, "placings")
    # A 4+3+2 = 9, B 3+2+3 = 8, C 2+4+1 = 7, D 1+5+4 = 10, E 6, F 1.
    assert ladder(season) == ["D", "A", "B", "C", "E", "F"]
    scores = {r.player.name: r.score for r in club_selectors.season_standings(season.pk)}
    assert scores == {"A": 9, "B": 8, "C": 7, "D": 10, "E": 6, "F": 1}


def test_totals_rank_by_game_points(club: Club, season: Season, nights: Any) -> None:
    set_scoring(club, "totals")
    # A 65, B 55, C 45, D 80, E 50, F 0.
    assert ladder(season) == ["D", "A", "B", "E", "C", "F"]


def test_best_nights_drop_each_players_worst_results(
    club: Club, season: Season, nights: Any
) -> None:
    set_scoring(club, "totals", best=2)
    # Best two: A 30+20 = 50, B 25+20 = 45, C 30+10 = 40, D 40+35 = 75, E 50, F 0;
    # A and E tie on 50: A won 3 games, E 2.
    assert ladder(season) == ["D", "A", "E", "B", "C", "F"]
    rows = {r.player.name: r for r in club_selectors.season_standings(season.pk)}
    assert (rows["A"].sessions, rows["A"].counted, rows["A"].score) == (3, 2, 50)
    # The dropped night still counts for the season's totals (and the Big Loser).
    assert rows["A"].points == 65


def test_best_nights_with_placings_and_average(club: Club, season: Season, nights: Any) -> None:
    set_scoring(club, "placings", best=2)
    # A 4+3 = 7, B 3+3 = 6, C 4+2 = 6, D 5+4 = 9, E 6, F 1; B, C and E tie on 6:
    # games won B 2, E 2, C 1; B and E tie again: points B 55, E 50.
    assert ladder(season) == ["D", "A", "B", "E", "C", "F"]
    set_scoring(club, "average", best=2)
    # A (1+3)/2 = 2, B (2+2)/2 = 2, C (3+3)/2 = 3, D (2+1)/2 = 1.5, E 1, F 6;
    # A and B tie on 2: games won A 3, B 2.
    assert ladder(season) == ["E", "D", "A", "B", "C", "F"]
    rows = {r.player.name: r for r in club_selectors.season_standings(season.pk)}
    assert rows["D"].score == 1.5
    assert rows["D"].average_finish == pytest.approx(7 / 3)


def test_totals_in_a_lower_is_better_season_put_the_fewest_points_first(
    club: Club, season: Season
) -> None:
    play_nights(
        club,
        season,
        [{"P": (1, 10, 1, 0), "Q": (2, 20, 0, 0)}, {"Q": (1, 15, 1, 0), "P": (2, 30, 0, 0)}],
        rules_id="buck-euchre",
    )
    set_scoring(club, "totals")
    assert ladder(season) == ["Q", "P"]  # P 40, Q 35
    set_scoring(club, "totals", best=1)
    assert ladder(season) == ["P", "Q"]  # P 10, Q 15


def test_the_most_wins_award_is_shared_on_a_tie(club: Club, season: Season, nights: Any) -> None:
    awards = club_selectors.season_awards(season.pk)
    # Games won: A 2+0+1 = 3, D 0+1+2 = 3, B 2, C 1, E 2, F 0.
    assert sorted(r.player.name for r in awards.most_wins) == ["A", "D"]


def test_most_improved_is_left_to_the_ratings_app(
    club: Club, season: Season, nights: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(sys.modules, "ratings.selectors", raising=False)
    fake = types.ModuleType("ratings.selectors")
    fake.season_most_improved = lambda season_id: [nights["C"]]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ratings.selectors", fake)
    assert club_selectors.season_awards(season.pk).most_improved == ["C"]


def test_the_club_page_says_which_scoring_is_in_force(
    client: Client, club: Club, season: Season, nights: Any
) -> None:
    set_scoring(club, "placings", best=2)
    page = client.get(reverse("tournaments:club", args=[club.slug])).content.decode()
    assert "points per placing" in page
    assert "best 2 nights count" in page
    assert "Most wins" in page


def test_a_closed_season_stays_readable_as_an_archive(client: Client, club: Club) -> None:
    old = Season.objects.create(
        club=club, name="2019", starts_on=date(2019, 1, 1), ends_on=date(2019, 12, 31)
    )
    players = play_nights(club, old, NIGHTS[:1])
    BigLoserAward.objects.create(season=old, player=players["D"])
    Season.objects.create(
        club=club, name="2099", starts_on=date(2099, 1, 1), ends_on=date(2099, 12, 31)
    )
    url = reverse("tournaments:club", args=[club.slug]) + f"?season={old.pk}"
    page = client.get(url).content.decode()
    assert "This season ended on" in page
    for name in "ABCD":
        # Each name on the ladder links to the player's page.
        assert f">{name}</a></td>" in page
    assert "Awards of 2019" in page
    assert "<th>Big Loser</th><td>D</td>" in page


def test_a_director_changes_the_scoring_and_the_cached_ladder_follows(
    client: Client,
    director: Any,
    club: Club,
    season: Season,
    nights: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    assert club_selectors.season_standings_cached(season.pk)[0].player.name == "E"
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("exchange:ladder_settings", args=[club.slug]),
            {"scoring": "placings", "best_nights": ""},
        )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.ladder_scoring, club.ladder_best_nights) == ("placings", None)
    assert club_selectors.season_standings_cached(season.pk)[0].player.name == "D"


@pytest.mark.parametrize(
    ("scoring", "best", "code"),
    [
        ("wins", "", "ladder_scoring_unknown"),
        ("totals", "0", "ladder_best_nights_invalid"),
        ("totals", "many", "ladder_best_nights_invalid"),
        ("totals", "1000", "ladder_best_nights_invalid"),
    ],
)
def test_a_bad_ladder_setting_is_refused_and_changes_nothing(
    client: Client, director: Any, club: Club, scoring: str, best: str, code: str
) -> None:
    client.force_login(director)
    response = client.post(
        reverse("exchange:ladder_settings", args=[club.slug]),
        {"scoring": scoring, "best_nights": best},
        follow=True,
    )
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert any("ladder" in m.lower() or "best nights" in m.lower() for m in messages)
    club.refresh_from_db()
    assert (club.ladder_scoring, club.ladder_best_nights) == ("average", None)
    if best.isdigit():
        with pytest.raises(UserError) as caught:
            services.club_ladder_update(
                club_id=club.pk, scoring=scoring, best_nights=int(best), user=director
            )
        assert caught.value.code == code


@pytest.mark.parametrize("who", ["anonymous", "other director", "player"])
def test_only_a_director_of_the_club_may_change_the_scoring(
    client: Client, club: Club, who: str
) -> None:
    if who != "anonymous":
        user = UserFactory()
        if who == "other director":
            ClubFactory().directors.add(user)
        else:
            PlayerFactory(club=club, user=user)
        client.force_login(user)
    response = client.post(
        reverse("exchange:ladder_settings", args=[club.slug]), {"scoring": "totals"}
    )
    assert response.status_code == (302 if who == "anonymous" else 403)
    club.refresh_from_db()
    assert club.ladder_scoring == "average"
