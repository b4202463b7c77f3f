"""The moves a phone sends: a stale one and one out of turn get 409 with the current view,
one sent twice is taken once, and every kind of illegal move of each game is refused
with 400 and the rule in words, changing nothing and showing no hidden card."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine.online import PLAY, MoveRefused, restore
from play import presence, selectors
from play import rounds as play_rounds
from play import services as play_services
from play.models import LiveRound
from scoring.models import Game
from tests.play.conftest import tokens_of
from tests.play.helpers import choice_body, hidden_from, leaked, send, view_of
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(online_session: Any, director: Any, phone: Any) -> dict[str, Any]:
    session = online_session(4)
    tokens = tokens_of(session, director)
    view = view_of(phone, next(iter(tokens.values())))
    return {"session": session, "tokens": tokens, "view": view}


def live_of(view: dict[str, Any]) -> LiveRound:
    return LiveRound.objects.get(game_id=view["game"])


def test_a_move_sent_twice_is_taken_once(table: dict[str, Any], phone: Any) -> None:
    token = table["tokens"][table["view"]["to_act"]]
    mine = view_of(phone, token)
    body = choice_body(mine, mine["legal"][0], random.Random(1))
    first = send(phone, token, body)
    again = send(phone, token, body)
    assert first.status_code == again.status_code == 200
    live = live_of(mine)
    assert live.move == mine["move"] + 1
    assert [h["move"] for h in live.history] == [mine["move"]]
    assert again.json()["move"] == live.move


def test_a_stale_move_gets_409_with_the_current_view(table: dict[str, Any], phone: Any) -> None:
    tokens = table["tokens"]
    token = tokens[table["view"]["to_act"]]
    mine = view_of(phone, token)
    assert (
        send(phone, token, choice_body(mine, mine["legal"][0], random.Random(1))).status_code == 200
    )
    nxt = tokens[view_of(phone, token)["to_act"]]
    theirs = view_of(phone, nxt)
    stale = choice_body(theirs, theirs["legal"][0], random.Random(1)) | {"move": mine["move"]}
    before = live_of(mine).state

    answer = send(phone, nxt, stale)

    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "stale_move"
    assert body["message"]
    assert body["view"] == view_of(phone, nxt)
    assert body["view"]["hand"] == theirs["hand"]
    assert leaked(body["view"]) == set()
    assert live_of(mine).state == before


def test_a_move_out_of_turn_gets_409_and_the_seats_own_view(
    table: dict[str, Any], phone: Any
) -> None:
    tokens = table["tokens"]
    to_act = table["view"]["to_act"]
    other = next(name for name in tokens if name != to_act)
    theirs = view_of(phone, tokens[other])
    assert theirs["legal"] == []
    card = theirs["hand"][0]
    body = {"move": theirs["move"], "action": "draw", "discard": [card]}
    if theirs["phase"] == PLAY:
        body = {"move": theirs["move"], "action": "play", "card": card}

    answer = send(phone, tokens[other], body)

    assert answer.status_code == 409
    assert answer.json()["code"] == "not_your_turn"
    assert answer.json()["view"]["player"] == other
    assert answer.json()["view"]["hand"] == theirs["hand"]
    assert leaked(answer.json()["view"]) == set()
    assert live_of(theirs).history == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "in"}, "move"),
        ({"move": "3", "action": "in"}, "move"),
        ({"move": True, "action": "in"}, "move"),
        (["move", 1], "move"),
    ],
)
def test_a_move_without_its_number_is_invalid_input(
    table: dict[str, Any], phone: Any, body: Any, field: str
) -> None:
    token = table["tokens"][table["view"]["to_act"]]
    answer = send(phone, token, body)
    assert answer.status_code == 400
    assert (answer.json()["code"], answer.json()["field"]) == ("invalid_input", field)
    assert live_of(table["view"]).history == []


def test_an_unknown_seat_token_is_404(phone: Any, db: None) -> None:
    assert phone.get("/api/play/not-a-token/").json()["code"] == "no_such_seat"
    assert phone.get("/api/play/not-a-token/").status_code == 404
    assert send(phone, "not-a-token", {"move": 1, "action": "in"}).status_code == 404


def test_the_view_answers_304_while_unchanged(table: dict[str, Any], phone: Any) -> None:
    token = table["tokens"][table["view"]["to_act"]]
    first = phone.get(f"/api/play/{token}/")
    tag = first["ETag"]
    assert phone.get(f"/api/play/{token}/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    mine = first.json()
    assert (
        send(phone, token, choice_body(mine, mine["legal"][0], random.Random(1))).status_code == 200
    )
    changed = phone.get(f"/api/play/{token}/", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag


# Every kind of illegal move of each game (docs/engine.md, the refusal codes).
ILLEGAL = {
    "huckley-buck": {
        "not_in_hand",
        "must_follow",
        "must_trump",
        "must_kill",
        "bad_move",
        "cannot_drop",
        "cannot_take_upcard",
        "must_discard",
    },
    "hucklebuck": {"not_in_hand", "must_follow", "bad_move", "cannot_drop", "cannot_take_upcard"},
    "buck-euchre": {"not_in_hand", "must_follow", "bad_move", "wrong_suit"},
    "ten-point-buck": {"not_in_hand", "rank_rule", "bad_move", "bid_out_of_range"},
    "bluke": {"not_in_hand", "must_follow", "bad_move", "bid_out_of_range"},
    "bluke-nj": {"not_in_hand", "must_follow", "bad_move", "bid_out_of_range"},
}
SUITS = ("S", "H", "D", "C")


def tries(view: dict[str, Any], pack: list[str]) -> list[dict[str, Any]]:
    """Moves to try in this view: every card of the pack played, and each phase's wrong
    choices."""
    moves: list[dict[str, Any]] = [{"action": "dance"}, {"action": "play", "card": "ZZ"}]
    if view["phase"] == PLAY:
        moves += [{"action": "play", "card": c} for c in dict.fromkeys(pack)]
        return moves
    hand = view["hand"]
    moves += [
        {"action": "bid", "bid": 999},
        {"action": "bid", "bid": -1},
        {"action": "out"},
        {"action": "draw", "discard": [], "take_upcard": True},
        {"action": "draw", "discard": hand[:1], "take_upcard": True},
        {"action": "draw", "discard": "2C"},
    ]
    moves += [{"action": "trump", "suit": s} for s in SUITS]
    moves += [{"action": "draw", "discard": [c]} for c in dict.fromkeys(pack) if c not in hand]
    return moves


def refusal(view: dict[str, Any], move: dict[str, Any]) -> str | None:
    """The engine's refusal of `move` in the stored state, tried on a copy."""
    live = live_of(view)
    rnd = restore(Game.objects.get(pk=view["game"]).rules_id, live.state)
    try:
        rnd.apply(view["player"], move)
    except MoveRefused as refused:
        return refused.code
    return None


