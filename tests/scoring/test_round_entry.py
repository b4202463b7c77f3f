"""Result entry through the engine: refusals store nothing, corrections re-check the game,
a double submit stores one round, and the next game starts with the winner dealing."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from common.errors import ConflictError, UserError
from scoring import records, services
from scoring.models import Game, Round, RoundChange
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: Any) -> Game:
    """Game 1 at a table of four (8 players: two tables of four)."""
    session = make_session(8)
    return Game.objects.filter(table__sitting__session=session, table__rank=1).get()


def names(game: Game) -> list[str]:
    return list(game.game_players.order_by("seat").values_list("name", flat=True))


def dealer_order(game: Game) -> list[str]:
    """Seats from the first dealer, clockwise: the dealers of rounds 1, 2, 3, ..."""
    seated = names(game)
    start = seated.index(game.first_dealer.name)
    return seated[start:] + seated[:start]


def tricks(game: Game, counts: list[int]) -> dict[str, Any]:
    """A round where the players, from the dealer's seat on, took these tricks."""
    order = dealer_order(game)
    return {"tricks": dict(zip(order, counts, strict=True))}


def test_a_valid_round_is_stored_with_its_scores(game: Game, director: Any) -> None:
    services.round_submit(
        game_id=game.pk, number=1, data=tricks(game, [2, 2, 1, 0]), actor=director
    )
    game.refresh_from_db()
    assert game.round_count == 1
    order = dealer_order(game)
    scores = {gp.name: (gp.score, gp.hooks) for gp in game.game_players.all()}
    # Zero tricks for a player who stayed in is a hook: -3, floored at 0.
    assert scores == {order[0]: (2, 0), order[1]: (2, 0), order[2]: (1, 0), order[3]: (0, 1)}
    change = RoundChange.objects.get(game=game)
    assert (change.action, change.user, change.round_number) == ("enter", director, 1)


def test_a_wrong_total_is_refused_and_nothing_is_stored(game: Game) -> None:
    services.round_submit(game_id=game.pk, number=1, data=tricks(game, [2, 2, 1, 0]), actor=SYSTEM)
    with pytest.raises(UserError) as caught:
        services.round_submit(
            game_id=game.pk, number=2, data=tricks(game, [2, 2, 2, 0]), actor=SYSTEM
        )
    assert caught.value.code == "round_invalid"
    assert caught.value.details
    assert all(e["round"] == 2 for e in caught.value.details)
    game.refresh_from_db()
    assert game.round_count == 1
    assert Round.objects.filter(game=game).count() == 1
    assert RoundChange.objects.filter(game=game).count() == 1


def test_a_drop_at_a_table_of_four_is_refused(game: Game) -> None:
    """ "For games with more than four players, some players may drop out" — so none at four."""
    order = dealer_order(game)
    data = {"out": [order[1]], "tricks": {order[0]: 2, order[2]: 2, order[3]: 1}}
    with pytest.raises(UserError) as caught:
        services.round_submit(game_id=game.pk, number=1, data=data, actor=SYSTEM)
    assert {e["field"] for e in caught.value.details} >= {"out"}
    assert not Round.objects.filter(game=game).exists()


def test_a_double_submit_stores_one_round(game: Game) -> None:
    data = tricks(game, [1, 1, 1, 2])
    first = services.round_submit(game_id=game.pk, number=1, data=data, actor=SYSTEM)
    again = services.round_submit(game_id=game.pk, number=1, data=data, actor=SYSTEM)
    assert again.round.pk == first.round.pk
    assert again.created is False
    assert Round.objects.filter(game=game).count() == 1


def test_a_different_round_under_a_taken_number_is_a_conflict(game: Game) -> None:
    services.round_submit(game_id=game.pk, number=1, data=tricks(game, [1, 1, 1, 2]), actor=SYSTEM)
    with pytest.raises(ConflictError) as caught:
        services.round_submit(
            game_id=game.pk, number=1, data=tricks(game, [2, 1, 1, 1]), actor=SYSTEM
        )
    assert caught.value.code == "round_number_taken"
    assert Round.objects.get(game=game).data == tricks(game, [1, 1, 1, 2])


def test_a_round_number_ahead_of_the_game_is_refused(game: Game) -> None:
    with pytest.raises(ConflictError) as caught:
        services.round_submit(
            game_id=game.pk, number=3, data=tricks(game, [1, 1, 1, 2]), actor=SYSTEM
        )
    assert caught.value.code == "round_number_out_of_order"


def play_to_the_end(game: Game) -> None:
    """The first dealer's left-hand neighbour takes all five tricks every round: 5, 10, 15."""
    order = dealer_order(game)
    for number in range(1, 4):
        dealer = order[(number - 1) % 4]
        taker = order[1]
        data = {"dealer": dealer, "tricks": {taker: 5}}
        services.round_submit(game_id=game.pk, number=number, data=data, actor=SYSTEM)


def test_a_finished_game_starts_the_next_with_the_winner_dealing(game: Game) -> None:
    """ "For a new game of an existing session, the winner of the last game deals first.\""""
    play_to_the_end(game)
    game.refresh_from_db()
    winner = dealer_order(game)[1]
    assert game.status == Game.Status.FINISHED
    assert list(game.game_players.filter(won=True).values_list("name", flat=True)) == [winner]
    following = Game.objects.get(table=game.table, number=2)
    assert following.first_dealer.name == winner
    assert following.first_dealer_source == Game.DealerSource.PREVIOUS_WINNER


