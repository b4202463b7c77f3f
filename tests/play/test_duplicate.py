"""Duplicate deals (docs/tournament.md, "Duplicate deals"): every online table of the same
size is dealt the same cards for the same game and round, place by place from the
dealer's left; the cards of such a deal stay hidden from all but the directors, on every
surface, until every table that may play it has; the setting applies sitting by sitting."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from engine import online as engine_online
from play import duplicate
from play import services as play_services
from play.director_selectors import screen_tricks
from play.models import LiveRound
from play.replay import card_label
from scoring.models import Game, RoundChange
from scoring.records import game_record
from tests.play.conftest import tokens_of
from tests.play.helpers import play_table
from tests.play.rounds import store_online_round
from tests.play.test_sessions import robots_play_out, seat_robots
from tournaments.models import Player, Session, Sitting, Table

pytestmark = pytest.mark.django_db

RULES = sorted(engine.RULES)


def dealt(table: Table) -> tuple[list[list[str]], Any]:
    """The hands of the table's round being played, place by place from the dealer's left,
    and its upcard as the table sees it."""
    play_services.advance(table_id=table.pk)
    live = LiveRound.objects.get(game__table=table)
    game = Game.objects.get(pk=live.game_id)
    rnd = engine_online.restore(game.rules_id, live.state)
    players = rnd.start.players
    d = players.index(rnd.start.dealer)
    places = [players[(d + k) % len(players)] for k in range(1, len(players) + 1)]
    return [sorted(rnd.view(p)["hand"]) for p in places], rnd.view(None)["upcard"]


def tables_of(session: Session) -> list[Table]:
    return list(Table.objects.filter(sitting__session=session).order_by("rank"))


@pytest.mark.parametrize("rules_id", RULES)
def test_every_table_of_four_is_dealt_the_same_cards_place_by_place(
    rules_id: str, online_session: Any
) -> None:
    session = online_session(12, rules_id=rules_id, duplicate=True)
    sitting = session.sittings.get()
    assert sitting.duplicate
    assert len(sitting.deal_key) == 64
    deals = [dealt(t) for t in tables_of(session)]
    assert len(deals) == 3
    assert deals[0] == deals[1] == deals[2]
    assert all(len(hand) >= 1 for hand in deals[0][0])


def test_without_duplicate_deals_each_table_has_its_own_cards(online_session: Any) -> None:
    session = online_session(12)
    assert not session.sittings.get().duplicate
    deals = [dealt(t) for t in tables_of(session)]
    assert deals[0] != deals[1] or deals[1] != deals[2]


def test_robots_play_the_same_deals_at_both_tables_and_each_is_stored_whole(
    online_session: Any,
) -> None:
    """A sitting played out through the real deal path: each round the two tables share
    has the same upcard, and its record is one the engine accepts."""
    session = online_session(8, duplicate=True)
    tables = tables_of(session)
    seat_robots(tables)
    for table in tables:
        robots_play_out(table)
    games = {(g.table_id, g.number): g for g in Game.objects.filter(table__in=tables)}
    shared = 0
    for number in (1, 2):
        one, other = games[(tables[0].pk, number)], games[(tables[1].pk, number)]
        for a, b in zip(
            one.rounds.order_by("number"), other.rounds.order_by("number"), strict=False
        ):
            assert a.data["upcard"] == b.data["upcard"]
            shared += 1
        for game in (one, other):
            assert engine.check(
                {
                    "format": "buck-game/1",
                    "rules": game.rules_id,
                    "players": [gp.name for gp in game.game_players.order_by("seat")],
                    "first_dealer": game.first_dealer.name,
                    "rounds": [r.data for r in game.rounds.order_by("number")],
                }
            )["valid"]
    assert shared >= 2


# What stays hidden while another table may still play a deal -----------------------------


@pytest.fixture
def two_tables(online_session: Any) -> tuple[Session, Game, Game]:
    """A duplicate sitting of two online tables of four; the first has played round 1 of
    its first game, the second has not."""
    session = online_session(8, duplicate=True)
    first, second = (Game.objects.get(table=t, number=1) for t in tables_of(session))
    store_online_round(first, seed=5)
    return session, first, second


def page(client: Client, game: Game) -> str:
    response = client.get(f"/tables/{game.table_id}/?game={game.number}")
    assert response.status_code == 200
    return response.content.decode()


def hands_of(game: Game) -> list[str]:
    data = game.rounds.get(number=1).data
    return [card for hand in data["play"]["hands"].values() for card in hand]


def shows_cards(text: str, game: Game) -> bool:
    """Whether `text` (a page or an answer) holds round 1's upcard or every card of a hand."""
    data = game.rounds.get(number=1).data
    hands = data["play"]["hands"].values()
    return any(all(f'"{c}"' in text for c in hand) for hand in hands if hand) or (
        f'"upcard": "{data["upcard"]}"' in text or f'"upcard":"{data["upcard"]}"' in text
    )


