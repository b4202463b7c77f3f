from __future__ import annotations

import random

import pytest

import engine
from scoring.models import Game
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import play_until

pytestmark = pytest.mark.django_db


def test_a_whole_game(online_session, director, phone) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)

    def done() -> bool:
        game.refresh_from_db()
        return game.status == Game.Status.FINISHED

    play_until(phone, tokens.values(), rng=random.Random(1), done=done)
    verdict = engine.check(game_record(game))
    assert verdict["valid"], verdict["errors"]
    assert all("hands" in r["play"] for r in game_record(game)["rounds"])