@pytest.mark.parametrize("rules_id", sorted(ILLEGAL))
def test_every_kind_of_illegal_move_is_refused_in_words(
    rules_id: str, online_session: Any, director: Any, phone: Any, monkeypatch: Any
) -> None:
    assert set(ILLEGAL) == set(engine.RULES)
    deals = random.Random(rules_id)
    monkeypatch.setattr(play_rounds.secrets, "SystemRandom", lambda: deals)
    session = online_session(4, rules_id=rules_id)
    tokens = tokens_of(session, director)
    rng = random.Random(2)
    seen: set[str] = set()
    view = view_of(phone, next(iter(tokens.values())))
    pack = None
    for _ in range(3000):
        if seen >= ILLEGAL[rules_id] or view["status"] != "playing":
            break
        token = tokens[view["to_act"]]
        mine = view_of(phone, token)
        if pack is None:
            live = live_of(mine)
            pack = restore(rules_id, live.state).pack(restore(rules_id, live.state).start)
        for move in tries(mine, pack):
            code = refusal(mine, move)
            if code is None or code in seen or code not in ILLEGAL[rules_id]:
                continue
            before = (live_of(mine).move, json.dumps(live_of(mine).state, sort_keys=True))
            answer = send(phone, token, {"move": mine["move"], **move})
            assert answer.status_code == 400, (move, answer.content)
            body = answer.json()
            assert body["code"] == code
            assert len(body["message"]) > 15
            # The words name the seat's own cards and those it sent, never a hidden one.
            sent = set(json.dumps(move).replace('"', " ").replace(",", " ").split())
            words = set(body["message"].replace(",", " ").replace(".", " ").split())
            assert not (hidden_from(mine) - sent) & words, body["message"]
            after = (live_of(mine).move, json.dumps(live_of(mine).state, sort_keys=True))
            assert after == before
            seen.add(code)
        answer = send(phone, token, choice_body(mine, rng.choice(mine["legal"]), rng))
        assert answer.status_code == 200, answer.content
        view = answer.json()
    assert seen == ILLEGAL[rules_id]


