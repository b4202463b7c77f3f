"""Every refusal of the tournament services leaves the database exactly as it was.

Each test triggers one `UserError` of one service of the session's workflow
(`workflow.session.services`, `workflow.session.start_finish`,
`workflow.session.withdrawals`) and compares every row of the project's tables before and
after, so that a write that did part of its work before finding the reason to refuse (a
roster entry, a seat, the board version) cannot pass. Refusals already proven with the
whole database elsewhere are not repeated: `test_sessions.py` (bad session settings,
check-in all or nothing, too few players).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from common.errors import ConflictError, UserError
from scoring import records
from scoring import services as scoring
from scoring.models import Game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import BigLoserAward, Club, Player, Season, Seating, Session, SessionPlayer
from tournaments.permissions import SYSTEM
from workflow.session import movements, services, start_finish, withdrawals
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db

MakeSession = Callable[..., Session]


def refused(code: str, call: Callable[[], object]) -> UserError:
    """Run `call`, expect the refusal `code`, and check that no table changed."""
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    assert caught.value.message.strip()
    assert changed_tables(before) == []
    return caught.value


def first_round(game: Game) -> dict[str, Any]:
    """A valid first round: the first dealer's left-hand neighbour takes all five tricks."""
    record = records.game_record(game)
    players = record["players"]
    taker = players[(players.index(record["first_dealer"]) + 1) % len(players)]
    return {"tricks": {taker: 5}}


def finished(make_session: MakeSession, players: int = 8) -> Session:
    session = make_session(players)
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    session.refresh_from_db()
    return session


def seated_at(session: Session, rank: int) -> list[int]:
    return list(
        Seating.objects.filter(
            sitting__session=session, table__rank=rank, left_at__isnull=True
        ).values_list("player_id", flat=True)
    )


# session_create -------------------------------------------------------------------------


def new_session(club: Any, season: Any, **kw: Any) -> Callable[[], object]:
    args: dict[str, Any] = {
        "club": club,
        "season": season,
        "name": "Night",
        "date": season.starts_on,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "user": SYSTEM,
        **kw,
    }
    return lambda: services.session_create(**args)


def test_a_session_in_a_season_of_another_club_is_refused(club: Any) -> None:
    elsewhere = SeasonFactory.create()
    error = refused("season_not_in_club", new_session(club, elsewhere, new_names=["Ann"]))
    assert error.field == "season"


def test_a_session_with_a_player_of_another_club_creates_no_new_player(
    club: Any, season: Any
) -> None:
    stranger = PlayerFactory.create()
    mine = PlayerFactory.create(club=club)
    call = new_session(club, season, player_ids=[mine.pk, stranger.pk], new_names=["Fresh"])
    refused("unknown_player", call)
    assert not Player.objects.filter(name="Fresh").exists()


def test_a_new_name_over_sixty_characters_refuses_the_whole_roster(club: Any, season: Any) -> None:
    refused("name_too_long", new_session(club, season, new_names=["Ann", "x" * 61]))
    assert not Player.objects.filter(club=club).exists()


# session_update_settings ----------------------------------------------------------------


def test_a_sitting_of_four_games_is_refused(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "games_per_sitting",
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=4,
            is_public=False,
            double_entry=True,
            user=SYSTEM,
        ),
    )


def test_a_finished_session_keeps_its_sitting_length(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_finished",
        lambda: services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=3,
            is_public=False,
            double_entry=True,
            user=SYSTEM,
        ),
    )


# scorer_link_create ---------------------------------------------------------------------


