"""Corrections that never surprise (issue 10): a preview of what a correction changes, a
confirmed correction that takes the next game's rounds off and keeps them in the
history, and a director's restore that puts everything back."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from common.errors import UserError
from scoring import corrections, services
from scoring.models import Game, Round, RoundChange
from tests.factories import UserFactory
from tests.scoring.helpers import (
    A_WINS,
    B_WINS_ROUND_4,
    NOBODY_WINS_ROUND_4,
    MakeSession,
    dealer_order,
    play,
    scorer,
    split,
    top_game,
)
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8))


@pytest.fixture
def decided(game: Game) -> Game:
    """Game 1 won by its first dealer, and game 2 started with two rounds entered."""
    play(game, A_WINS)
    following = Game.objects.get(table=game.table, number=2)
    play(following, [(3, 2), (2, 3)])
    return game


def next_game(game: Game) -> Game | None:
    return Game.objects.filter(table=game.table, number=game.number + 1).first()


def test_a_plain_correction_needs_no_confirmation(game: Game) -> None:
    play(game, A_WINS[:2])
    impact = corrections.correction_preview(game_id=game.pk, number=1, data=split(game, 2, 3))
    assert not impact.needs_confirm
    assert impact.lines() == []


def test_the_preview_says_the_game_reopens_and_which_rounds_go(decided: Game) -> None:
    impact = corrections.correction_preview(
        game_id=decided.pk, number=4, data=split(decided, *NOBODY_WINS_ROUND_4)
    )
    assert impact.needs_confirm
    assert impact.reopens
    assert impact.next_game.action == "withdraw"
    text = " ".join(impact.lines())
    assert "Game 1 is open again" in text
    assert "The 2 rounds entered in game 2 (rounds 1 to 2) go" in text
    # Nothing was written.
    assert Round.objects.filter(game=next_game(decided)).count() == 2


def test_the_preview_names_the_new_winner_and_who_deals_next(decided: Game) -> None:
    a, b, _, _ = dealer_order(decided)
    impact = corrections.correction_preview(
        game_id=decided.pk, number=4, data=split(decided, *B_WINS_ROUND_4)
    )
    assert impact.winners_before == [a]
    assert impact.winners_after == [b]
    text = " ".join(impact.lines())
    assert f"Game 1 is won by {b} instead of {a}." in text
    assert f"Game 2 starts again with {b} dealing first instead of {a} dealing first." in text


def test_the_preview_of_a_deletion(decided: Game) -> None:
    impact = corrections.correction_preview(game_id=decided.pk, number=4, data=None)
    assert impact.deleting
    assert impact.reopens
    assert impact.next_game.rounds


def test_the_preview_refuses_what_the_change_would_refuse(game: Game) -> None:
    play(game, A_WINS[:2])
    with pytest.raises(UserError) as refused:
        corrections.correction_preview(game_id=game.pk, number=1, data=split(game, 3, 3))
    assert refused.value.code == "round_invalid"


def test_unconfirmed_the_correction_is_refused_and_changes_nothing(decided: Game) -> None:
    with pytest.raises(UserError) as refused:
        services.round_correct(
            game_id=decided.pk, number=4, data=split(decided, *B_WINS_ROUND_4), actor=SYSTEM
        )
    assert refused.value.code == "next_game_started"
    assert "2 rounds" in refused.value.message
    assert Round.objects.filter(game=next_game(decided)).count() == 2


def test_a_confirmed_correction_keeps_what_it_took_off(decided: Game, director: Any) -> None:
    old = next_game(decided)
    assert old is not None
    rounds = list(old.rounds.order_by("number").values_list("data", flat=True))
    services.round_correct(
        game_id=decided.pk,
        number=4,
        data=split(decided, *NOBODY_WINS_ROUND_4),
        actor=director,
        confirm=True,
    )
    assert next_game(decided) is None
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.EDIT)
    assert change.removed == {
        "game": 2,
        "first_dealer": dealer_order(decided)[0],
        "rounds": rounds,
    }


def test_a_director_restores_a_correction_and_the_rounds_it_took_off(
    decided: Game, director: Any
) -> None:
    old = next_game(decided)
    assert old is not None
    rounds = list(old.rounds.order_by("number").values_list("data", flat=True))
    services.round_correct(
        game_id=decided.pk,
        number=4,
        data=split(decided, *B_WINS_ROUND_4),
        actor=director,
        confirm=True,
    )
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.EDIT)
    corrections.round_change_restore(change_id=change.pk, actor=director)
    decided.refresh_from_db()
    assert decided.status == Game.Status.FINISHED
    assert decided.game_players.get(won=True).name == dealer_order(decided)[0]
    back = next_game(decided)
    assert back is not None
    assert list(back.rounds.order_by("number").values_list("data", flat=True)) == rounds
    assert back.round_count == 2
    change.refresh_from_db()
    assert change.restored_at is not None
    assert RoundChange.objects.filter(game=decided, action=RoundChange.Action.RESTORE).exists()
    # Once only.
    with pytest.raises(UserError) as again:
        corrections.round_change_restore(change_id=change.pk, actor=director)
    assert again.value.code == "not_restorable"


def test_a_director_restores_a_deleted_round_at_its_place(game: Game, director: Any) -> None:
    play(game, A_WINS[:3])
    data = list(game.rounds.order_by("number").values_list("data", flat=True))
    services.round_delete(game_id=game.pk, number=2, actor=director)
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.DELETE)
    corrections.round_change_restore(change_id=change.pk, actor=director)
    assert list(game.rounds.order_by("number").values_list("data", flat=True)) == data
    game.refresh_from_db()
    assert game.round_count == 3


def test_a_restore_the_rules_refuse_changes_nothing(game: Game, director: Any) -> None:
    play(game, A_WINS)
    services.round_correct(
        game_id=game.pk, number=4, data=split(game, *NOBODY_WINS_ROUND_4), actor=director
    )
    # Play went on after the reopening: round 5 after a finished round 4 is impossible.
    services.round_submit(game_id=game.pk, number=5, data=split(game, 0, 5), actor=director)
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.EDIT)
    with pytest.raises(UserError):
        corrections.round_change_restore(change_id=change.pk, actor=director)
    change.refresh_from_db()
    assert change.restored_at is None
    assert game.rounds.count() == 5


def test_only_a_director_of_the_club_may_restore(decided: Game, director: Any) -> None:
    services.round_delete(game_id=decided.pk, number=4, actor=director, confirm=True)
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.DELETE)
    stranger = UserFactory(username="other-club")
    for who in (None, scorer(decided, director), stranger):
        with pytest.raises(PermissionDenied):
            corrections.round_change_restore(change_id=change.pk, actor=who)
    change.refresh_from_db()
    assert change.restored_at is None
    assert next_game(decided) is None


def test_an_entry_key_makes_a_resend_a_success_even_after_a_correction(
    game: Game, director: Any
) -> None:
    first = services.round_submit(
        game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM, entry_key="k-1"
    )
    assert first.created
    services.round_correct(game_id=game.pk, number=1, data=split(game, 2, 3), actor=director)
    again = services.round_submit(
        game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM, entry_key="k-1"
    )
    assert not again.created
    assert again.round is not None
    assert again.round.pk == first.round.pk
    assert game.rounds.count() == 1
    # Without the key the same resend is a conflict: round 1 says something else now.
    with pytest.raises(UserError) as refused:
        services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=SYSTEM)
    assert refused.value.code == "round_number_taken"


def test_a_restore_never_takes_off_rounds_entered_since(decided: Game, director: Any) -> None:
    services.round_correct(
        game_id=decided.pk,
        number=4,
        data=split(decided, *B_WINS_ROUND_4),
        actor=director,
        confirm=True,
    )
    redealt = next_game(decided)
    assert redealt is not None
    play(redealt, [(3, 2)])
    change = RoundChange.objects.get(game=decided, action=RoundChange.Action.EDIT)
    with pytest.raises(UserError) as refused:
        corrections.round_change_restore(change_id=change.pk, actor=director)
    assert "a restore never takes rounds off" in refused.value.message
    assert Round.objects.filter(game=redealt).count() == 1