def test_a_deal_another_table_still_plays_hides_its_cards_from_the_public(
    two_tables: tuple[Session, Game, Game], director_client: APIClient
) -> None:
    session, first, _ = two_tables
    html = page(Client(), first)
    assert "Replay round 1" not in html
    assert 'id="cards-hidden"' in html
    anonymous = APIClient()
    game = anonymous.get(f"/api/games/{first.pk}/").json()
    assert game["cards_hidden"] == [1]
    assert set(game["record"]["rounds"][0]) & {"upcard", "play", "discard"} == set()
    assert game["verdict"]["valid"] is True  # the scores stand, from the whole record
    rounds = anonymous.get(f"/api/games/{first.pk}/rounds/").json()
    assert "play" not in rounds[0]
    assert "upcard" not in rounds[0]
    one = anonymous.get(f"/api/games/{first.pk}/rounds/1/").json()
    assert "play" not in one
    assert one["number"] == 1
    export = anonymous.get(f"/api/sessions/{session.pk}/export.json").json()
    mine = next(g for g in export["games"] if g["game_id"] == first.pk)
    assert mine["cards_hidden"] == [1]
    for answer in (game, rounds, one, export):
        assert not shows_cards(json.dumps(answer), first)

    # The club's directors see every card.
    seen = director_client.get(f"/api/games/{first.pk}/").json()
    assert seen["cards_hidden"] == []
    assert seen["record"]["rounds"][0]["play"]["hands"]
    director_page = Client()
    director_page.force_login(session.club.directors.first())
    assert "Replay round 1" in page(director_page, first)


def test_the_cards_show_once_every_table_has_played_the_deal(
    two_tables: tuple[Session, Game, Game],
) -> None:
    _, first, second = two_tables
    store_online_round(second, seed=6)
    assert "Replay round 1" in page(Client(), first)
    assert "Replay round 1" in page(Client(), second)
    game = APIClient().get(f"/api/games/{first.pk}/").json()
    assert game["cards_hidden"] == []
    assert game["record"]["rounds"][0]["play"]["hands"]


def test_a_table_whose_game_ended_sooner_holds_no_deal_open(
    two_tables: tuple[Session, Game, Game],
) -> None:
    """The second table's game 1 ended after 1 round: it never plays round 2 of it, so
    the first table's round 2 shows once stored, and its round 1 as soon as the second has
    played it."""
    _, first, second = two_tables
    store_online_round(first, seed=7)
    store_online_round(second, seed=8)
    boards = duplicate.boards_of(first.table.sitting)
    assert boards.is_open(4, 1, 2)
    Game.objects.filter(pk=second.pk).update(status=Game.Status.FINISHED)
    first.refresh_from_db()
    assert duplicate.hidden_rounds(first) == frozenset()
    # Game 2 has not started at either table: all of its deals are still open.
    assert duplicate.boards_of(first.table.sitting).is_open(4, 2, 1)