def test_no_scorer_link_for_a_table_of_a_sitting_that_has_moved_on(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    sitting = session.sittings.get()
    finish_sitting_unplayed(sitting, random.Random(3))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    old_table = sitting.tables.get(rank=1)
    refused(
        "sitting_closed", lambda: table_links.scorer_link_create(table_id=old_table.pk, user=SYSTEM)
    )


def test_no_scorer_link_once_the_session_is_finished(make_session: MakeSession) -> None:
    session = finished(make_session)
    table = session.sittings.get().tables.get(rank=1)
    refused(
        "sitting_closed", lambda: table_links.scorer_link_create(table_id=table.pk, user=SYSTEM)
    )


# session_add_players --------------------------------------------------------------------


def test_no_player_joins_a_finished_session(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_finished",
        lambda: services.session_add_players(
            session_id=session.pk, new_names=["Late"], user=SYSTEM
        ),
    )
    assert not Player.objects.filter(name="Late").exists()


@pytest.mark.parametrize("names", [[], ["   ", ""]], ids=["nothing", "blank names"])
def test_adding_nobody_is_refused(make_session: MakeSession, names: list[str]) -> None:
    session = make_session(8)
    refused(
        "no_players",
        lambda: services.session_add_players(session_id=session.pk, new_names=names, user=SYSTEM),
    )


def test_a_player_already_on_the_roster_is_not_added_twice_before_the_start(
    make_session: MakeSession,
) -> None:
    session = make_session(8, start=False)
    on_roster = session.entries.first()
    assert on_roster is not None
    refused(
        "already_on_roster",
        lambda: services.session_add_players(
            session_id=session.pk, player_ids=[on_roster.player_id], user=SYSTEM
        ),
    )


def test_a_refused_late_arrival_seats_nobody_who_came_with_them(
    make_session: MakeSession,
) -> None:
    """The newcomer is seated first, then the player already playing is refused: the
    newcomer's seat, roster entry and player row must all go with the refusal."""
    session = make_session(9)
    playing = session.entries.first()
    assert playing is not None
    error = refused(
        "already_on_roster",
        lambda: services.session_add_players(
            session_id=session.pk,
            player_ids=[playing.player_id],
            new_names=["Newcomer"],
            user=SYSTEM,
        ),
    )
    assert playing.player.name in error.message
    assert not SessionPlayer.objects.filter(player__name="Newcomer").exists()


# session_check_in -----------------------------------------------------------------------


def test_checking_in_after_the_start_changes_nobody(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "session_started",
        lambda: services.session_check_in(
            session_id=session.pk, player_ids=None, checked_in=False, user=SYSTEM
        ),
    )


# sitting_move_players -------------------------------------------------------------------


def test_a_movement_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


def test_a_movement_after_the_finish_is_refused(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_not_running",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


def test_a_movement_of_another_sitting_than_the_current_is_a_conflict(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(4))
    error = refused(
        "movement_already_confirmed",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=2, user=SYSTEM
        ),
    )
    assert isinstance(error, ConflictError)


def test_a_movement_while_tables_play_records_no_placing(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "sitting_unfinished",
        lambda: movements.sitting_move_players(
            session_id=session.pk, sitting_number=1, user=SYSTEM
        ),
    )


# sitting_undo_movement ------------------------------------------------------------------


def test_undoing_a_movement_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_there_is_no_movement_to_undo_in_the_first_sitting(make_session: MakeSession) -> None:
    session = make_session(8)
    refused(
        "nothing_to_undo",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_an_undo_after_the_new_sitting_has_a_round_keeps_both_sittings_whole(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(5))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    game = Game.objects.filter(table__sitting__session=session, table__sitting__number=2)[0]
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    refused(
        "new_sitting_started",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


def test_an_undo_after_the_finish_is_refused(make_session: MakeSession) -> None:
    session = make_session(8)
    finish_sitting_unplayed(session.sittings.get(), random.Random(6))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM)
    refused(
        "session_not_running",
        lambda: movements.sitting_undo_movement(session_id=session.pk, user=SYSTEM),
    )


# session_start --------------------------------------------------------------------------


def test_a_second_start_draws_no_new_tables(make_session: MakeSession) -> None:
    session = make_session(8)
    error = refused(
        "session_started", lambda: start_finish.session_start(session_id=session.pk, user=SYSTEM)
    )
    assert isinstance(error, ConflictError)


# session_withdraw -----------------------------------------------------------------------


def test_withdrawing_a_player_who_is_not_on_the_roster_is_refused(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    outsider = PlayerFactory.create(club=session.club)
    refused(
        "not_on_roster",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=outsider.pk, user=SYSTEM
        ),
    )


def test_a_player_cannot_withdraw_twice(make_session: MakeSession) -> None:
    session = make_session(9)
    leaver = seated_at(session, 1)[0]
    withdrawals.session_withdraw(session_id=session.pk, player_id=leaver, user=SYSTEM)
    refused(
        "already_withdrawn",
        lambda: withdrawals.session_withdraw(session_id=session.pk, player_id=leaver, user=SYSTEM),
    )


def test_nobody_withdraws_from_a_finished_session(make_session: MakeSession) -> None:
    session = finished(make_session)
    player_id = seated_at(session, 1)[0]
    refused(
        "session_not_running",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_id, user=SYSTEM
        ),
    )


def test_a_refused_withdrawal_mid_game_leaves_every_seat_and_game_alone(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    player_id = seated_at(session, 1)[0]
    refused(
        "withdrawal_mid_game",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=player_id, user=SYSTEM
        ),
    )


# rebalance_proposal and session_rebalance -----------------------------------------------


def test_no_rebalance_is_proposed_before_the_start(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused("session_not_started", lambda: movements.rebalance_proposal(session=session))


def test_a_rebalance_before_the_start_is_refused(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: movements.session_rebalance(session_id=session.pk, expected=[], user=SYSTEM),
    )


def test_a_rebalance_of_too_few_players_to_make_a_table_is_refused(
    make_session: MakeSession,
) -> None:
    session = make_session(5)  # one table of five
    for player_id in seated_at(session, 1)[:3]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    refused(
        "too_few_players",
        lambda: movements.session_rebalance(session_id=session.pk, expected=[], user=SYSTEM),
    )


def test_a_stale_rebalance_moves_nobody(make_session: MakeSession) -> None:
    session = make_session(8)
    for player_id in seated_at(session, 2)[:2]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    proposal = movements.rebalance_proposal(session=session)
    assert proposal
    stale = [(m.player, m.from_rank, m.to_rank + 1) for m in proposal]
    error = refused(
        "proposal_changed",
        lambda: movements.session_rebalance(session_id=session.pk, expected=stale, user=SYSTEM),
    )
    assert isinstance(error, ConflictError)


def test_a_rebalance_that_would_move_a_player_mid_game_moves_nobody(
    make_session: MakeSession,
) -> None:
    """Four tables of four; three withdrawals from the top table leave 1-4-4-4, and the
    rebalance moves one player up from table 2, then one from table 3. Table 3 is mid-game:
    the second move is refused, and the first, already made, must be undone with it."""
    session = make_session(16)
    for player_id in seated_at(session, 1)[:3]:
        withdrawals.session_withdraw(session_id=session.pk, player_id=player_id, user=SYSTEM)
    proposal = movements.rebalance_proposal(session=session)
    assert [(m.from_rank, m.to_rank) for m in proposal] == [(2, 1), (3, 1)]
    game = Game.objects.get(table__sitting__session=session, table__rank=3)
    scoring.round_submit(game_id=game.pk, number=1, data=first_round(game), actor=SYSTEM)
    expected = [(m.player, m.from_rank, m.to_rank) for m in proposal]
    error = refused(
        "move_mid_game",
        lambda: movements.session_rebalance(session_id=session.pk, expected=expected, user=SYSTEM),
    )
    assert "table 3" in error.message


# session_finish -------------------------------------------------------------------------


def test_a_session_that_has_not_started_cannot_be_finished(make_session: MakeSession) -> None:
    session = make_session(8, start=False)
    refused(
        "session_not_running",
        lambda: start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM),
    )


def test_a_session_cannot_be_finished_twice(make_session: MakeSession) -> None:
    session = finished(make_session)
    refused(
        "session_not_running",
        lambda: start_finish.session_finish(session_id=session.pk, early=True, user=SYSTEM),
    )


def test_finishing_with_unplayed_games_without_saying_early_keeps_no_standing(
    make_session: MakeSession,
) -> None:
    session = make_session(8)
    refused(
        "sitting_unfinished",
        lambda: start_finish.session_finish(session_id=session.pk, user=SYSTEM),
    )
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING


# big_loser_award ------------------------------------------------------------------------


def test_the_big_loser_must_be_a_player_of_the_club(club: Any, season: Any) -> None:
    outsider = PlayerFactory.create(club=ClubFactory.create())
    error = refused(
        "unknown_player",
        lambda: start_finish.big_loser_award(
            season_id=season.pk, player_id=outsider.pk, user=SYSTEM
        ),
    )
    assert error.field == "player"
    assert not BigLoserAward.objects.exists()


def test_a_refused_big_loser_keeps_the_award_already_made(club: Any, season: Any) -> None:
    holder = PlayerFactory.create(club=club)
    start_finish.big_loser_award(season_id=season.pk, player_id=holder.pk, user=SYSTEM)
    refused(
        "unknown_player",
        lambda: start_finish.big_loser_award(season_id=season.pk, player_id=10**9, user=SYSTEM),
    )
    assert BigLoserAward.objects.get(season=season).player == holder


def test_a_session_dated_outside_its_season_is_refused_and_the_covering_season_named(
    club: Club, season: Season, director: Any
) -> None:
    later = SeasonFactory(club=club, name="2027")
    with pytest.raises(UserError) as refused:
        services.session_create(
            club=club,
            season=season,
            name="Spring night",
            date=date(2027, 3, 1),
            rules_id="huckley-buck",
            games_per_sitting=2,
            new_names=["Ann", "Bob", "Cy"],
            user=director,
        )
    assert refused.value.code == "date_outside_season"
    assert refused.value.field == "date"
    assert "2027-03-01 is outside the season 2026" in refused.value.message
    assert f"Choose the season {later.name}" in refused.value.message
    assert not Session.objects.filter(name="Spring night").exists()


def test_a_session_dated_where_no_season_covers_it_is_told_to_open_one(
    club: Club, season: Season, director: Any
) -> None:
    with pytest.raises(UserError) as refused:
        services.session_create(
            club=club,
            season=season,
            name="Spring night",
            date=date(2031, 3, 1),
            rules_id="huckley-buck",
            games_per_sitting=2,
            new_names=["Ann", "Bob", "Cy"],
            user=director,
        )
    assert "open a season that covers it" in refused.value.message
