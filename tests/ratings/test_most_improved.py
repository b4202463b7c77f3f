"""The season's "most improved rating" award."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from ratings import services
from ratings.selectors import season_most_improved
from tests.factories import SeasonFactory
from tests.ratings import weng_lin
from tournaments.models import Club, Player, Season
from tournaments.permissions import SYSTEM


def test_the_player_whose_rating_rose_most_over_the_season_is_most_improved(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    last_year = SeasonFactory(club=rclub, name="2025")
    # Last season counts for the starting point only.
    helpers.game(
        helpers.session(rclub, last_year, day=date(2025, 6, 1)),
        [(a, 15, True), (b, 3, False), (c, 2, False)],
    )
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)),
        [(a, 2, False), (b, 15, True), (c, 9, False)],
    )
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 8)),
        [(a, 3, False), (b, 9, False), (c, 15, True)],
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)

    start = weng_lin.update([(weng_lin.MU, weng_lin.SIGMA)] * 3, [1, 2, 3])
    end = weng_lin.update(weng_lin.update(start, [3, 1, 2]), [3, 2, 1])
    rises = {
        p.pk: weng_lin.ordinal(*after) - weng_lin.ordinal(*before)
        for p, before, after in zip([a, b, c], start, end, strict=True)
    }
    best = max(rises, key=lambda pid: rises[pid])
    (winner,) = season_most_improved(rseason.pk)
    assert winner.player.pk == best
    assert winner.rise == pytest.approx(rises[best])
    assert winner.games == 2
    assert winner.rules_id == "huckley-buck"


def test_players_with_the_same_rise_share_the_award(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c, d = people[:4]
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)),
        [(a, 0, False), (b, 15, True), (c, 15, True), (d, 0, False)],
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    assert [i.player for i in season_most_improved(rseason.pk)] == sorted(
        [b, c], key=lambda p: p.name
    )


def test_a_season_without_games_has_no_most_improved(rseason: Season) -> None:
    assert season_most_improved(rseason.pk) == []