def test_a_table_on_paper_or_of_another_size_holds_no_deal_open(
    two_tables: tuple[Session, Game, Game],
) -> None:
    _, first, second = two_tables
    assert duplicate.hidden_rounds(first) == {1}
    Table.objects.filter(pk=second.table_id).update(online=False)
    assert duplicate.hidden_rounds(first) == frozenset()
    Table.objects.filter(pk=second.table_id).update(online=True)
    boards = duplicate.boards_of(first.table.sitting)
    assert boards.is_open(4, 1, 1)
    assert not boards.is_open(5, 1, 1)
    assert not boards.is_open(3, 1, 1)


def test_a_sitting_that_moved_on_or_a_finished_session_hides_nothing(
    two_tables: tuple[Session, Game, Game],
) -> None:
    session, first, _ = two_tables
    Sitting.objects.filter(pk=first.table.sitting_id).update(moved_at=timezone.now())
    first = Game.objects.select_related("table__sitting__session").get(pk=first.pk)
    assert duplicate.hidden_rounds(first) == frozenset()
    Sitting.objects.filter(pk=first.table.sitting_id).update(moved_at=None)
    Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED)
    first = Game.objects.select_related("table__sitting__session").get(pk=first.pk)
    assert duplicate.hidden_rounds(first) == frozenset()


def test_the_projector_shows_no_card_of_a_duplicate_sitting(online_session: Any) -> None:
    session = online_session(8, duplicate=True)
    tables = tables_of(session)
    for table in tables:
        play_services.advance(table_id=table.pk)
    # A robot leads at each table: a card lies on the table.
    seat_robots(tables)
    for table in tables:
        play_services.advance(table_id=table.pk)
    shown = screen_tricks(session.sittings.get())
    assert len(shown) == 2
    assert all(t["trick"] == [] and t["tricks_won"] == {} and t["duplicate"] for t in shown)
    assert all(t["to_act"] or t["round"] for t in shown)


def test_the_key_is_never_shown(
    two_tables: tuple[Session, Game, Game], director_client: APIClient
) -> None:
    session, first, _ = two_tables
    key = first.table.sitting.deal_key
    answers = [
        director_client.get(f"/api/sessions/{session.pk}/").content,
        director_client.get(f"/api/sessions/{session.pk}/sittings/").content,
        director_client.get(f"/api/games/{first.pk}/").content,
        director_client.get(f"/api/sessions/{session.pk}/export.json").content,
    ]
    assert all(key.encode() not in a for a in answers)
    assert json.loads(answers[1])[0]["duplicate"] is True


# The setting -------------------------------------------------------------------------------


def test_a_session_made_with_duplicate_deals_starts_with_them(
    director_client: APIClient, club: Any, season: Any
) -> None:
    made = director_client.post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "season": season.pk,
            "name": "Duplicate night",
            "date": season.starts_on.isoformat(),
            "rules_id": "huckley-buck",
            "games_per_sitting": 2,
            "new_names": [f"Player {n}" for n in range(8)],
            "online": True,
            "duplicate": True,
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["duplicate"] is True
    session = Session.objects.get(pk=made.json()["id"])
    session.entries.update(checked_in=True)
    started = director_client.post(f"/api/sessions/{session.pk}/start/", {}, format="json")
    assert started.status_code in (200, 201), started.content
    assert session.sittings.get().duplicate


