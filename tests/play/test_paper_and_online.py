"""Paper and online never overwrite each other (docs/tournament.md, "Online play"): a
round typed in for an online table while its game is played is refused (409
`table_online`), through the API and the score sheet; deleting a round there too; a
switch to paper with a hand dealt asks first (409 `hand_in_play`), and, confirmed, sets the
hand aside in the directors' log and lets the paper round in; a finished online round is
corrected as any round is."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from play.models import LiveRound, TableDeadline
from scoring.models import Game, Round
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, play_table, send, view_of
from tests.play.rounds import online_round
from tournaments.models import AuditEntry, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(online_session: Any, director: Any, phone: APIClient) -> dict[str, Any]:
    """An online table with a move made in its first round."""
    session = online_session(4)
    tokens = tokens_of(session, director)
    view = view_of(phone, next(iter(tokens.values())))
    token = tokens[view["to_act"]]
    mine = view_of(phone, token)
    assert (
        send(phone, token, choice_body(mine, mine["legal"][0], random.Random(1))).status_code == 200
    )
    game = Game.objects.get(table__sitting__session=session, number=1)
    return {"session": session, "tokens": tokens, "game": game, "table": game.table}


def test_a_round_typed_for_an_online_table_is_refused_and_the_hand_plays_on(
    playing: dict[str, Any], director_client: APIClient, phone: APIClient
) -> None:
    game = playing["game"]
    live = LiveRound.objects.get(game=game)

    answer = director_client.post(
        f"/api/games/{game.pk}/rounds/", {"number": 1, **online_round(game, seed=2)}, format="json"
    )

    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "table_online"
    assert "switch the table to paper first" in body["message"]
    assert not Round.objects.filter(game=game).exists()
    assert LiveRound.objects.get(game=game).move == live.move
    # The phones play on: the next move is taken.
    view = view_of(phone, next(iter(playing["tokens"].values())))
    token = playing["tokens"][view["to_act"]]
    mine = view_of(phone, token)
    assert (
        send(phone, token, choice_body(mine, mine["legal"][0], random.Random(2))).status_code == 200
    )


def test_the_score_sheet_says_the_table_plays_online_and_stores_nothing(
    playing: dict[str, Any], dclient: Any
) -> None:
    game = playing["game"]
    data = online_round(game, seed=2)
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    form = {"number": 1, "dealer": data["dealer"]}
    form |= {f"tricks_{i}": data["tricks"].get(name, 0) for i, name in enumerate(names, 1)}
    form |= {f"trick_{i}": who for i, who in enumerate(data["trick_winners"], 1)}

    page = dclient.post(f"/games/{game.pk}/rounds/", form)

    assert page.status_code == 400  # the sheet again, with the refusal on it
    assert f"Table {game.table.number} plays online" in page.content.decode()
    assert not Round.objects.filter(game=game).exists()


def test_switching_a_playing_table_to_paper_asks_first_and_then_sets_the_hand_aside(
    playing: dict[str, Any], director_client: APIClient, phone: APIClient
) -> None:
    table: Table = playing["table"]
    game = playing["game"]
    moves = LiveRound.objects.get(game=game).history
    url = f"/api/tables/{table.pk}/"

    asked = director_client.patch(url, {"online": False}, format="json")

    assert asked.status_code == 409
    assert asked.json()["code"] == "hand_in_play"
    assert "round 1 of game 1" in asked.json()["message"]
    table.refresh_from_db()
    assert table.online is True

    done = director_client.patch(url, {"online": False, "confirm": True}, format="json")

    assert done.status_code == 200
    assert done.json()["online"] is False
    assert not LiveRound.objects.filter(game=game).exists()
    assert not TableDeadline.objects.filter(table=table).exists()
    entry = AuditEntry.objects.get(action="play.table_online")
    assert entry.details["set_aside"] == {"game": 1, "round": 1, "moves": moves}
    assert "set aside" in entry.summary
    # The phones read that the table plays on paper; the round goes in on paper.
    assert view_of(phone, next(iter(playing["tokens"].values())))["status"] == "paper"
    typed = director_client.post(
        f"/api/games/{game.pk}/rounds/", {"number": 1, **online_round(game, seed=2)}, format="json"
    )
    assert typed.status_code == 201, typed.content


def test_a_round_of_an_online_table_is_not_deleted_while_its_game_is_played(
    online_session: Any, director: Any, director_client: APIClient, phone: APIClient
) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    play_table(phone, tokens, rng=random.Random(5), until=lambda: game.rounds.exists())

    answer = director_client.delete(f"/api/games/{game.pk}/rounds/1/")

    assert answer.status_code == 409
    assert answer.json()["code"] == "table_online"
    assert game.rounds.filter(number=1).exists()


def test_a_finished_online_round_is_corrected_as_any_round_is(
    online_session: Any, director: Any, director_client: APIClient, phone: APIClient
) -> None:
    session = online_session(4)
    tokens = tokens_of(session, director)
    game = Game.objects.get(table__sitting__session=session, number=1)
    play_table(phone, tokens, rng=random.Random(5), until=lambda: game.rounds.exists())
    stored = Round.objects.get(game=game, number=1)
    corrected = {**stored.data}
    corrected.pop("play", None)  # the cards are dropped; the tricks stay as played

    answer = director_client.put(f"/api/games/{game.pk}/rounds/1/", corrected, format="json")

    assert answer.status_code == 200, answer.content
    stored.refresh_from_db()
    assert "play" not in stored.data
