"""A withdrawal in the middle of a game: a substitute takes the seat and its score
(docs/tournament.md, "Withdrawals"), on the service, the page and the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

import engine
from ratings import services as rating_services
from ratings.models import RatingHistory
from scoring import records, substitutes
from scoring import services as scoring
from scoring.models import Game, GamePlayer
from tests.api.conftest import db_state, token_client
from tests.factories import ClubFactory, UserFactory
from tests.scoring.helpers import scorer
from tests.snapshots import changed_tables, db_snapshot
from tests.workflow.session.test_service_refusals import MakeSession, refused
from tournaments.models import Seating, Session, SessionPlayer, SitOut
from tournaments.permissions import SYSTEM
from workflow.session import selectors, withdrawals
from workflow.session.simulation import play_game

pytestmark = pytest.mark.django_db


def under_way(session: Session, rank: int = 1, rounds: int = 2) -> Game:
    """Game 1 at table `rank` with `rounds` rounds played."""
    game = Game.objects.get(table__sitting__session=session, table__rank=rank, number=1)
    record = records.game_record(game)
    seed = next(  # a simulated game long enough to stop in the middle of
        s
        for s in range(3, 50)
        if len(
            engine.simulate(
                record["rules"], record["players"], seed=s, first_dealer=record["first_dealer"]
            )["rounds"]
        )
        > rounds
    )
    play_game(game, seed=seed, rounds=rounds)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.round_count == rounds
    return game


def seat_of(game: Game, index: int = 0) -> GamePlayer:
    return list(game.game_players.all())[index]


def test_a_substitute_takes_the_seat_its_score_and_the_rounds_played(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game, 1)
    before = records.game_check(game)
    chosen = withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaver.player_id, user=director, substitute=" Zed  Sub "
    )
    assert chosen is not None
    assert chosen.name == "Zed Sub"
    seat = GamePlayer.objects.get(game=game, seat=leaver.seat)
    assert (seat.player_id, seat.name) == (chosen.pk, "Zed Sub")
    assert (seat.replaced_id, seat.replaced_name) == (leaver.player_id, leaver.name)
    assert seat.replaced_after_round == 2
    assert seat.score == leaver.score
    # The game record stays valid: the same verdict, the seat under its new name.
    record = records.game_record(game)
    assert "Zed Sub" in record["players"]
    assert leaver.name not in record["players"]
    assert record["substitutes"] == [
        {"player": "Zed Sub", "replaced": leaver.name, "after_round": 2}
    ]
    after = engine.check(record)
    assert after["valid"]
    assert after["scores"]["Zed Sub"] == before["scores"][leaver.name]
    assert [r["points"].get("Zed Sub") for r in after["rounds"]] == [
        r["points"].get(leaver.name) for r in before["rounds"]
    ]
    # The table: the substitute in the leaver's seat, the leaver gone, both on the roster.
    seating = Seating.objects.get(sitting__session=session, player=chosen)
    assert (seating.table_id, seating.seat, seating.left_at) == (game.table_id, leaver.seat, None)
    assert Seating.objects.get(sitting__session=session, player_id=leaver.player_id).left_at
    assert SessionPlayer.objects.get(session=session, player_id=leaver.player_id).withdrawn_at
    entry = SessionPlayer.objects.get(session=session, player=chosen)
    assert (entry.checked_in, entry.arrived_late, entry.withdrawn_at) == (True, True, None)


def test_the_game_the_substitute_finishes_counts_for_them_and_the_next_game_seats_them(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    play_game(game, seed=3)  # game 1 finished: it still counts for the leaver
    second = Game.objects.get(table=game.table, number=2)
    play_game(second, seed=4, rounds=1)
    leaver = seat_of(second, 0)
    first_score = GamePlayer.objects.get(game=game, player_id=leaver.player_id).score
    chosen = withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaver.player_id, user=director, substitute="Zed"
    )
    assert chosen is not None
    second.refresh_from_db()
    play_game(second, seed=4)  # the rest of it, the substitute playing the seat
    second.refresh_from_db()
    assert second.status == Game.Status.FINISHED
    # The ratings: what a rebuild gives, which the background updates always equal.
    rating_services.ratings_rebuild(club_id=session.club_id, user=SYSTEM)
    rated = set(RatingHistory.objects.filter(game=second).values_list("player_id", flat=True))
    assert chosen.pk in rated
    assert leaver.player_id not in rated
    rows = {r.player_id: r for r in selectors.session_standings(session)}
    seat_score = GamePlayer.objects.get(game=second, player=chosen).score
    assert (rows[chosen.pk].games_played, rows[chosen.pk].points) == (1, seat_score)
    assert (rows[leaver.player_id].games_played, rows[leaver.player_id].points) == (
        1,
        first_score,
    )
    assert rows[leaver.player_id].withdrawn


def test_a_substitute_for_the_first_dealer_deals_in_the_record(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = under_way(session, rounds=1)
    dealer = game.game_players.get(player_id=game.first_dealer_id)
    withdrawals.session_withdraw(
        session_id=session.pk, player_id=dealer.player_id, user=director, substitute="Zed"
    )
    game.refresh_from_db()
    record = records.game_record(game)
    assert record["first_dealer"] == "Zed"
    assert engine.check(record)["valid"]


def test_a_player_sitting_out_can_be_the_substitute(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(9, rules_id="buck-euchre")  # tables of four, one sits out
    resting = SitOut.objects.get(sitting__session=session)
    game = under_way(session, rounds=1)
    leaver = seat_of(game)
    withdrawals.session_withdraw(
        session_id=session.pk,
        player_id=leaver.player_id,
        user=director,
        substitute=resting.player.name.upper(),  # the same player, whatever the case
    )
    assert not SitOut.objects.filter(sitting__session=session).exists()
    assert game.game_players.filter(player=resting.player).exists()


def test_a_substitute_between_games_plays_the_next_game_from_its_start(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    leaver = seat_of(game, 2)
    chosen = withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaver.player_id, user=director, substitute="Zed"
    )
    assert chosen is not None
    fresh = Game.objects.get(table=game.table, number=1)
    seat = fresh.game_players.get(player=chosen)
    assert (seat.seat, seat.replaced_name) == (leaver.seat, "")


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("no substitute", "withdrawal_mid_game"),
        ("the leaver", "substitute_is_player"),
        ("someone playing", "substitute_playing"),
        ("only spaces", "withdrawal_mid_game"),
    ],
)
def test_a_mid_game_withdrawal_without_a_usable_substitute_changes_nothing(
    make_session: MakeSession, director: Any, case: str, code: str
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game)
    other_table = Seating.objects.filter(sitting__session=session, table__rank=2).first()
    assert other_table is not None
    name = {
        "no substitute": "",
        "the leaver": leaver.name,
        "someone playing": other_table.player.name,
        "only spaces": "   ",
    }[case]
    error = refused(
        code,
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=leaver.player_id, user=director, substitute=name
        ),
    )
    if code == "withdrawal_mid_game":
        assert "Name a substitute" in error.message
        assert "when the game ends" in error.message


def test_a_substitute_is_refused_where_there_is_no_seat_to_take(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(9, rules_id="buck-euchre")
    resting = SitOut.objects.get(sitting__session=session).player_id
    refused(
        "no_seat_to_take",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk, player_id=resting, user=director, substitute="Zed"
        ),
    )
    waiting = make_session(8, start=False)
    entry = waiting.entries.first()
    assert entry is not None
    refused(
        "substitute_before_start",
        lambda: withdrawals.session_withdraw(
            session_id=waiting.pk, player_id=entry.player_id, user=director, substitute="Zed"
        ),
    )


def test_only_a_director_of_the_club_may_withdraw_a_player(make_session: MakeSession) -> None:
    session = make_session(8)
    game = under_way(session)
    outsider = UserFactory(username="other-director")
    ClubFactory().directors.add(outsider)
    before = db_snapshot()
    with pytest.raises(PermissionDenied):
        withdrawals.session_withdraw(
            session_id=session.pk,
            player_id=seat_of(game).player_id,
            user=outsider,
            substitute="Zed",
        )
    assert changed_tables(before) == []


def test_the_page_asks_for_a_substitute_mid_game_and_seats_them(
    make_session: MakeSession, director: Any, client: Client
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game)
    url = f"/director/sessions/{session.pk}/players/{leaver.player_id}/withdraw/"
    client.force_login(director)
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "in the middle of game 1 at table 1" in text
    assert 'name="substitute"' in text
    assert "required" in text
    refusal = client.post(url, {"substitute": ""}, follow=True)
    assert "Name a substitute" in refusal.content.decode()
    assert not SessionPlayer.objects.get(session=session, player_id=leaver.player_id).withdrawn_at
    done = client.post(url, {"substitute": "Zed"}, follow=True)
    assert f"{leaver.name} withdrew; Zed takes their seat." in done.content.decode()
    assert game.game_players.filter(player__name="Zed").exists()


def test_the_page_is_refused_to_those_who_do_not_direct_the_club(
    make_session: MakeSession, client: Client
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game)
    client.force_login(UserFactory(username="stranger"))
    url = f"/director/sessions/{session.pk}/players/{leaver.player_id}/withdraw/"
    assert client.get(url).status_code == 403
    assert client.post(url, {"substitute": "Zed"}).status_code == 403
    assert not game.game_players.filter(player__name="Zed").exists()


def test_the_api_takes_a_substitute_and_refuses_a_mid_game_withdrawal_without_one(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game)
    api = token_client(director)
    url = f"/api/sessions/{session.pk}/withdraw/"
    before = db_state()
    response = api.post(url, {"player_id": leaver.player_id}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "withdrawal_mid_game")
    assert db_state() == before
    response = api.post(url, {"player_id": leaver.player_id, "substitute": "Zed"}, format="json")
    assert response.status_code == 200, response.json()
    assert game.game_players.filter(player__name="Zed").exists()
    stranger = token_client(UserFactory(username="stranger"))
    response = stranger.post(url, {"player_id": seat_of(game, 1).player_id}, format="json")
    assert response.status_code == 403


def test_a_pending_double_entry_follows_the_seat_to_its_new_name(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8, double_entry=True)
    game = Game.objects.get(table__sitting__session=session, table__rank=1, number=1)
    record = records.game_record(game)
    played = engine.simulate(
        record["rules"], record["players"], seed=3, first_dealer=record["first_dealer"]
    )
    scoring.round_submit(game_id=game.pk, number=1, data=played["rounds"][0], actor=director)
    scoring.round_submit(
        game_id=game.pk, number=2, data=played["rounds"][1], actor=scorer(game, director)
    )
    game.refresh_from_db()
    assert game.round_count == 1
    pending = game.pending_rounds.get()
    leaver = seat_of(game, 0)
    withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaver.player_id, user=director, substitute="Zed"
    )
    pending.refresh_from_db()
    assert leaver.name not in json.dumps(pending.data)
    assert pending.data == substitutes._renamed(played["rounds"][1], leaver.name, "Zed")
    # The second person at the table enters the same numbers, under the new name.
    scoring.round_submit(game_id=game.pk, number=2, data=pending.data, actor=director)
    game.refresh_from_db()
    assert game.round_count == 2


def test_the_exported_record_says_who_played_the_seat_before(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    game = under_way(session)
    leaver = seat_of(game, 3)
    withdrawals.session_withdraw(
        session_id=session.pk, player_id=leaver.player_id, user=director, substitute="Zed"
    )
    exported = token_client(director).get(f"/api/sessions/{session.pk}/export.json").json()
    [entry] = [g for g in exported["games"] if g["game_id"] == game.pk]
    assert entry["record"]["substitutes"] == [
        {"player": "Zed", "replaced": leaver.name, "after_round": 2}
    ]
    assert engine.check(entry["record"])["valid"]


def test_a_rename_that_would_change_the_game_is_never_stored(
    make_session: MakeSession, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's second opinion: were the rounds renamed wrongly (here, the rename is
    made to forget the rounds' tricks), the verdict would change, and nothing is kept."""
    session = make_session(8)
    game = under_way(session)
    real = substitutes._renamed

    def broken(value: Any, old: str, new: str) -> Any:
        renamed = real(value, old, new)
        if isinstance(renamed, dict) and "tricks" in renamed:
            renamed = {**renamed, "tricks": {}}
        return renamed

    monkeypatch.setattr(substitutes, "_renamed", broken)
    refused(
        "substitute_name_clash",
        lambda: withdrawals.session_withdraw(
            session_id=session.pk,
            player_id=seat_of(game).player_id,
            user=director,
            substitute="Zed",
        ),
    )


def test_the_withdrawal_page_costs_a_few_queries_however_big_the_session(
    make_session: MakeSession,
    director: Any,
    client: Client,
    django_assert_max_num_queries: Any,
) -> None:
    session = make_session(40)
    game = under_way(session)
    client.force_login(director)
    url = f"/director/sessions/{session.pk}/players/{seat_of(game).player_id}/withdraw/"
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200