def test_switched_on_mid_session_it_starts_with_the_next_sitting(
    online_session: Any, director_client: APIClient
) -> None:
    session = online_session(8)
    changed = director_client.patch(
        f"/api/sessions/{session.pk}/", {"duplicate": True}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["duplicate"] is True
    assert not session.sittings.get().duplicate  # this sitting keeps its own deals
    tables = tables_of(session)
    seat_robots(tables)
    for table in tables:
        robots_play_out(table)
    Player.objects.update(is_robot=False)  # back at their phones: ranked as people
    moved = director_client.post(
        f"/api/sessions/{session.pk}/movement/", {"sitting": 1}, format="json"
    )
    assert moved.status_code == 201, moved.content
    new = session.sittings.get(number=2)
    assert new.duplicate
    assert len(new.deal_key) == 64


# The comparison page -----------------------------------------------------------------------


def phones_play_round(table: Table, tokens: dict[str, str], rounds: int = 1) -> None:
    """The phones at `table` play legal moves until its first game has stored `rounds`."""
    game = Game.objects.get(table=table, number=1)
    names = {gp.name for gp in game.game_players.all()}

    def done() -> bool:
        game.refresh_from_db()
        return game.round_count >= rounds

    mine = {name: token for name, token in tokens.items() if name in names}
    play_table(APIClient(), mine, rng=random.Random(table.pk), until=done)


def test_the_comparison_shows_a_deal_once_both_tables_played_it(
    online_session: Any, director: Any
) -> None:
    session = online_session(8, duplicate=True)
    tables = tables_of(session)
    tokens = tokens_of(session, director)
    hands, upcard = dealt(tables[0])
    url = f"/sessions/{session.pk}/sittings/1/duplicate/"
    first = Client().get(url)
    assert first.status_code == 200
    assert 'id="no-deals"' in first.content.decode()
    assert url in Client().get(f"/sessions/{session.pk}/").content.decode()

    phones_play_round(tables[0], tokens)
    sitting = Sitting.objects.select_related("session").get(pk=tables[0].sitting_id)
    waiting = duplicate.comparison(sitting)
    assert (waiting.deals, waiting.open) == ((), 1)
    html = Client().get(url).content.decode()
    assert 'id="deals-open"' in html
    assert card_label(hands[0][0]) not in html.split('id="deals-open"')[1]
    assert Client().get(f"{url}?deal=4-1-1").status_code == 404

    phones_play_round(tables[1], tokens)
    shown = duplicate.comparison(sitting)
    deal = shown.deals[0]
    assert (deal.size, deal.game, deal.round) == (4, 1, 1)
    assert [sorted(h) for h in deal.hands] == [sorted(card_label(c) for c in h) for h in hands]
    assert deal.upcard == (card_label(upcard) if upcard else None)
    assert [r.table for r in deal.results] == sorted(t.number for t in tables)
    for result, table in zip(deal.results, sorted(tables, key=lambda t: t.number), strict=True):
        game = Game.objects.get(table=table, number=1)
        points = engine.check(game_record(game))["rounds"][0]["points"]
        assert {s.player: s.points for s in result.seats} == points
        assert not any(s.robot for s in result.seats)
    listed = Client().get(url).content.decode()
    assert 'href="?deal=4-1-1"' in listed
    page_now = Client().get(f"{url}?deal=4-1-1").content.decode()
    assert 'id="deal-4-1-1"' in page_now
    for hand in deal.hands:
        assert " ".join(hand) in page_now
    # A deal still being played, or none, is not shown: the same words for both.
    for slug in ("4-1-2", "4-9-9", "nonsense"):
        refused = Client().get(f"{url}?deal={slug}")
        assert refused.status_code == 404
        assert 'id="not-shown"' in refused.content.decode()

    # A round played at a table ahead of the other shows nothing new: the deals are kept.
    phones_play_round(tables[0], tokens, rounds=2)
    ahead = duplicate.comparison(sitting)
    assert ahead.open == 1
    assert ahead.deals is shown.deals
    # A correction builds them again.
    game = Game.objects.get(table=tables[1], number=1)
    RoundChange.objects.create(
        game=game, round_number=1, action=RoundChange.Action.EDIT, before={}, after={}
    )
    assert duplicate.comparison(sitting).deals is not shown.deals


def test_a_sitting_without_duplicate_deals_says_so(online_session: Any) -> None:
    session = online_session(8)
    html = Client().get(f"/sessions/{session.pk}/sittings/1/duplicate/").content.decode()
    assert 'id="not-duplicate"' in html
    assert Client().get(f"/sessions/{session.pk}/sittings/9/duplicate/").status_code == 404


def test_the_new_session_form_and_the_manage_page_set_duplicate_deals(
    online_session: Any, director: Any, club: Any, season: Any
) -> None:
    browser = Client()
    browser.force_login(director)
    made = browser.post(
        f"/director/clubs/{club.slug}/sessions/new/",
        {
            "season": season.pk,
            "name": "Duplicate night",
            "date": str(season.starts_on),
            "rules_id": "huckley-buck",
            "games_per_sitting": 2,
            "online": "on",
            "duplicate": "on",
            "online_grace_seconds": "60",
        },
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Session.objects.get(name="Duplicate night").duplicate

    session = online_session(8)
    settings = f"/director/sessions/{session.pk}/online/"
    form = {"online_grace_seconds": "60", "move_clock_seconds": ""}
    browser.post(settings, form | {"duplicate_shown": "1", "duplicate": "on"})
    session.refresh_from_db()
    assert session.duplicate
    # A form without the box (an older page) leaves it as it is; the box unticked clears it.
    browser.post(settings, form)
    session.refresh_from_db()
    assert session.duplicate
    browser.post(settings, form | {"duplicate_shown": "1"})
    session.refresh_from_db()
    assert not session.duplicate


def test_a_finished_session_keeps_its_duplicate_setting(
    online_session: Any, director_client: APIClient
) -> None:
    session = online_session(8)
    Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED)
    answer = director_client.patch(
        f"/api/sessions/{session.pk}/", {"duplicate": True}, format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "session_finished"
    session.refresh_from_db()
    assert not session.duplicate


def test_only_a_director_sets_duplicate_deals(online_session: Any) -> None:
    session = online_session(8)
    answer = APIClient().patch(f"/api/sessions/{session.pk}/", {"duplicate": True}, format="json")
    assert answer.status_code in (401, 403)
    session.refresh_from_db()
    assert not session.duplicate


#: A visit to a deal's page once its part is kept: the session, the sitting, the open
#: deals and the last correction (the key of what is kept). Nothing per table or round.
DEAL_PAGE_QUERIES = 4


def test_a_deals_page_costs_the_same_few_queries_at_any_size(
    online_session: Any, django_assert_num_queries: Any
) -> None:
    for players in (8, 16):
        session = online_session(players, duplicate=True)
        tables = tables_of(session)
        seat_robots(tables)
        for table in tables:
            robots_play_out(table)
        url = f"/sessions/{session.pk}/sittings/1/duplicate/?deal=4-1-1"
        assert Client().get(url).status_code == 200  # built and kept
        with django_assert_num_queries(DEAL_PAGE_QUERIES):
            assert Client().get(url).status_code == 200


@pytest.mark.parametrize("rules_id", RULES)
def test_the_comparison_scores_a_round_as_its_whole_record_does(
    rules_id: str, online_session: Any
) -> None:
    """The comparison checks the games without the card-by-card play (the costly part):
    the points and dealers are the same as the whole record's, in every game."""
    session = online_session(4, rules_id=rules_id)
    game = Game.objects.get(table__sitting__session=session, number=1)
    if rules_id.startswith("bluke"):
        Game.objects.filter(pk=game.pk).update(options={"max_cards": 2})
        game.refresh_from_db()
    for seed in range(3):
        if game.status == Game.Status.FINISHED:
            break
        store_online_round(game, seed=seed)
    record = game_record(game)
    whole = engine.check(record)
    lean = engine.check(duplicate.without_play(record))
    assert whole["valid"]
    assert lean["valid"]
    assert [(r["dealer"], r["points"]) for r in lean["rounds"]] == [
        (r["dealer"], r["points"]) for r in whole["rounds"]
    ]
    assert all("play" in r for r in record["rounds"])
