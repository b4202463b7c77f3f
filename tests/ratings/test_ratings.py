"""Ratings from finished games, checked against the Weng-Lin update written out in
tests/ratings/weng_lin.py, with each game's ranks derived by hand."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.core.management import call_command

from ratings import services
from ratings.models import Rating, RatingHistory
from tests.ratings import weng_lin
from tournaments.models import Club, Player, Season
from tournaments.permissions import SYSTEM

START = (weng_lin.MU, weng_lin.SIGMA)


def rating_of(player: Player, rules_id: str = "huckley-buck") -> tuple[float, float, int]:
    r = Rating.objects.get(player=player, rules_id=rules_id)
    assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
    return r.mu, r.sigma, r.games


def assert_rated(
    players: list[Player], expected: list[tuple[float, float]], games: int = 1
) -> None:
    for player, (mu, sigma) in zip(players, expected, strict=True):
        got = rating_of(player)
        assert got[0] == pytest.approx(mu, abs=1e-9), player.name
        assert got[1] == pytest.approx(sigma, abs=1e-9), player.name
        assert got[2] == games


def rebuild(club: Club) -> None:
    services.ratings_rebuild(club_id=club.pk, user=SYSTEM)


def test_three_players_are_rated_by_winner_then_score(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    # Seat order is not rank order: c won, a has more points than b.
    helpers.game(session, [(a, 8, False), (b, 3, False), (c, 15, True)])
    rebuild(rclub)
    expected = weng_lin.update([START] * 3, [2, 3, 1])
    assert_rated([a, b, c], expected)
    assert rating_of(c)[0] > rating_of(a)[0] > rating_of(b)[0]


def test_equal_scores_share_a_rank(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c, d = people[:4]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 15, True), (b, 7, False), (c, 7, False), (d, 2, False)])
    rebuild(rclub)
    expected = weng_lin.update([START] * 4, [1, 2, 2, 4])
    assert_rated([a, b, c, d], expected)
    assert rating_of(b) == rating_of(c)


def test_shared_winners_share_the_first_rank(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 15, True), (b, 15, True), (c, 9, False)])
    rebuild(rclub)
    assert_rated([a, b, c], weng_lin.update([START] * 3, [1, 1, 3]))


def test_a_winner_ranks_above_a_loser_with_the_same_score(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 10, False), (b, 10, True), (c, 4, False)])
    rebuild(rclub)
    assert_rated([a, b, c], weng_lin.update([START] * 3, [2, 1, 3]))


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        # (score, won) per seat, and the ranks worked out by hand
        ([(3, False), (12, False), (15, True), (12, False), (-4, False)], [4, 2, 1, 2, 5]),
        ([(0, False)] * 5 + [(16, True)], [2, 2, 2, 2, 2, 1]),
        (
            [
                (15, True),
                (14, False),
                (13, False),
                (12, False),
                (11, False),
                (10, False),
                (-9, False),
            ],
            [1, 2, 3, 4, 5, 6, 7],
        ),
    ],
    ids=["five", "six", "seven"],
)
def test_tables_of_five_to_seven(
    rclub: Club,
    rseason: Season,
    people: list[Player],
    helpers: Any,
    scores: list[tuple[int, bool]],
    ranks: list[int],
) -> None:
    seated = people[: len(scores)]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(p, s, w) for p, (s, w) in zip(seated, scores, strict=True)])
    rebuild(rclub)
    assert_rated(seated, weng_lin.update([START] * len(seated), ranks))


def test_buck_euchre_ranks_lower_scores_better(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c, d = people[:4]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1), rules_id="buck-euchre")
    # a went out first (won); then lower is better: c 3, then b and d tied on 9.
    helpers.game(session, [(a, 0, True), (b, 9, False), (c, 3, False), (d, 9, False)])
    rebuild(rclub)
    expected = weng_lin.update([START] * 4, [1, 3, 2, 3])
    for player, (mu, sigma) in zip([a, b, c, d], expected, strict=True):
        got = rating_of(player, "buck-euchre")
        assert (got[0], got[1]) == pytest.approx((mu, sigma), abs=1e-9)
    assert not Rating.objects.filter(rules_id="huckley-buck").exists()


def test_games_apply_by_session_date_then_sitting_game_and_table(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    later = helpers.session(rclub, rseason, day=date(2026, 3, 8))
    earlier = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    # Created out of order on purpose: the later session's game first, then within the
    # earlier session sitting 2 before sitting 1 and game 2 before game 1.
    helpers.game(later, [(a, 2, False), (b, 15, True), (c, 9, False)])
    helpers.game(earlier, [(a, 15, True), (b, 1, False), (c, 2, False)], sitting=2)
    helpers.game(earlier, [(a, 3, False), (b, 4, False), (c, 15, True)], number=2)
    helpers.game(earlier, [(a, 15, True), (b, 9, False), (c, 1, False)], number=1)
    rebuild(rclub)
    state = [START] * 3
    for ranks in ([1, 2, 3], [3, 2, 1], [1, 3, 2], [3, 1, 2]):
        state = weng_lin.update(state, ranks)
    assert_rated([a, b, c], state, games=4)


def test_the_start_time_orders_sessions_of_one_day(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b = people[:2]
    day = date(2026, 3, 1)
    evening = helpers.session(
        rclub, rseason, day=day, started_at=datetime(2026, 3, 1, 19, tzinfo=UTC)
    )
    afternoon = helpers.session(
        rclub, rseason, day=day, started_at=datetime(2026, 3, 1, 14, tzinfo=UTC)
    )
    helpers.game(evening, [(a, 15, True), (b, 3, False)])
    helpers.game(afternoon, [(a, 3, False), (b, 15, True)])
    rebuild(rclub)
    expected = weng_lin.update(weng_lin.update([START] * 2, [2, 1]), [1, 2])
    assert_rated([a, b], expected, games=2)


def test_a_game_still_playing_does_not_count(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 15, True), (b, 3, False), (c, 2, False)])
    helpers.game(session, [(a, 1, False), (b, 3, False), (c, 2, False)], number=2, finished=False)
    rebuild(rclub)
    assert_rated([a, b, c], weng_lin.update([START] * 3, [1, 2, 3]))
    assert RatingHistory.objects.count() == 3


def test_rebuild_ratings_command_rebuilds_from_scratch(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any, capsys: Any
) -> None:
    a, b, c = people[:3]
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(session, [(a, 15, True), (b, 3, False), (c, 2, False)])
    # A stale row, as if written by an older version: the rebuild must drop it.
    Rating.objects.create(
        club=rclub, rules_id="bluke", player=a, mu=1, sigma=1, ordinal=-2, games=9
    )
    call_command("rebuild_ratings")
    assert "from 1 game" in capsys.readouterr().out
    assert not Rating.objects.filter(rules_id="bluke").exists()
    assert_rated([a, b, c], weng_lin.update([START] * 3, [1, 2, 3]))


def test_rebuild_ratings_refuses_an_unknown_club(db: None) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No club"):
        call_command("rebuild_ratings", "--club", "nowhere")


def test_a_club_is_rated_apart_from_other_clubs(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    from tests.factories import ClubFactory, PlayerFactory, SeasonFactory

    other = ClubFactory()
    x, y = PlayerFactory(club=other), PlayerFactory(club=other)
    other_session = helpers.session(other, SeasonFactory(club=other), day=date(2026, 1, 1))
    helpers.game(other_session, [(x, 15, True), (y, 1, False)])
    a, b = people[:2]
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)), [(a, 15, True), (b, 1, False)]
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    assert set(Rating.objects.values_list("player_id", flat=True)) == {a.pk, b.pk}
    services.ratings_rebuild(user=SYSTEM)
    assert Rating.objects.count() == 4


def test_a_robot_is_not_rated_and_the_people_are_ranked_among_themselves(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, robot = people[:3]
    Player.objects.filter(pk=robot.pk).update(is_robot=True)
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    # The robot won: it is left out, and a (more points) ranks above b.
    helpers.game(session, [(a, 8, False), (b, 3, False), (robot, 15, True)])
    rebuild(rclub)
    assert_rated([a, b], weng_lin.update([START] * 2, [1, 2]))
    assert not Rating.objects.filter(player=robot).exists()
    assert not RatingHistory.objects.filter(player=robot).exists()
