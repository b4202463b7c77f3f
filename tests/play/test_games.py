"""A whole online round and a whole online game of each game, played through the API by
scripted phones that choose among the moves `legal` offers; every stored record is one
`python -m engine check` accepts, with its cards, and no view ever shows a hidden card."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import engine
from play.models import LiveRound
from scoring.models import Game, Round, RoundChange
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import engine_cli_accepts, game_over, leaked, look, play_table, view_of

pytestmark = pytest.mark.django_db

RULES = sorted(engine.RULES)
# Bluke's schedule runs from the largest hand down to 1 and back (13 cards at 4 players):
# its whole game here is played with hands of at most 2 cards (the option `max_cards`).
SHORT = {"bluke": {"max_cards": 2}, "bluke-nj": {"max_cards": 2}}


def short_game(game: Game) -> Game:
    """The game with the options of a short one, dealt again with them."""
    if game.rules_id in SHORT:
        game.options = SHORT[game.rules_id]
        game.save(update_fields=["options"])
        LiveRound.objects.filter(game=game).delete()
        look(game.table_id)
    return game


def no_leak(token: str, view: dict[str, Any]) -> None:
    assert leaked(view) == set(), (token, view)


@pytest.mark.parametrize("rules_id", RULES)
def test_a_whole_online_game_stores_records_the_engine_accepts(
    rules_id: str, online_session: Any, director: Any, phone: Any, tmp_path: Path
) -> None:
    session = online_session(4, rules_id=rules_id)
    tokens = tokens_of(session, director)
    game = short_game(Game.objects.get(table__sitting__session=session, number=1))

    made = play_table(
        phone, tokens, rng=random.Random(rules_id), until=game_over(game), check=no_leak
    )

    verdict = engine_cli_accepts(game, tmp_path)
    assert verdict["finished"]
    rounds = game_record(game)["rounds"]
    assert len(rounds) == game.round_count >= 1
    for stored in rounds:
        assert stored["play"]["hands"]
        assert stored["play"]["tricks"]
        assert "robots" not in stored["play"]  # every move was a phone's
    assert made >= sum(len(r["play"]["tricks"]) for r in rounds)
    notes = set(RoundChange.objects.filter(game=game).values_list("note", flat=True))
    assert notes == {"played online"}
    # The next game of the sitting is dealt at once.
    second = Game.objects.get(table=game.table, number=2)
    assert LiveRound.objects.get(game=second).number == 1
    view = view_of(phone, next(iter(tokens.values())))
    assert (view["game"], view["round"], view["status"]) == (second.pk, 1, "playing")


@pytest.mark.parametrize("rules_id", RULES)
def test_a_whole_online_round(
    rules_id: str, online_session: Any, director: Any, phone: Any, tmp_path: Path
) -> None:
    session = online_session(4, rules_id=rules_id)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    first = view_of(phone, next(iter(tokens.values())))
    assert (first["status"], first["round"], first["game"]) == ("playing", 1, game.pk)
    assert sorted(p["name"] for p in first["players"]) == sorted(tokens)

    def one_round() -> bool:
        return Round.objects.filter(game=game).exists()

    play_table(phone, tokens, rng=random.Random(7), until=one_round, check=no_leak)

    stored = Round.objects.get(game=game, number=1)
    assert engine.check(game_record(game))["valid"]
    # After the round its hands are public: every phone sees the record of it.
    after = view_of(phone, next(iter(tokens.values())))
    assert after["last_round"]["record"] == stored.data
    if not engine.check(game_record(game))["finished"]:
        assert after["round"] == 2
        assert after["hand"]


def test_five_players_announce_in_huckley_buck_and_the_record_keeps_it(
    online_session: Any, director: Any, phone: Any
) -> None:
    session = online_session(5)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    view = view_of(phone, next(iter(tokens.values())))
    assert view["phase"] == "announce"

    play_table(
        phone,
        tokens,
        rng=random.Random(3),
        until=lambda: Round.objects.filter(game=game).exists(),
        check=no_leak,
    )

    stored = Round.objects.get(game=game, number=1).data
    assert stored["play"]["announcements"]
    assert stored["play"]["draws"]
