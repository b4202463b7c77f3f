"""Every director write of the pages, scorer links and table cards included, refused to
each role that may not make it, with every table of the project unchanged. Anonymous visitors and
signed-in strangers are in `test_pages.py`; these are the roles closer to the session:
a director of another club, a player of the session, and a table's scorer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tests.scoring.helpers import link_client, signed_in
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import Player, Session

pytestmark = pytest.mark.django_db


def director_writes(session: Session) -> list[tuple[str, str, dict[str, Any]]]:
    entry = session.entries.first()
    assert entry is not None
    table = session.sittings.get().tables.get(rank=1)
    pk = session.pk

    def url(name: str, *args: object) -> str:
        return reverse(f"tournaments:{name}", args=args)

    new_session = {
        "name": "X",
        "date": "2026-01-02",
        "season": session.season_id,
        "rules_id": "huckley-buck",
        "games_per_sitting": 2,
        "new_names": "A\nB\nC",
    }
    return [
        ("new session", url("session_new", session.club.slug), new_session),
        ("check in", url("check_in", pk), {"player": entry.player_id, "checked_in": "0"}),
        ("check in all", url("check_in_all", pk), {}),
        ("start", url("start", pk), {}),
        ("settings", url("settings", pk), {"games_per_sitting": 3, "is_public": "on"}),
        ("add players", url("add_players", pk), {"new_names": "Zed"}),
        ("withdraw", url("withdraw", pk, entry.player_id), {}),
        ("movement", url("movement", pk), {"sitting": 1}),
        ("undo movement", url("movement_undo", pk), {}),
        ("rebalance", url("rebalance", pk), {"proposal": ""}),
        ("finish", url("finish", pk), {"early": "1"}),
        ("big loser", url("big_loser", session.season_id), {"player": entry.player_id}),
        ("new scorer link", url("scorer_links", table.pk), {"action": "new"}),
        ("revoke scorer links", url("scorer_links", table.pk), {"action": "revoke"}),
        ("replace a table card", url("table_card_replace", pk, 1), {}),
        (
            "rotate the club cards",
            url("club_cards", session.club.slug),
            {"count": 4, "confirmed": 1},
        ),
    ]


def director_elsewhere(session: Session, director: Any) -> Client:
    user = UserFactory.create(username="runs-another-club")
    ClubFactory.create().directors.add(user)
    return signed_in(user)


def player_of_the_session(session: Session, director: Any) -> Client:
    user = UserFactory.create(username="plays-tonight")
    entry = session.entries.first()
    assert entry is not None
    Player.objects.filter(pk=entry.player_id).update(user=user)
    return signed_in(user)


def scorer_of_the_top_table(session: Session, director: Any) -> Client:
    return link_client(session.sittings.get().tables.get(rank=1).pk, director)


ROLES: dict[str, Callable[[Session, Any], Client]] = {
    "director of another club": director_elsewhere,
    "player of the session": player_of_the_session,
    "scorer of a table": scorer_of_the_top_table,
}


@pytest.mark.parametrize("role", ROLES.values(), ids=ROLES.keys())
def test_no_director_write_is_open_to_a_role_that_does_not_direct_the_club(
    make_session: Callable[..., Session], director: Any, role: Callable[[Session, Any], Client]
) -> None:
    session = make_session(8)
    # A live link on the table, so that revoking it would show.
    link_client(session.sittings.get().tables.get(rank=1).pk, director)
    client = role(session, director)
    for label, url, data in director_writes(session):
        before = db_snapshot()
        response = client.post(url, data)
        if response.status_code == 302:  # a scorer has no account: sent to sign in
            assert response["Location"].startswith(reverse("login")), label
        else:
            assert response.status_code == 403, (label, response.status_code)
        assert changed_tables(before) == [], label


def test_the_director_of_the_club_may_make_the_scorer_link_writes(
    make_session: Callable[..., Session], director: Any
) -> None:
    """The refusals above must not be the only answer: the director gets through."""
    session = make_session(8)
    table = session.sittings.get().tables.get(rank=1)
    client = signed_in(director)
    url = reverse("tournaments:scorer_links", args=[table.pk])
    before = db_snapshot()
    assert client.post(url, {"action": "new"}).status_code == 302
    assert changed_tables(before) == ["tournaments.AuditEntry", "tournaments.ScorerLink"]
    assert client.post(url, {"action": "revoke"}).status_code == 302
    assert not table.scorer_links.filter(revoked_at__isnull=True).exists()
