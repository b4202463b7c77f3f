"""Double entry: a scorer's round waits as a pending entry until a second person at the
table, or a director, enters the same numbers (docs/tournament.md). The basic wait, confirm
and mismatch are in `tests/tournaments/test_roles.py`; these are the edges."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import UserError
from scoring import services
from scoring.models import Game, PendingRound, Round, RoundChange
from tests.scoring.helpers import MakeSession, scorer, split, top_game
from tests.snapshots import changed_tables, db_snapshot
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8, double_entry=True))


def enter(game: Game, actor: Any, first: int = 3, second: int = 2, number: int = 1) -> Any:
    return services.round_submit(
        game_id=game.pk, number=number, data=split(game, first, second), actor=actor
    )


def test_a_round_the_rules_refuse_is_not_kept_as_pending(game: Game, director: Any) -> None:
    one = scorer(game, director)
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        enter(game, one, 3, 3)
    assert caught.value.code == "round_invalid"
    assert changed_tables(before) == []


def test_a_second_entry_from_the_same_device_replaces_the_first(game: Game, director: Any) -> None:
    one = scorer(game, director)
    enter(game, one, 3, 2)
    again = enter(game, one, 2, 3)
    assert again.round is None
    assert again.mismatch is None
    (pending,) = PendingRound.objects.filter(game=game)
    assert pending.data == split(game, 2, 3)
    assert not Round.objects.filter(game=game).exists()


def test_a_director_alone_enters_a_round_at_once(game: Game, director: Any) -> None:
    entry = enter(game, Actor(user=director, device=f"user:{director.pk}"))
    assert entry.round is not None
    change = RoundChange.objects.get(game=game)
    assert change.note == "entered by a director"
    assert not PendingRound.objects.exists()


def test_a_director_who_disagrees_with_a_pending_entry_is_a_mismatch_too(
    game: Game, director: Any
) -> None:
    """A director confirms an entry by entering the same numbers; different numbers do
    not overrule the table, they wait beside its entry."""
    enter(game, scorer(game, director), 3, 2)
    entry = enter(game, Actor(user=director, device=f"user:{director.pk}"), 2, 3)
    assert entry.round is None
    assert entry.mismatch is not None
    assert "table's scorer link" in entry.mismatch
    assert PendingRound.objects.filter(game=game).count() == 2
    assert not Round.objects.filter(game=game).exists()


def test_a_confirmation_clears_every_pending_entry_of_the_round(game: Game, director: Any) -> None:
    one = scorer(game, director, device="browser:one")
    two = Actor(scorer_tokens=one.scorer_tokens, device="browser:two")
    three = Actor(scorer_tokens=one.scorer_tokens, device="browser:three")
    enter(game, one, 3, 2)
    enter(game, two, 2, 3)  # a mismatch, kept
    confirmed = enter(game, three, 3, 2)
    assert confirmed.round is not None
    assert confirmed.round.data == split(game, 3, 2)
    assert not PendingRound.objects.filter(game=game).exists()
    change = RoundChange.objects.get(game=game)
    assert change.note == "double entry: confirmed the entry of the table's scorer link"
    assert change.scorer_link is not None


def test_a_confirmed_round_names_the_account_that_entered_it_first(
    game: Game, director: Any
) -> None:
    """A scorer signed in with an account of their own (a player, not a director) is named
    in the history by that account."""
    from tests.factories import UserFactory

    player = UserFactory.create(username="pat-plays")
    link = scorer(game, director)
    first = Actor(user=player, scorer_tokens=link.scorer_tokens, device=f"user:{player.pk}")
    waiting = enter(game, first)
    assert waiting.pending is not None
    assert waiting.pending.entered_by == player
    confirmed = enter(game, Actor(user=director, device=f"user:{director.pk}"))
    assert confirmed.round is not None
    change = RoundChange.objects.get(game=game)
    assert change.note == "double entry: confirmed the entry of pat-plays"
    assert change.user == director


def test_pending_entries_wait_per_round_number(game: Game, director: Any) -> None:
    one = scorer(game, director, device="browser:one")
    two = Actor(scorer_tokens=one.scorer_tokens, device="browser:two")
    enter(game, one, 3, 2)
    enter(game, two, 3, 2)
    enter(game, one, 2, 3, number=2)
    (pending,) = PendingRound.objects.filter(game=game)
    assert pending.number == 2
    assert Round.objects.filter(game=game).count() == 1


def test_the_same_round_entered_again_after_confirmation_changes_nothing(
    game: Game, director: Any
) -> None:
    one = scorer(game, director, device="browser:one")
    two = Actor(scorer_tokens=one.scorer_tokens, device="browser:two")
    enter(game, one, 3, 2)
    stored = enter(game, two, 3, 2)
    before = db_snapshot()
    again = enter(game, one, 3, 2)
    assert again.created is False
    assert again.round is not None
    assert stored.round is not None
    assert again.round.pk == stored.round.pk
    assert changed_tables(before) == []


def test_a_pending_entry_is_refused_out_of_order_and_nothing_waits(
    game: Game, director: Any
) -> None:
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        enter(game, scorer(game, director), number=2)
    assert caught.value.code == "round_number_out_of_order"
    # The scorer link made by `scorer` (and its audit entry) are the only new rows.
    assert changed_tables(before) == ["tournaments.AuditEntry", "tournaments.ScorerLink"]
    assert not PendingRound.objects.exists()