#: The queries of a move that does not end its round, the push's reading included: the
#: seat (2), the locks (3: on SQLite the table, the game and its live round; on
#: PostgreSQL the session's shared lock, the table, and the game with its live round in
#: one statement, `play.rounds.lock_current`), the seat still held, the players, the
#: round written, the tokens, who sits there, the last round, the table's deadline
#: moved (`play.rounds.plan`).
MOVE_QUERIES = 12
#: The queries of a seat's read when the table needs no tick (a phone that polls): the
#: link, the seating, then the table's game, players, round, who sits there, their
#: tokens and the last round, read once for both the tick's question and the view.
READ_QUERIES = 8


@pytest.fixture(params=[4, 20], ids=["one table", "five tables"])
def to_act(
    request: Any, online_session: Any, director: Any, phone: Any
) -> tuple[str, dict[str, Any]]:
    """The token and view of the seat to act, its round dealt, in a session of one table
    or of five: what a move or a read costs must not grow with the session."""
    tokens = tokens_of(online_session(request.param), director)
    view = view_of(phone, next(iter(tokens.values())))
    token = tokens[view["to_act"]]
    return token, view_of(phone, token)


def test_a_move_takes_the_same_queries_at_any_size_of_session(
    to_act: tuple[str, dict[str, Any]], django_assert_num_queries: Any
) -> None:
    token, mine = to_act
    body = choice_body(mine, mine["legal"][0], random.Random(1))
    action = {k: v for k, v in body.items() if k != "move"}
    # Inside the test's transaction, the move's own is a savepoint and its release.
    with django_assert_num_queries(MOVE_QUERIES + 2):
        answer = play_services.move_make(token=token, move=mine["move"], action=action)
    assert answer.view["move"] == mine["move"] + 1


def test_a_read_takes_the_same_queries_at_any_size_of_session(
    to_act: tuple[str, dict[str, Any]], django_assert_num_queries: Any
) -> None:
    token, before = to_act
    with django_assert_num_queries(READ_QUERIES):
        view = play_services.seat_read(token)
    assert view == before


#: The queries of a round's end (the scheduler's `advance` once the last card is played,
#: given the table's session with its deadline): the locks with the round being played
#: (3, as a move's, `MOVE_QUERIES`), the game's players and its stored rounds, read once
#: and used by the scorer's checks (`scoring.rounds.Held`); the round, the pending
#: entries cleared, the change history, the players' scores, the game, the session's
#: page versions; the next round dealt; the push's tokens and who sits there, and the
#: table's deadline.
ROUND_END_QUERIES = 15


def test_a_rounds_end_stores_and_deals_in_the_same_queries_at_any_size_of_session(
    to_act: tuple[str, dict[str, Any]], django_assert_num_queries: Any, monkeypatch: Any
) -> None:
    advance = play_services.advance
    # The moves as the node takes them on the socket: the round's end is the scheduler's.
    monkeypatch.setattr(play_services, "advance", lambda table_id: False)
    token, _ = to_act
    table_id = selectors.place_of(token).table_id
    assert table_id is not None
    for _ in range(200):  # the round played through the service, as the socket takes it
        token, view = next((t, v) for t, v in selectors.table_views(table_id).items() if v["legal"])
        body = choice_body(view, view["legal"][0], random.Random(1))
        moved = play_services.move_make(token=token, move=body.pop("move"), action=body)
        if moved.view["phase"] == "end":
            break
    game = Game.objects.get(table_id=table_id, number=1)
    assert game.rounds.count() == 0  # the last card's move stored nothing
    session_id = Table.objects.get(pk=table_id).sitting.session_id  # the scheduler reads it

    # Who is present is read once, from the cache (the robots' question and the views
    # ask it at the same moment).
    at_table = sorted(selectors.table_state(game.table).tokens.values())
    reads: list[list[str]] = []
    real = presence.last_seen_many
    monkeypatch.setattr(
        presence, "last_seen_many", lambda tokens: reads.append(sorted(tokens)) or real(tokens)
    )

    # Inside the test's transaction, the advance's own is a savepoint and its release.
    with django_assert_num_queries(ROUND_END_QUERIES + 2):
        assert advance(table_id=game.table_id, session_id=session_id)
    assert game.rounds.count() == 1
    assert reads == [at_table]
    assert selectors.seat_view(token)["round"] == 2
