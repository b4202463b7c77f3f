"""Tables that do not move (docs/tournament.md, "Seating wishes"): a roster player fixed to
a physical table finds the rank they play at at that table every sitting, and everything
players see shows the physical number; the director sees both. The pure numbering is
tests/format/test_table_numbers_format.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from printing import sheets
from tests.api.conftest import token_client
from tests.factories import UserFactory
from tournaments.models import Seating, Session, SessionPlayer, Sitting, Table, TableCard
from workflow.club import seating_wishes
from workflow.session import movements, selectors, start_finish
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import card_selectors

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seat_of(sitting: Sitting, player_id: int) -> Table:
    return Seating.objects.get(sitting=sitting, player_id=player_id).table


def fix(session: Session, player_id: int, table: Any, user: Any) -> SessionPlayer:
    return seating_wishes.session_set_fixed_table(
        session_id=session.pk, player_id=player_id, table=table, user=user
    )


def move_on(session: Session, director: Any, seed: int) -> Sitting:
    sitting = selectors.require_current_sitting(session)
    finish_sitting_unplayed(sitting, random.Random(seed))
    return movements.sitting_move_players(
        session_id=session.pk, sitting_number=sitting.number, user=director
    )


def test_without_a_fixed_player_every_table_is_numbered_by_its_rank(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(13)
    assert list(Table.objects.filter(sitting__session=session).values_list("rank", "number")) == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]


def test_a_fixed_player_keeps_their_table_every_sitting_whatever_rank_it_hosts(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(16, start=False, seed=3)
    ann = session.entries.order_by("player_id").first()
    assert ann is not None
    fix(session, ann.player_id, 7, director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    ranks_seen = set()
    for step in range(4):
        table = seat_of(sitting, ann.player_id)
        assert table.number == 7
        ranks_seen.add(table.rank)
        numbers = sorted(sitting.tables.values_list("number", flat=True))
        # The other ranks take the smallest numbers left: 1, 2, 3 and Ann's 7.
        assert numbers == [1, 2, 3, 7]
        assert sitting.table_notes == [
            f"{ann.player.name} stays at table 7, which hosts rank {table.rank} this sitting"
        ]
        if step < 3:
            sitting = move_on(session, director, step)
    # She played at more than one rank, always at table 7: the format still moved her.
    assert len(ranks_seen) > 1


def test_a_card_opens_the_table_of_its_physical_number(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    ann = session.entries.order_by("player_id").first()
    assert ann is not None
    fix(session, ann.player_id, 5, director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    ann_table = seat_of(sitting, ann.player_id)
    cards = {c.number: c for c in TableCard.objects.filter(session=session)}
    # Cards for every number up to the highest in use.
    assert sorted(cards) == [1, 2, 3, 4, 5]
    target = card_selectors.session_card_target(cards[5])
    assert target.table == ann_table
    other = sitting.tables.exclude(pk=ann_table.pk).get()
    assert card_selectors.session_card_target(cards[other.number]).table == other
    assert card_selectors.session_card_target(cards[3]).table is None


def test_players_see_the_physical_number_and_the_director_sees_both(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False, seed=2)
    entries = list(session.entries.order_by("player_id").select_related("player"))
    ann = entries[0]
    fix(session, ann.player_id, 5, director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    table = seat_of(sitting, ann.player_id)
    name = ann.player.name
    public = Client()
    # Find my table.
    found = public.get(reverse("tournaments:session", args=[session.pk]), {"name": name})
    assert f"<strong>{name}</strong>: table <strong>5</strong>" in found.content.decode()
    # The board of the public page and the projector.
    board = public.get(reverse("tournaments:session", args=[session.pk])).content.decode()
    assert ">Table 5</a>" in board
    screen = public.get(reverse("tournaments:screen", args=[session.pk])).content.decode()
    assert "<h3>Table 5</h3>" in screen
    # The table's page.
    page = public.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "<h1>Table 5 " in page
    # The wall list and the score sheets.
    assert {a.table for a in sheets.assignments(sitting) if a.name == name} == {5}
    assert 5 in {s.table for s in sheets.score_sheets(session, sitting)}
    # The director's page: both.
    manage = signed_in(director).get(reverse("tournaments:manage", args=[session.pk]))
    text = manage.content.decode()
    assert f"Table 5 (rank {table.rank})" in text
    assert f"{name} stays at table 5, which hosts rank {table.rank} this sitting." in text


def test_the_movement_preview_says_what_the_fixed_tables_do(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(12, seed=4)
    ann = session.entries.order_by("player_id").select_related("player").first()
    assert ann is not None
    fix(session, ann.player_id, 9, director)
    sitting = selectors.require_current_sitting(session)
    finish_sitting_unplayed(sitting, random.Random(1))
    preview = movements.movement_preview(sitting=sitting)
    to_rank = next(m.to_rank for m in preview.moves if m.player == ann.player_id)
    note = f"{ann.player.name} stays at table 9, which hosts rank {to_rank} this sitting"
    assert preview.table_notes == [note]
    page = signed_in(director).get(reverse("tournaments:movement", args=[session.pk]))
    assert note + "." in page.content.decode()
    api = token_client(director).get(f"/api/sessions/{session.pk}/movement/").json()
    assert api["table_notes"] == [note]
    nxt = movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    assert seat_of(nxt, ann.player_id).number == 9
    assert seat_of(nxt, ann.player_id).rank == to_rank


def test_an_undo_gives_back_the_tables_as_they_were(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, seed=5)
    ann = session.entries.order_by("player_id").first()
    assert ann is not None
    before = list(Table.objects.filter(sitting__session=session).values_list("rank", "number"))
    fix(session, ann.player_id, 6, director)
    move_on(session, director, 1)
    movements.sitting_undo_movement(session_id=session.pk, user=director)
    after = list(Table.objects.filter(sitting__session=session).values_list("rank", "number"))
    assert after == before


def test_two_players_fixed_to_one_table_at_different_ranks_the_rank_above_keeps_it(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False, seed=6)
    start_finish.session_start(session_id=session.pk, user=director)
    sitting = selectors.require_current_sitting(session)
    top = sitting.seatings.filter(table__rank=1).select_related("player").first()
    bottom = sitting.seatings.filter(table__rank=2).select_related("player").first()
    assert top is not None
    assert bottom is not None
    fix(session, top.player_id, 4, director)
    fix(session, bottom.player_id, 4, director)
    numbering = seating_wishes.table_numbering(
        session=session, tables=[[top.player_id], [bottom.player_id]]
    )
    assert numbering.numbers == [4, 1]
    assert numbering.notes[1] == (
        f"{bottom.player.name} cannot stay at table 4 this sitting: it hosts rank 1; they "
        "play at rank 2, at table 1"
    )


# Setting it: the service, its refusals, who may


def test_each_refusal_is_in_plain_words_and_changes_nothing(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    entry = session.entries.first()
    assert entry is not None
    for table in (0, -1, 100, "five", "2.5", True):
        with pytest.raises(UserError) as e:
            fix(session, entry.player_id, table, director)
        assert e.value.code == "fixed_table_invalid"
        assert e.value.message == (
            "A table number is a whole number from 1 to 99; leave it empty for a player who "
            "moves like everyone."
        )
    with pytest.raises(UserError) as e:
        fix(session, 999999, 3, director)
    assert e.value.code == "not_on_roster"
    assert not SessionPlayer.objects.filter(fixed_table__isnull=False).exists()
    assert fix(session, entry.player_id, " 3 ", director).fixed_table == 3
    assert fix(session, entry.player_id, "", director).fixed_table is None


def test_a_finished_session_refuses(make_session: Callable[..., Session], director: Any) -> None:
    session = make_session(8)
    start_finish.session_finish(session_id=session.pk, early=True, user=director)
    entry = session.entries.first()
    assert entry is not None
    with pytest.raises(UserError) as e:
        fix(session, entry.player_id, 3, director)
    assert (e.value.status, e.value.code) == (409, "session_over")


def test_who_does_not_direct_the_club_may_not(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8)
    entry = session.entries.first()
    assert entry is not None
    with pytest.raises(PermissionDenied):
        fix(session, entry.player_id, 3, UserFactory.create(username="outsider"))
    outsider = signed_in(UserFactory.create(username="outsider-2"))
    url = reverse("tournaments:fixed_table", args=[session.pk])
    assert outsider.post(url, {"player": entry.player_id, "table": "3"}).status_code == 403
    api = token_client(UserFactory.create(username="outsider-3"))
    body = {"player_id": entry.player_id, "fixed_table": 3}
    response = api.patch(f"/api/sessions/{session.pk}/players/", body, format="json")
    assert response.status_code == 403
    assert not SessionPlayer.objects.filter(fixed_table__isnull=False).exists()


def test_the_session_page_sets_and_clears_a_fixed_table(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    entry = session.entries.select_related("player").first()
    assert entry is not None
    browser = signed_in(director)
    url = reverse("tournaments:fixed_table", args=[session.pk])
    done = browser.post(url, {"player": entry.player_id, "table": "5"}, follow=True)
    text = done.content.decode()
    assert f"{entry.player.name} stays at table 5." in text
    assert 'id="fixed-tables"' in text
    refused = browser.post(url, {"player": entry.player_id, "table": "0"}, follow=True)
    assert "A table number is a whole number from 1 to 99" in refused.content.decode()
    cleared = browser.post(url, {"player": entry.player_id, "table": ""}, follow=True)
    assert f"{entry.player.name} moves like everyone." in cleared.content.decode()
    entry.refresh_from_db()
    assert entry.fixed_table is None


def test_the_api_sets_a_fixed_table_and_tables_carry_rank_and_number(
    make_session: Callable[..., Session], director: Any
) -> None:
    session = make_session(8, start=False)
    entry = session.entries.order_by("player_id").first()
    assert entry is not None
    api = token_client(director)
    url = f"/api/sessions/{session.pk}/players/"
    response = api.patch(url, {"player_id": entry.player_id, "fixed_table": 5}, format="json")
    assert response.status_code == 200
    mine = [e for e in response.json()["entries"] if e["player_id"] == entry.player_id]
    assert mine[0]["fixed_table"] == 5
    bad = api.patch(url, {"player_id": entry.player_id, "fixed_table": 0}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "fixed_table_invalid")
    started = api.post(f"/api/sessions/{session.pk}/start/").json()
    assert 5 in {t["number"] for t in started["tables"]}
    assert {t["rank"] for t in started["tables"]} == {1, 2}
    table = next(t for t in started["tables"] if t["number"] == 5)
    detail = api.get(f"/api/tables/{table['id']}/").json()
    assert (detail["rank"], detail["number"]) == (table["rank"], 5)
    cleared = api.patch(url, {"player_id": entry.player_id, "fixed_table": None}, format="json")
    assert cleared.status_code == 200


def test_the_schema_says_which_number_is_which(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    props = schema["TableDetail"]["properties"]
    assert "place in the format" in props["rank"]["description"]
    assert "physical table" in props["number"]["description"]
