"""Sessions under the related games: table sizes per rules, Buck Euchre's sit-outs in turn,
movement by each game's sense of a better score, entry forms with each game's fields."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import engine
from scoring import records
from scoring.models import Game, Round
from tournaments.models import Seating, Session, SitOut
from tournaments.permissions import SYSTEM
from workflow.session import movements, services
from workflow.session.simulation import finish_sitting_unplayed as fake_results

pytestmark = pytest.mark.django_db


def sizes(session: Session, number: int) -> list[int]:
    counts = Counter(
        Seating.objects.filter(sitting__session=session, sitting__number=number).values_list(
            "table__rank", flat=True
        )
    )
    return [counts[rank] for rank in sorted(counts)]


def test_buck_euchre_seats_fours_and_sits_out_the_rest(
    make_session: Callable[..., Session],
) -> None:
    """docs/format.md rule 8: "Buck Euchre: exactly 4, so players over a multiple of 4 sit out
    in turn"."""
    session = make_session(13, rules_id="buck-euchre")
    assert sizes(session, 1) == [4, 4, 4]
    out = list(SitOut.objects.filter(sitting__session=session).values_list("player_id", flat=True))
    assert len(out) == 1
    assert not Seating.objects.filter(sitting__session=session, player_id=out[0]).exists()


def test_buck_euchre_sit_outs_rotate_between_sittings(make_session: Callable[..., Session]) -> None:
    session = make_session(10, rules_id="buck-euchre")
    seen: list[set[int]] = []
    for number in (1, 2, 3):
        sitting = session.sittings.get(number=number)
        resting = set(sitting.sit_outs.values_list("player_id", flat=True))
        assert len(resting) == 2
        assert sizes(session, number) == [4, 4]
        seated = set(Seating.objects.filter(sitting=sitting).values_list("player_id", flat=True))
        assert not resting & seated
        assert len(resting | seated) == 10
        seen.append(resting)
        fake_results(sitting, random.Random(number))
        movements.sitting_move_players(session_id=session.pk, sitting_number=number, user=SYSTEM)
    # Nobody sits out twice while others have not sat out at all.
    assert len(seen[0] | seen[1] | seen[2]) == 6


def test_a_late_arrival_at_buck_euchre_sits_out_until_the_next_sitting(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8, rules_id="buck-euchre")
    services.session_add_players(session_id=session.pk, new_names=["Late Lu"], user=SYSTEM)
    assert sizes(session, 1) == [4, 4]
    assert SitOut.objects.filter(player__name="Late Lu", sitting__number=1).exists()


def test_buck_euchre_moves_the_lower_scores_up(make_session: Callable[..., Session]) -> None:
    """Lower is better in Buck Euchre: the two lowest totals at table 2 move up."""
    session = make_session(8, rules_id="buck-euchre")
    sitting = session.sittings.get()
    fake_results(sitting, random.Random(3))
    preview = movements.movement_preview(sitting=sitting)
    bottom = dict(preview.tables)[sitting.tables.get(rank=2)]
    scores = [p.result.score for p in bottom]
    assert scores == sorted(scores)
    moves = {m.player: m for m in preview.moves}
    assert [moves[p.player].direction for p in bottom] == ["up", "up", "stay", "stay"]


@pytest.mark.parametrize(("players", "expected"), [(7, [4, 3]), (11, [4, 4, 3]), (13, [5, 4, 4])])
def test_ten_point_buck_tables_hold_three_to_five(
    make_session: Callable[..., Session], players: int, expected: list[int]
) -> None:
    assert sizes(make_session(players, rules_id="ten-point-buck"), 1) == expected


@pytest.mark.parametrize("rules_id", sorted(engine.RULES))
def test_play_session_plays_every_rule_set(rules_id: str) -> None:
    out = StringIO()
    call_command(
        "play_session", players=9, rules=rules_id, sittings=2, seed=4, json=True, stdout=out
    )
    data = json.loads(out.getvalue())
    assert data["session"]["rules"] == rules_id
    assert [s["number"] for s in data["sittings"]] == [1, 2]
    for sitting in data["sittings"]:
        for table in sitting["tables"]:
            for game in table["games"]:
                verdict = engine.check(game)
                assert verdict["valid"], verdict["errors"]
                assert verdict["finished"]
            assert {row["move"] for row in table["standings"]} <= {"up", "down", "stay"}


def post_round(client: Client, game: Game, fields: dict[str, Any]) -> Any:
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    data: dict[str, Any] = {"number": game.round_count + 1, "dealer": game.first_dealer.name}
    for key, value in fields.items():
        if isinstance(value, dict):
            for name, v in value.items():
                data[f"{key}_{names.index(name) + 1}"] = v
        else:
            data[key] = value
    return client.post(reverse("scoring:round_enter", args=[game.pk]), data)


def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def seats_from_dealer(game: Game) -> list[str]:
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    start = names.index(game.first_dealer.name)
    return names[start:] + names[:start]


def test_buck_euchre_entry_form_takes_trump_and_declarer(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, rules_id="buck-euchre")
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    dealer, left, across, right = seats_from_dealer(game)
    client = director_client(director)
    page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert "Declarer" in page
    assert "Trump" in page
    # Hearts turned up and ordered by the player on the dealer's left, who takes 3 tricks.
    response = post_round(
        client,
        game,
        {"upcard": "9H", "trump": "H", "declarer": left, "tricks": {left: 3, across: 1, right: 1}},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Round.objects.get(game=game)
    assert stored.data["trump"] == "H"
    assert stored.data["declarer"] == left
    verdict = records.game_check(game)
    # Scores count down from 25: a trick is one point off; the dealer took none: set, +5.
    assert verdict["scores"] == {dealer: 30, left: 22, across: 24, right: 24}
    sheet = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert f"declarer {left}" in sheet


def test_ten_point_buck_entry_form_takes_bids_and_card_points(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(4, rules_id="ten-point-buck")
    game = Game.objects.get(table__sitting__session=session)
    client = director_client(director)
    names = seats_from_dealer(game)
    bids = dict(zip(names, [60, 40, 30, 20], strict=True))
    points = dict(zip(names, [60, 45, 25, 20], strict=True))
    response = post_round(client, game, {"bids": bids, "points": points})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Round.objects.get(game=game).data["bids"] == bids


def test_a_bluke_round_whose_tricks_do_not_add_up_is_refused_at_the_table(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(4, rules_id="bluke")
    game = Game.objects.get(table__sitting__session=session)
    names = seats_from_dealer(game)
    client = director_client(director)
    response = post_round(
        client,
        game,
        {
            "bids": dict(zip(names, [3, 3, 3, 3], strict=True)),
            "tricks": dict(zip(names, [3, 3, 3, 3], strict=True)),  # 12 of 13
        },
    )
    assert response.status_code == 400
    assert not Round.objects.filter(game=game).exists()