def test_a_round_after_the_end_of_the_game_is_refused(game: Game) -> None:
    play_to_the_end(game)
    with pytest.raises(UserError) as caught:
        services.round_submit(
            game_id=game.pk, number=4, data=tricks(game, [1, 1, 1, 2]), actor=SYSTEM
        )
    assert "game_over" in {e["code"] for e in caught.value.details}


def test_a_correction_rechecks_and_reopens_the_game(game: Game, director: Any) -> None:
    play_to_the_end(game)
    order = dealer_order(game)
    corrected = {"dealer": order[2], "tricks": {order[2]: 5}}  # order[1] hooked: 10 - 3
    services.round_correct(game_id=game.pk, number=3, data=corrected, actor=director)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    # Game 2 had no round yet, so it is withdrawn until game 1 ends again.
    assert not Game.objects.filter(table=game.table, number=2).exists()
    change = RoundChange.objects.get(game=game, action="edit")
    assert change.before == {"dealer": order[2], "tricks": {order[1]: 5}}
    assert change.after == corrected
    assert change.user == director


def test_a_correction_that_breaks_a_later_round_is_refused(game: Game) -> None:
    """A correction that ends the game earlier leaves the later rounds after the end."""
    a, b, c, d = dealer_order(game)
    rounds = [
        {"tricks": {a: 5}},  # a 5; the others take hooks at 0
        {"tricks": {a: 4, b: 1}},  # a 9, b 1
        {"tricks": {b: 3, c: 1, d: 1}},  # a hooked to 6
        {"tricks": {a: 5}},  # a 11: game over
    ]
    for number, data in enumerate(rounds, start=1):
        services.round_submit(game_id=game.pk, number=number, data=data, actor=SYSTEM)
    # Had a taken two tricks in round 3, a would have reached 11 then, and round 4 could
    # not have been played.
    with pytest.raises(UserError) as caught:
        services.round_correct(
            game_id=game.pk, number=3, data={"tricks": {a: 2, c: 1, d: 1, b: 1}}, actor=SYSTEM
        )
    assert caught.value.code == "later_round_invalid"
    assert "round 4" in caught.value.message
    assert Round.objects.get(game=game, number=3).data == rounds[2]
    assert not RoundChange.objects.filter(game=game, action="edit").exists()


def test_deleting_a_round_is_refused_when_later_dealers_no_longer_fit(game: Game) -> None:
    play_to_the_end(game)  # every round names its dealer
    with pytest.raises(UserError) as caught:
        services.round_delete(game_id=game.pk, number=1, actor=SYSTEM)
    assert caught.value.code == "later_round_invalid"
    assert Round.objects.filter(game=game).count() == 3


def test_deleting_a_round_renumbers_the_rest(game: Game) -> None:
    order = dealer_order(game)
    services.round_submit(game_id=game.pk, number=1, data={"tricks": {order[1]: 5}}, actor=SYSTEM)
    services.round_submit(game_id=game.pk, number=2, data={"tricks": {order[2]: 5}}, actor=SYSTEM)
    services.round_delete(game_id=game.pk, number=1, actor=SYSTEM)
    remaining = list(Round.objects.filter(game=game))
    assert [(r.number, r.data) for r in remaining] == [(1, {"tricks": {order[2]: 5}})]
    game.refresh_from_db()
    assert game.round_count == 1
    assert RoundChange.objects.filter(game=game, action="delete").count() == 1


def test_the_stored_game_is_a_valid_record_for_the_engine(game: Game) -> None:
    play_to_the_end(game)
    output = engine.check(records.game_record(game))
    assert output["valid"] is True
    assert output["finished"] is True


def test_the_history_shows_a_correction_before_and_after(game: Game, director: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    order = dealer_order(game)
    services.round_submit(game_id=game.pk, number=1, data={"tricks": {order[1]: 5}}, actor=SYSTEM)
    services.round_correct(
        game_id=game.pk, number=1, data={"tricks": {order[1]: 4, order[2]: 1}}, actor=director
    )
    client = Client()
    client.force_login(director)
    page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert f"round 1 corrected by {director.username}" in page
    assert f"before: Tricks: {order[1]} 5" in page
    # Listed in seat order, whatever order the database keeps the keys in.
    after = {order[1]: 4, order[2]: 1}
    line = ", ".join(f"{name} {after[name]}" for name in names(game) if name in after)
    assert f"after: Tricks: {line}" in page


def test_the_history_gives_each_change_in_the_club_s_time_zone_and_says_which(
    game: Game, director: Any
) -> None:
    import zoneinfo

    from django.test import Client
    from django.urls import reverse

    from scoring.models import RoundChange

    club = game.table.sitting.session.club
    club.time_zone = "Asia/Kolkata"
    club.save(update_fields=["time_zone"])
    order = dealer_order(game)
    services.round_submit(game_id=game.pk, number=1, data={"tricks": {order[1]: 5}}, actor=SYSTEM)
    change = RoundChange.objects.get(game=game)
    local = change.at.astimezone(zoneinfo.ZoneInfo("Asia/Kolkata"))
    client = Client()
    client.force_login(director)
    page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert f"{local:%H:%M} (Asia/Kolkata): round 1 entered" in page
