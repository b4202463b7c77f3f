"""Calling the director on the pages: the form on a table's score sheet (a scorer link's
or a table card's), the director's live list on the session's page, "Handled" and
"Reopen"; and who may not."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.models import DirectorCall, Session, Table, TableCard
from tournaments.permissions import SYSTEM
from workflow.front import calls
from workflow.session import movements, start_finish
from workflow.session.simulation import finish_sitting_unplayed
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_session: Any) -> Session:
    return make_session(8)


@pytest.fixture
def top(running: Session) -> Table:
    return Table.objects.get(sitting__session=running, rank=1)


def scorer(table: Table, director: Any) -> Client:
    link = table_links.scorer_link_create(table_id=table.pk, user=director)
    client = Client()
    assert client.get(reverse("tournaments:scorer_open", args=[link.token])).status_code == 302
    return client


def card_holder(table: Table) -> Client:
    card = TableCard.objects.get(session=table.sitting.session, number=table.rank)
    client = Client()
    assert client.get(reverse("tournaments:table_card", args=[card.token])).status_code == 302
    return client


def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def call_url(table: Table) -> str:
    return reverse("scoring:table_call", args=[table.pk])


def test_the_score_sheet_offers_the_call_and_confirms_what_was_sent(
    top: Table, director: Any
) -> None:
    client = scorer(top, director)
    sheet = client.get(reverse("scoring:table", args=[top.pk])).content.decode()
    assert "Call the director" in sheet
    assert 'name="reason"' in sheet
    response = client.post(
        call_url(top), {"reason": "misdeal", "text": "Dealt 6 cards"}, follow=True
    )
    page = response.content.decode()
    assert "The director is called to table 1: a misdeal “Dealt 6 cards”" in page
    assert "The director has been called" in page  # instead of the form, while it is open
    assert 'name="reason"' not in page
    call = DirectorCall.objects.get()
    assert call.scorer_link is not None
    assert call.scorer_link.card is None
    assert call.called_by is None


def test_a_table_card_calls_the_director_and_the_call_says_it_came_by_the_card(
    top: Table, director: Any
) -> None:
    client = card_holder(top)
    client.post(call_url(top), {"reason": "question"})
    row = calls.session_calls(top.sitting.session_id)[0]
    assert row.who == "the card of table 1"


def test_a_second_call_from_the_table_is_refused_in_plain_words(top: Table, director: Any) -> None:
    client = scorer(top, director)
    client.post(call_url(top), {"reason": "dispute"})
    response = client.post(call_url(top), {"reason": "renege"}, follow=True)
    assert "already been called to this table (a dispute" in response.content.decode()
    assert DirectorCall.objects.count() == 1


def test_other_needs_a_text_and_nothing_is_kept_without_it(top: Table, director: Any) -> None:
    response = scorer(top, director).post(call_url(top), {"reason": "other"}, follow=True)
    assert "Say in a few words" in response.content.decode()
    assert not DirectorCall.objects.exists()


def test_who_may_not_call_from_the_page(top: Table, running: Session, director: Any) -> None:
    other_table = Table.objects.get(sitting__session=running, rank=2)
    stranger = Client()
    stranger.force_login(UserFactory(username="stranger"))
    other_director = UserFactory(username="other-director")
    ClubFactory().directors.add(other_director)
    for client in [
        Client(),
        stranger,
        director_client(other_director),
        scorer(other_table, director),
    ]:
        assert client.post(call_url(top), {"reason": "dispute"}).status_code == 403
    assert not DirectorCall.objects.exists()
    # Nor does anyone but a scorer see the form.
    sheet = Client().get(reverse("scoring:table", args=[top.pk])).content.decode()
    assert 'name="reason"' not in sheet


def test_no_call_once_the_sitting_moved_on_or_the_session_finished(
    top: Table, running: Session, director: Any
) -> None:
    client = director_client(director)
    finish_sitting_unplayed(running.sittings.get(), random.Random(3))
    movements.sitting_move_players(session_id=running.pk, sitting_number=1, user=SYSTEM)
    sheet = client.get(reverse("scoring:table", args=[top.pk])).content.decode()
    assert 'name="reason"' not in sheet
    response = client.post(call_url(top), {"reason": "dispute"}, follow=True)
    assert "sitting has moved on" in response.content.decode()
    start_finish.session_finish(session_id=running.pk, early=True, user=director)
    new_top = Table.objects.get(sitting__session=running, sitting__number=2, rank=1)
    response = client.post(call_url(new_top), {"reason": "dispute"}, follow=True)
    assert "The session is finished" in response.content.decode()
    assert not DirectorCall.objects.exists()


def test_the_director_sees_the_call_live_and_marks_it_handled(
    top: Table, running: Session, director: Any
) -> None:
    client = director_client(director)
    manage = reverse("tournaments:manage", args=[running.pk])
    live = reverse("tournaments:session_calls_live", args=[running.pk])
    assert "No open call." in client.get(manage).content.decode()
    first = client.get(live)
    etag = first["ETag"]
    assert client.get(live, HTTP_IF_NONE_MATCH=etag).status_code == 304

    scorer(top, director).post(call_url(top), {"reason": "renege", "text": "Hearts"})
    fresh = client.get(live, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    html = fresh.content.decode()
    call = DirectorCall.objects.get()
    assert f'data-open="{call.pk} "' in html
    assert "Table 1" in html
    assert "A renege" in html
    assert "“Hearts”" in html
    for name in top.seatings.values_list("player__name", flat=True):
        assert name in html
    assert "(UTC)" in html or f"({running.club.time_zone})" in html

    response = client.post(reverse("tournaments:call_handled", args=[call.pk]), follow=True)
    page = response.content.decode()
    assert "The call from table 1 is handled." in page
    assert "No open call." in page
    assert "Handled calls (1)" in page
    call.refresh_from_db()
    assert call.handled_by == director

    client.post(reverse("tournaments:call_reopen", args=[call.pk]))
    call.refresh_from_db()
    assert call.handled_at is None


def test_the_calls_are_shown_in_the_clubs_time_zone(
    top: Table, running: Session, director: Any
) -> None:
    running.club.time_zone = "America/Chicago"
    running.club.save()
    calls.director_call_make(table_id=top.pk, reason="question", text="", user=SYSTEM)
    html = director_client(director).get(reverse("tournaments:manage", args=[running.pk]))
    assert "(America/Chicago)" in html.content.decode()


def test_who_may_not_see_or_handle_the_calls(top: Table, running: Session, director: Any) -> None:
    call = calls.director_call_make(table_id=top.pk, reason="question", text="", user=SYSTEM)
    other_director = UserFactory(username="other-director")
    ClubFactory().directors.add(other_director)
    live = reverse("tournaments:session_calls_live", args=[running.pk])
    for client in [director_client(other_director), scorer(top, director)]:
        assert client.get(live).status_code in (302, 403)
        assert client.post(reverse("tournaments:call_handled", args=[call.pk])).status_code in (
            302,
            403,
        )
    # A scorer has no account: sent to sign in; a director of another club: 403.
    assert director_client(other_director).get(live).status_code == 403
    assert scorer(top, director).get(live).status_code == 302
    call.refresh_from_db()
    assert call.handled_at is None


@pytest.mark.parametrize("count", [1, 2])
def test_the_directors_poll_costs_a_fixed_number_of_queries_however_many_calls(
    make_session: Any, director: Any, count: int, django_assert_max_num_queries: Any
) -> None:
    session = make_session(8 * count)
    for table in Table.objects.filter(sitting__session=session):
        call = calls.director_call_make(table_id=table.pk, reason="dispute", text="", user=SYSTEM)
        if table.rank % 2:
            calls.director_call_handle(call_id=call.pk, user=SYSTEM)
    client = director_client(director)
    live = reverse("tournaments:session_calls_live", args=[session.pk])
    client.get(live)  # the sign-in's first reads
    # The browser's session and its user, the clubs they direct; the session, once for
    # the ETag and once for the page; the calls; their players.
    with django_assert_max_num_queries(7):
        first = client.get(live)
    assert first.status_code == 200
    assert first.content.decode().count("call-open") == 2 * count - count
    # Unchanged: the browser's session, its user, the clubs, the session's versions.
    with django_assert_max_num_queries(4):
        assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_scorer_page_left_open_past_the_movement_is_told_plainly(
    top: Table, running: Session, director: Any
) -> None:
    client = scorer(top, director)
    finish_sitting_unplayed(running.sittings.get(), random.Random(3))
    movements.sitting_move_players(session_id=running.pk, sitting_number=1, user=SYSTEM)
    response = client.post(call_url(top), {"reason": "dispute"}, follow=True)
    assert response.status_code == 200
    assert "scorer link no longer opens it" in response.content.decode()
    assert not DirectorCall.objects.exists()
