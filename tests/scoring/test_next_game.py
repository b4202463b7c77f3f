"""The next game at a table follows from the one before: it starts when that one ends,
its first dealer is that game's winner (docs/rules.md, ruling 7), and a correction or a
deletion that changes the outcome re-deals it, or withdraws it, while it has no round."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from scoring import records, services
from scoring.models import Game
from tests.scoring.helpers import (
    A_WINS,
    B_WINS_ROUND_4,
    NOBODY_WINS_ROUND_4,
    MakeSession,
    dealer_order,
    play,
    split,
    top_game,
)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8))


def following(game: Game) -> Game | None:
    return Game.objects.filter(table=game.table, number=game.number + 1).first()


def test_the_winner_of_a_game_deals_first_in_the_next(game: Game) -> None:
    play(game, A_WINS)
    a = dealer_order(game)[0]
    nxt = following(game)
    assert nxt is not None
    assert nxt.first_dealer.name == a
    assert nxt.first_dealer_source == Game.DealerSource.PREVIOUS_WINNER
    assert nxt.first_dealer.name == engine.next_game_first_dealer(records.game_check(game))


def test_a_correction_that_changes_the_winner_re_deals_the_next_game(game: Game) -> None:
    play(game, A_WINS)
    b = dealer_order(game)[1]
    before = following(game)
    assert before is not None
    seats = list(before.game_players.values_list("name", "seat"))
    services.round_correct(
        game_id=game.pk, number=4, data=split(game, *B_WINS_ROUND_4), actor=SYSTEM
    )
    after = following(game)
    assert after is not None
    assert after.first_dealer.name == b
    assert after.first_dealer_source == Game.DealerSource.PREVIOUS_WINNER
    game.refresh_from_db()
    assert list(game.game_players.filter(won=True).values_list("name", flat=True)) == [b]
    # Seats and players of the re-dealt game are those of the table, as before.
    assert after.pk != before.pk
    assert list(after.game_players.values_list("name", "seat")) == seats


def test_a_correction_that_keeps_the_winner_keeps_the_next_game(game: Game) -> None:
    play(game, A_WINS)
    before = following(game)
    assert before is not None
    services.round_correct(game_id=game.pk, number=4, data=split(game, 4, 1), actor=SYSTEM)
    after = following(game)
    assert after is not None
    assert after.pk == before.pk


def test_a_correction_that_reopens_the_game_withdraws_the_next(game: Game) -> None:
    play(game, A_WINS)
    services.round_correct(
        game_id=game.pk, number=4, data=split(game, *NOBODY_WINS_ROUND_4), actor=SYSTEM
    )
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.finished_at is None
    assert not game.game_players.filter(won=True).exists()
    assert following(game) is None


def test_deleting_the_winning_round_withdraws_the_next_game(game: Game) -> None:
    play(game, A_WINS)
    services.round_delete(game_id=game.pk, number=4, actor=SYSTEM)
    game.refresh_from_db()
    assert (game.status, game.round_count) == (Game.Status.PLAYING, 3)
    assert following(game) is None


def test_finishing_again_after_a_reopening_deals_the_new_winner(game: Game) -> None:
    play(game, A_WINS)
    _, b, _, _ = dealer_order(game)
    services.round_delete(game_id=game.pk, number=4, actor=SYSTEM)
    services.round_submit(
        game_id=game.pk, number=4, data=split(game, *B_WINS_ROUND_4), actor=SYSTEM
    )
    nxt = following(game)
    assert nxt is not None
    assert nxt.first_dealer.name == b


def test_the_last_game_of_a_sitting_starts_no_other(game: Game) -> None:
    play(game, A_WINS)
    second = following(game)
    assert second is not None
    assert game.table.sitting.games_per_sitting == 2
    play(second, A_WINS)
    second.refresh_from_db()
    assert second.status == Game.Status.FINISHED
    assert following(second) is None
    assert Game.objects.filter(table=game.table).count() == 2


def test_the_board_version_moves_when_a_game_ends_and_when_it_reopens(game: Game) -> None:
    """The public board is cached by version: a finished or re-opened game must bump it."""
    session = game.table.sitting.session

    def version() -> int:
        session.refresh_from_db()
        return session.board_version

    play(game, A_WINS[:3])
    start = version()
    services.round_submit(game_id=game.pk, number=4, data=split(game, *A_WINS[3]), actor=SYSTEM)
    ended = version()
    assert ended > start
    services.round_correct(
        game_id=game.pk, number=4, data=split(game, *NOBODY_WINS_ROUND_4), actor=SYSTEM
    )
    assert version() > ended


def test_stored_scores_follow_the_engine_after_every_change(game: Game, director: Any) -> None:
    play(game, A_WINS)
    services.round_correct(game_id=game.pk, number=2, data=split(game, 2, 3), actor=director)
    services.round_delete(game_id=game.pk, number=1, actor=director)
    output = records.game_check(game)
    game.refresh_from_db()
    winner = output["winner"]
    winners = {winner} if isinstance(winner, str) else set(winner or [])
    stored = {gp.name: (gp.score, gp.won) for gp in game.game_players.all()}
    assert stored == {name: (output["scores"][name], name in winners) for name in stored}
    assert game.round_count == 3
