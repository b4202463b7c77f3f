"""Creating, checking in and starting a session: the split of docs/format.md rules 1-2."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from common.errors import ConflictError, UserError
from scoring.models import Game
from tests.factories import SeasonFactory
from tournaments.models import BigLoserAward, Player, Seating, Session
from tournaments.permissions import SYSTEM
from workflow.session import services, start_finish

pytestmark = pytest.mark.django_db


def table_sizes(session: Session) -> list[int]:
    sitting = session.sittings.get(number=1)
    counts = Counter(Seating.objects.filter(sitting=sitting).values_list("table__rank", flat=True))
    return [counts[rank] for rank in sorted(counts)]


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(5, [5]), (7, [7]), (8, [4, 4]), (11, [6, 5]), (13, [5, 4, 4]), (15, [5, 5, 5])],
)
def test_start_splits_players_as_the_format_says(
    make_session: Any, players: int, sizes: list[int]
) -> None:
    """ "Players are to randomly break up into groups of four, and any remaining players
    (one, two, or three) are to be added as evenly as possible" (IHBA format)."""
    session = make_session(players)
    assert session.status == Session.Status.RUNNING
    assert table_sizes(session) == sizes


def test_start_seats_everyone_once_with_seats_numbered_from_one(make_session: Any) -> None:
    session = make_session(13)
    seatings = list(Seating.objects.filter(sitting__session=session))
    assert sorted(s.player_id for s in seatings) == sorted(
        session.entries.values_list("player_id", flat=True)
    )
    for rank in {s.table.rank for s in seatings}:
        seats = sorted(s.seat for s in seatings if s.table.rank == rank)
        assert seats == list(range(1, len(seats) + 1))


def test_start_opens_game_one_at_every_table_with_a_recorded_draw(make_session: Any) -> None:
    session = make_session(13)
    games = list(Game.objects.filter(table__sitting__session=session))
    assert [g.number for g in games] == [1, 1, 1]
    for game in games:
        assert game.first_dealer_source == Game.DealerSource.DRAW
        names = set(game.game_players.values_list("name", flat=True))
        assert set(game.first_dealer_draw) == names


def test_the_same_seed_gives_the_same_tables(make_session: Any) -> None:
    def layout(session: Session) -> list[tuple[int, int, str]]:
        return sorted(
            Seating.objects.filter(sitting__session=session).values_list(
                "table__rank", "seat", "player__name"
            )
        )

    assert layout(make_session(13, seed=42)) == layout(make_session(13, seed=42))
    assert layout(make_session(13, seed=42)) != layout(make_session(13, seed=43))


def test_last_seasons_big_loser_starts_at_the_bottom_table(
    make_session: Any, club: Any, season: Any
) -> None:
    """ "Last years winner of the Big Loser trophy (if applicable) must always start the
    beginning of a day's session at the table with the worst ranking.\""""
    previous = SeasonFactory(club=club, name="2025")
    for seed in range(1, 6):
        session = make_session(13, seed=seed, start=False)
        holder = Player.objects.get(club=club, name="Cy")
        BigLoserAward.objects.update_or_create(season=previous, defaults={"player": holder})
        start_finish.session_start(session_id=session.pk, user=SYSTEM)
        seating = Seating.objects.get(sitting__session=session, player=holder)
        assert seating.table.rank == 3
        session.refresh_from_db()
        assert session.big_loser == holder


def test_a_big_loser_who_is_absent_changes_nothing(make_session: Any, club: Any) -> None:
    previous = SeasonFactory(club=club, name="2025")
    absent = Player.objects.create(club=club, name="Absent Al")
    BigLoserAward.objects.create(season=previous, player=absent)
    session = make_session(9)
    assert session.big_loser is None
    assert table_sizes(session) == [5, 4]


def test_start_is_refused_with_too_few_players(make_session: Any) -> None:
    session = make_session(2, start=False)
    with pytest.raises(UserError) as caught:
        start_finish.session_start(session_id=session.pk, user=SYSTEM)
    assert caught.value.code == "too_few_players"
    session.refresh_from_db()
    assert session.status == Session.Status.SETUP
    assert not session.sittings.exists()


def test_only_checked_in_players_are_seated(make_session: Any) -> None:
    session = make_session(10, start=False)
    late = session.entries.order_by("player__name")[:2]
    session.entries.filter(pk__in=[e.pk for e in late]).update(checked_in=False)
    start_finish.session_start(session_id=session.pk, user=SYSTEM)
    assert Seating.objects.filter(sitting__session=session).count() == 8


def test_a_session_cannot_start_twice(make_session: Any) -> None:
    session = make_session(8)
    with pytest.raises(ConflictError):
        start_finish.session_start(session_id=session.pk, user=SYSTEM)
    assert session.sittings.count() == 1


def test_check_in_is_refused_after_the_start(make_session: Any) -> None:
    session = make_session(8)
    entry = session.entries.first()
    with pytest.raises(UserError) as caught:
        services.session_check_in(
            session_id=session.pk, player_ids=[entry.player_id], checked_in=False, user=SYSTEM
        )
    assert caught.value.code == "session_started"


def test_check_in_is_all_or_nothing(make_session: Any) -> None:
    session = make_session(8, start=False)
    session.entries.update(checked_in=False)
    ids = list(session.entries.values_list("player_id", flat=True))
    stranger = Player.objects.create(club=session.club, name="Not On Roster")
    with pytest.raises(UserError) as caught:
        services.session_check_in(
            session_id=session.pk, player_ids=[*ids[:3], stranger.pk], checked_in=True, user=SYSTEM
        )
    assert caught.value.code == "not_on_roster"
    assert not session.entries.filter(checked_in=True).exists()
    services.session_check_in(session_id=session.pk, player_ids=None, checked_in=True, user=SYSTEM)
    assert session.entries.filter(checked_in=True).count() == 8


def test_new_names_reuse_club_players_regardless_of_case(club: Any, season: Any) -> None:
    Player.objects.create(club=club, name="Ann Lee")
    session = services.session_create(
        club=club,
        season=season,
        name="Night",
        date=season.starts_on,
        rules_id="huckley-buck",
        games_per_sitting=2,
        new_names=["ann  lee", "Bob", "", "bob"],
        user=SYSTEM,
    )
    assert sorted(session.entries.values_list("player__name", flat=True)) == ["Ann Lee", "Bob"]
    assert Player.objects.filter(club=club).count() == 2


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"rules_id": "poker"}, "unknown_rules"),
        ({"games_per_sitting": 4}, "games_per_sitting"),
        ({"name": "   "}, "name_required"),
        ({"name": "x" * 121}, "name_too_long"),
    ],
)
def test_session_create_refuses_bad_settings(
    club: Any, season: Any, change: dict[str, Any], code: str
) -> None:
    args: dict[str, Any] = {
        "club": club,
        "season": season,
        "name": "Night",
        "date": season.starts_on,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "user": SYSTEM,
        **change,
    }
    with pytest.raises(UserError) as caught:
        services.session_create(**args)
    assert caught.value.code == code
    assert not Session.objects.exists()
