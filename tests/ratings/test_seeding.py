"""Seeding the first sitting from ratings: the pure split, then the session service and
pages."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from common.errors import UserError
from ratings.models import Rating
from tests.factories import UserFactory
from tournaments.format import format_for, seeded_split, split, table_sizes
from tournaments.models import Club, Season, Session
from workflow.session import services, start_finish
from workflow.session.simulation import finish_sitting_unplayed, generated_names

HB = format_for("huckley-buck")
BE = format_for("buck-euchre")


def test_the_strongest_sit_at_the_top_table() -> None:
    players = list(range(1, 14))  # strength = the player's number
    tables = seeded_split(players, fmt=HB, seed=1, strength={p: float(p) for p in players})
    # 13 players make tables of 5, 4 and 4 (docs/format.md).
    assert [sorted(t) for t in tables] == [[9, 10, 11, 12, 13], [5, 6, 7, 8], [1, 2, 3, 4]]


def test_balanced_tables_deal_the_players_out_and_back() -> None:
    players = list(range(1, 13))
    tables = seeded_split(
        players, fmt=HB, seed=1, strength={p: float(p) for p in players}, balanced=True
    )
    # 12, 11, 10 to tables 1, 2, 3; then 9, 8, 7 back from table 3; and so on.
    assert [sorted(t) for t in tables] == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_the_big_loser_still_goes_to_the_bottom_table_however_strong() -> None:
    players = list(range(1, 13))
    strength = {p: float(p) for p in players}
    for balanced in (False, True):
        tables = seeded_split(
            players, fmt=HB, seed=1, strength=strength, balanced=balanced, big_loser=12
        )
        assert 12 in tables[-1]
        assert sorted(p for t in tables for p in t) == players
    top = seeded_split(players, fmt=HB, seed=1, strength=strength, big_loser=12)
    assert sorted(top[0]) == [8, 9, 10, 11]
    assert sorted(top[-1]) == [1, 2, 3, 12]


def test_a_player_without_a_rating_counts_as_a_newcomer_at_zero() -> None:
    players = ["rated-high", "rated-low", "new-1", "new-2", "new-3", "new-4", "new-5", "new-6"]
    tables = seeded_split(players, fmt=BE, seed=3, strength={"rated-high": 4.0, "rated-low": -2.0})
    assert "rated-high" in tables[0]
    assert "rated-low" in tables[-1]


def test_equal_ratings_are_ordered_by_the_seed() -> None:
    players = list(range(16))
    same = dict.fromkeys(players, 1.0)
    draws = {
        tuple(map(tuple, seeded_split(players, fmt=BE, seed=s, strength=same))) for s in range(8)
    }
    assert len(draws) > 1
    again = seeded_split(players, fmt=BE, seed=5, strength=same)
    assert again == seeded_split(list(reversed(players)), fmt=BE, seed=5, strength=same)


@given(
    strengths=st.lists(st.floats(min_value=-20, max_value=60), min_size=4, max_size=40),
    seed=st.integers(min_value=1, max_value=2**31),
    balanced=st.booleans(),
    with_big_loser=st.booleans(),
)
def test_a_seeded_split_seats_everyone_once_in_the_random_splits_sizes(
    strengths: list[float], seed: int, balanced: bool, with_big_loser: bool
) -> None:
    players = list(range(len(strengths)))
    strength = dict(enumerate(strengths))
    big_loser = players[-1] if with_big_loser else None
    tables = seeded_split(
        players, fmt=HB, seed=seed, strength=strength, balanced=balanced, big_loser=big_loser
    )
    assert [len(t) for t in tables] == table_sizes(len(players), HB)
    assert [len(t) for t in tables] == [len(t) for t in split(players, fmt=HB, seed=seed)]
    assert sorted(p for t in tables for p in t) == players
    if big_loser is not None:
        assert big_loser in tables[-1]
    if not balanced:
        ranked = [[strength[p] for p in t if p != big_loser] for t in tables]
        for upper, lower in itertools.pairwise(ranked):
            if upper and lower:
                assert min(upper) >= max(lower)


# The session ---------------------------------------------------------------------------


@pytest.fixture
def new_session(club: Club, season: Season, director: Any) -> Callable[..., Session]:
    def make(seeding: str = "random", players: int = 12) -> Session:
        session = services.session_create(
            club=club,
            season=season,
            name="Seeded night",
            date=season.starts_on,
            rules_id="huckley-buck",
            games_per_sitting=2,
            new_names=generated_names(players),
            seed=11,
            seeding=seeding,
            user=director,
        )
        session.entries.update(checked_in=True)
        # Ratings as if from earlier nights: the players' names in order, strongest first.
        for rank, entry in enumerate(session.entries.order_by("player__name")):
            ordinal = 30.0 - 2 * rank
            Rating.objects.create(
                club=club,
                rules_id="huckley-buck",
                player=entry.player,
                mu=ordinal + 3,
                sigma=1.0,
                ordinal=ordinal,
                games=10,
            )
        return session

    return make


def table_names(session: Session) -> list[list[str]]:
    sitting = session.sittings.get(number=1)
    return [
        sorted(s.player.name for s in t.seatings.select_related("player"))
        for t in sitting.tables.order_by("rank")
    ]


def test_the_random_split_stays_the_default(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session()
    assert session.seeding == Session.Seeding.RANDOM
    start_finish.session_start(session_id=session.pk, user=director)
    ids = sorted(session.entries.values_list("player_id", flat=True))
    expected = split(ids, fmt=HB, seed=11)
    sitting = session.sittings.get(number=1)
    got = [
        list(t.seatings.order_by("seat").values_list("player_id", flat=True))
        for t in sitting.tables.order_by("rank")
    ]
    assert got == expected


def test_a_session_seeded_from_ratings_puts_the_strongest_at_the_top_table(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session("strongest_top")
    start_finish.session_start(session_id=session.pk, user=director)
    names = sorted(session.entries.values_list("player__name", flat=True))
    assert table_names(session) == [sorted(names[0:4]), sorted(names[4:8]), sorted(names[8:12])]


def test_a_balanced_session_gives_each_table_a_mix(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session("balanced")
    start_finish.session_start(session_id=session.pk, user=director)
    n = sorted(session.entries.values_list("player__name", flat=True))
    assert table_names(session) == [
        sorted([n[0], n[5], n[6], n[11]]),
        sorted([n[1], n[4], n[7], n[10]]),
        sorted([n[2], n[3], n[8], n[9]]),
    ]


def test_an_unknown_seeding_is_refused(club: Club, season: Season, director: Any) -> None:
    with pytest.raises(UserError) as refused:
        services.session_create(
            club=club,
            season=season,
            name="Night",
            date=season.starts_on,
            rules_id="huckley-buck",
            games_per_sitting=2,
            seeding="by-height",
            user=director,
        )
    assert refused.value.code == "unknown_seeding"
    assert not Session.objects.exists()


def test_the_seeding_cannot_change_once_the_session_started(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session("balanced")
    start_finish.session_start(session_id=session.pk, user=director)
    with pytest.raises(UserError) as refused:
        services.session_update_settings(
            session_id=session.pk,
            games_per_sitting=2,
            is_public=False,
            double_entry=False,
            seeding="random",
            user=director,
        )
    assert refused.value.code == "session_started"
    session.refresh_from_db()
    assert session.seeding == "balanced"


def test_the_director_picks_the_seeding_on_the_manage_page(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session()
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert "first sitting: random split" in page
    client.post(
        reverse("tournaments:settings", args=[session.pk]),
        {"games_per_sitting": "2", "seeding": "strongest_top"},
    )
    session.refresh_from_db()
    assert session.seeding == "strongest_top"
    page = client.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert "from the players' Huckley Buck (IHBA) ratings" in page


def test_a_non_director_cannot_change_the_seeding(new_session: Callable[..., Session]) -> None:
    session = new_session()
    outsider = Client()
    outsider.force_login(UserFactory(username="not-a-director"))
    for client in (Client(), outsider):
        response = client.post(
            reverse("tournaments:settings", args=[session.pk]),
            {"games_per_sitting": "2", "seeding": "balanced"},
        )
        assert response.status_code in (302, 403)
    session.refresh_from_db()
    assert session.seeding == "random"


def test_the_movement_preview_says_how_the_first_sitting_was_seated(
    new_session: Callable[..., Session], director: Any
) -> None:
    import random

    session = new_session("strongest_top")
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    finish_sitting_unplayed(sitting, random.Random(1))
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:movement", args=[session.pk])).content.decode()
    assert "seated by from ratings: the strongest at the top table" in page


# The API -------------------------------------------------------------------------------


def _api(user: Any = None) -> Any:
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_creates_a_seeded_session_and_changes_it_until_the_start(
    club: Club, season: Season, director: Any
) -> None:
    created = _api(director).post(
        f"/api/clubs/{club.slug}/sessions/",
        {
            "name": "Seeded",
            "date": str(season.starts_on),
            "season": season.pk,
            "new_names": generated_names(8),
            "seeding": "balanced",
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["seeding"] == "balanced"
    session = Session.objects.get(pk=created.json()["id"])
    changed = _api(director).patch(
        f"/api/sessions/{session.pk}/", {"seeding": "strongest_top"}, format="json"
    )
    assert changed.status_code == 200
    session.refresh_from_db()
    assert session.seeding == "strongest_top"
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    refused = _api(director).patch(
        f"/api/sessions/{session.pk}/", {"seeding": "random"}, format="json"
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "session_started"
    session.refresh_from_db()
    assert session.seeding == "strongest_top"


def test_the_api_refuses_a_seeding_change_by_a_non_director(
    new_session: Callable[..., Session],
) -> None:
    session = new_session()
    for client, status in ((_api(), 401), (_api(UserFactory(username="nobody")), 403)):
        response = client.patch(
            f"/api/sessions/{session.pk}/", {"seeding": "balanced"}, format="json"
        )
        assert response.status_code in (status, 404)
    session.refresh_from_db()
    assert session.seeding == "random"


def test_a_rating_from_the_roster_import_seeds_a_player_with_no_games(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session("strongest_top")
    weakest = session.entries.order_by("player__name").last()
    assert weakest is not None
    # No games yet under these rules, and a strong rating from the club's spreadsheet.
    Rating.objects.filter(player=weakest.player).delete()
    weakest.player.seed_rating = 99.0
    weakest.player.save()

    start_finish.session_start(session_id=session.pk, user=director)

    assert weakest.player.name in table_names(session)[0]


def test_a_rating_earned_in_games_counts_before_the_imported_one(
    new_session: Callable[..., Session], director: Any
) -> None:
    session = new_session("strongest_top")
    weakest = session.entries.order_by("player__name").last()
    assert weakest is not None
    weakest.player.seed_rating = 99.0
    weakest.player.save()

    start_finish.session_start(session_id=session.pk, user=director)

    assert weakest.player.name in table_names(session)[-1]
