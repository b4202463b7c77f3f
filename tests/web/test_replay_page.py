"""A finished online round replays card by card on its game's page: the data the stepper
reads (static/replay.js) and the list of tricks for a page without JavaScript."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from engine import online
from play.replay import card_label, round_replay
from scoring.models import Game
from tests.play.rounds import store_online_round
from tournaments.models import Session

pytestmark = pytest.mark.django_db


def _page(client: Client, game: Game) -> str:
    response = client.get(f"/tables/{game.table_id}/?game={game.number}")
    assert response.status_code == 200
    return response.content.decode()


def test_a_round_with_its_cards_replays_on_the_games_page(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8)
    game = Game.objects.filter(table__sitting__session=session).first()
    assert game is not None
    data = store_online_round(game, seed=3)
    html = _page(Client(), game)
    assert "Replay round 1 card by card" in html
    assert 'src="/static/replay.js"' in html
    found = re.search(r'<script id="replay-data-1" type="application/json">(.*?)</script>', html)
    assert found is not None
    steps = json.loads(found.group(1))
    cards = [c for trick in data["play"]["tricks"] for c in trick]
    assert [s["card"] for s in steps["steps"]] == cards
    assert steps["hands"] == data["play"]["hands"]
    # The last card of each trick names its winner; the others do not.
    size = len(data["play"]["tricks"][0])
    assert all(
        (s["winner"] is not None) == (i % size == size - 1) for i, s in enumerate(steps["steps"])
    )
    # Without JavaScript: every trick listed, its cards written for people.
    first = data["play"]["tricks"][0]
    assert all(card_label(c) in html for c in first)
    assert html.count("takes it</li>") == len(data["play"]["tricks"])


def test_a_round_entered_without_cards_has_no_replay(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8)
    game = Game.objects.filter(table__sitting__session=session).first()
    assert game is not None
    from workflow.session.simulation import play_game

    play_game(game, seed=2, rounds=1)
    html = _page(Client(), game)
    assert "card by card" not in html
    assert "replay.js" not in html


@pytest.mark.parametrize(
    "rules_id", ["huckley-buck", "hucklebuck", "buck-euchre", "ten-point-buck", "bluke"]
)
@pytest.mark.parametrize("seed", range(12))
def test_the_replay_says_who_played_each_card_as_the_engine_saw_it(
    rules_id: str, seed: int
) -> None:
    players = ("Ann", "Bob", "Cy", "Dee")
    start = online.RoundStart(
        rules_id, players, players[seed % 4], 1, {}, dict.fromkeys(players, 0)
    )
    order = online.pack(start)
    import random

    random.Random(seed).shuffle(order)
    rnd = online.deal(start, order)
    while rnd.phase != online.END:
        who = rnd.to_act()
        assert who is not None
        rnd.apply(who, rnd.robot_move(who))
    seen: dict[str, Any] = rnd.view(None)
    replay = round_replay(rules_id, 1, players, rnd.record())
    assert replay is not None
    assert replay.tricks == [[(c["player"], c["card"]) for c in t] for t in seen["tricks"]]
    assert {p: replay.winners.count(p) for p in seen["tricks_won"]} == seen["tricks_won"]


def test_a_record_whose_cards_do_not_follow_has_no_replay() -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    data = online_round_data_for_test()
    data["play"]["tricks"][1][0] = data["play"]["tricks"][0][0]  # a card played twice
    assert round_replay("huckley-buck", 1, players, data) is None


def online_round_data_for_test() -> dict[str, Any]:
    players = ("Ann", "Bob", "Cy", "Dee")
    start = online.RoundStart("huckley-buck", players, "Ann", 1, {}, dict.fromkeys(players, 0))
    order = online.pack(start)
    rnd = online.deal(start, order)
    while rnd.phase != online.END:
        who = rnd.to_act()
        assert who is not None
        rnd.apply(who, rnd.robot_move(who))
    return rnd.record()
