"""Properties of result entry over any sequence of entries, corrections and deletions,
accepted or refused:

- a refusal changes no row of any table;
- the stored game is a valid record, and its summary rows (scores, hooks, winner, status,
  round count) are the engine's verdict on that record, rebuilt from scratch;
- replaying the change history from an empty game gives the stored rounds, and each
  line's "before" is what the round said at that moment;
- the next game exists exactly when this one is finished, dealt first by its winner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from common.errors import UserError
from scoring import records, services
from scoring.models import Game, RoundChange
from tests.scoring.helpers import MakeSession, top_game
from tests.snapshots import changed_tables, db_snapshot
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

# Who took each of the five tricks, by seat index: often one player takes all five (so
# that games end within a few rounds), now and then a sixth trick, which the rules refuse.
tricks = st.sampled_from(["all", "all", "mixed", "mixed", "mixed", "sixth"]).flatmap(
    lambda kind: (
        st.integers(0, 3).map(lambda seat: [seat] * 5)
        if kind == "all"
        else st.lists(st.integers(0, 3), min_size=5 if kind == "mixed" else 6, max_size=6).filter(
            lambda takers: len(takers) == (5 if kind == "mixed" else 6)
        )
    )
)
operation = st.tuples(
    st.sampled_from(["enter", "enter", "correct", "delete"]), st.integers(0, 9), tricks
)


def round_data(game: Game, takers: list[int]) -> dict[str, Any]:
    names = records.game_record(game)["players"]
    return {"tricks": dict(Counter(names[i] for i in takers))}


def apply(game: Game, op: tuple[str, int, list[int]]) -> None:
    action, pick, takers = op
    game.refresh_from_db()
    # Now and then a number past the stored rounds, which no correction can reach.
    number = pick % game.round_count + 1 if game.round_count and pick else game.round_count + 1
    if action == "enter":
        services.round_submit(
            game_id=game.pk,
            number=game.round_count + 1,
            data=round_data(game, takers),
            actor=SYSTEM,
        )
    elif action == "correct":
        services.round_correct(
            game_id=game.pk, number=number, data=round_data(game, takers), actor=SYSTEM
        )
    else:
        services.round_delete(game_id=game.pk, number=number, actor=SYSTEM)


def replayed(game: Game) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    for change in RoundChange.objects.filter(game=game).order_by("at", "id"):
        i = change.round_number - 1
        if change.action == RoundChange.Action.ENTER:
            assert change.round_number == len(rounds) + 1
            assert change.after is not None
            rounds.append(change.after)
        elif change.action == RoundChange.Action.EDIT:
            assert rounds[i] == change.before
            assert change.after is not None
            rounds[i] = change.after
        else:
            assert rounds[i] == change.before
            del rounds[i]
    return rounds


def check_invariants(game: Game) -> None:
    game.refresh_from_db()
    stored = list(game.rounds.order_by("number"))
    assert [r.number for r in stored] == list(range(1, len(stored) + 1))
    assert [r.data for r in stored] == replayed(game)
    output = engine.check(records.game_record(game))
    assert output["valid"] is True, output["errors"]
    winner = output["winner"]
    winners = {winner} if isinstance(winner, str) else set(winner or [])
    hooks = Counter(name for r in output["rounds"] for name in r["hooks"])
    assert {gp.name: (gp.score, gp.hooks, gp.won) for gp in game.game_players.all()} == {
        name: (score, hooks[name], name in winners) for name, score in output["scores"].items()
    }
    assert game.round_count == len(stored)
    assert (game.status == Game.Status.FINISHED) is output["finished"]
    following = Game.objects.filter(table=game.table, number=game.number + 1).first()
    if output["finished"]:
        assert following is not None
        assert following.first_dealer.name == engine.next_game_first_dealer(output)
    else:
        assert following is None


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    played=st.integers(0, 12),
    seed=st.integers(0, 2**16),
    operations=st.lists(operation, min_size=1, max_size=12),
)
def test_any_sequence_of_changes_keeps_the_game_in_step_with_the_engine(
    make_session: MakeSession,
    played: int,
    seed: int,
    operations: list[tuple[str, int, list[int]]],
) -> None:
    game = top_game(make_session(8))
    # Start from the first rounds of a whole game the engine plays, dealers named.
    record = records.game_record(game)
    simulated = engine.simulate(
        record["rules"], record["players"], seed=seed, first_dealer=record["first_dealer"]
    )
    for number, data in enumerate(simulated["rounds"][:played], start=1):
        services.round_submit(game_id=game.pk, number=number, data=data, actor=SYSTEM)
    check_invariants(game)
    for op in operations:
        before = db_snapshot()
        try:
            apply(game, op)
        except UserError:
            assert changed_tables(before) == [], op
        check_invariants(game)
