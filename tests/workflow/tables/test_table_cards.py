"""Table cards (docs/tournament.md, "Table cards"): a session's card opens the game now
played at its table number through every movement; replacing one stops it at once; a
club's cards open the running session's table and rotate in one action; a card lets its
holder do no more than a scorer link; only directors manage cards."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from scoring.models import Game, PendingRound, Round
from tests.factories import ClubFactory, TableCardFactory, UserFactory
from tests.snapshots import changed_tables, db_snapshot
from tests.tournaments.test_roles import first_round, signed_in
from tournaments.models import ClubTableCard, ScorerLink, Session, Table, TableCard
from web.views import cards as cards_view
from workflow.session import movements, start_finish
from workflow.session.simulation import finish_sitting_unplayed as fake_results
from workflow.tables import card_selectors
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def card_url(session: Session, number: int) -> str:
    return card_selectors.table_cards(session)[number - 1].url


def game_at(session: Session, sitting: int, rank: int) -> Game:
    return Game.objects.get(
        table__sitting__session=session, table__sitting__number=sitting, table__rank=rank, number=1
    )


def move_on(session: Session, director: Any) -> None:
    sitting = session.sittings.order_by("-number").first()
    assert sitting is not None
    fake_results(sitting, random.Random(sitting.number))
    movements.sitting_move_players(
        session_id=session.pk, sitting_number=sitting.number, user=director
    )


def refused(code: str, call: Callable[[], object]) -> None:
    before = db_snapshot()
    with pytest.raises(UserError) as caught:
        call()
    assert caught.value.code == code
    assert changed_tables(before) == []


@pytest.fixture
def running(make_session: Callable[..., Session]) -> Session:
    """8 players: two tables of four."""
    return make_session(8)


# A session's cards -----------------------------------------------------------------------


def test_the_start_makes_one_card_per_table_with_a_short_link(running: Session) -> None:
    cards = card_selectors.table_cards(running)
    assert [c.number for c in cards] == [1, 2]
    assert all(c.url == f"/t/{c.token}/" and len(c.url) <= 16 for c in cards)
    assert {c.rules_name for c in cards} == {"Huckley Buck (IHBA)"}


def test_a_card_opens_the_game_now_played_at_its_table_through_the_movements(
    running: Session, director: Any
) -> None:
    scorer = Client()
    url = card_url(running, 1)
    for sitting in (1, 2, 3):
        game = game_at(running, sitting, 1)
        response = scorer.get(url)
        assert response.url == reverse("scoring:table", args=[game.table_id]), sitting
        entered = scorer.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
        assert entered.status_code == 302, sitting
        assert Round.objects.filter(game=game).count() == 1
        move_on(running, director)
    # The card is the same card all night: nothing was reissued.
    assert card_url(running, 1) == url
    assert TableCard.objects.filter(session=running).count() == 2


def test_a_card_scores_only_its_own_table_and_directs_nothing(
    running: Session, director: Any
) -> None:
    scorer = Client()
    scorer.get(card_url(running, 1))
    other = game_at(running, 1, 2)
    before = db_snapshot()
    response = scorer.post(reverse("scoring:round_enter", args=[other.pk]), first_round(other))
    assert response.status_code == 403
    for page in ("manage", "session_cards"):
        assert scorer.get(reverse(f"tournaments:{page}", args=[running.pk])).status_code == 302
    assert changed_tables(before) == []


def test_after_the_movement_the_old_tables_page_no_longer_takes_rounds(
    running: Session, director: Any
) -> None:
    scorer = Client()
    scorer.get(card_url(running, 1))
    old = game_at(running, 1, 1)
    move_on(running, director)
    before = Round.objects.count()
    response = scorer.post(reverse("scoring:round_enter", args=[old.pk]), first_round(old))
    assert response.status_code in (403, 400)
    assert Round.objects.count() == before


def test_two_phones_on_one_card_are_two_people_for_double_entry(
    make_session: Callable[..., Session],
) -> None:
    session = make_session(8, double_entry=True)
    game = game_at(session, 1, 1)
    first, second = Client(), Client()
    for phone in (first, second):
        phone.get(card_url(session, 1))
    data = first_round(game)
    first.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert PendingRound.objects.filter(game=game).count() == 1
    assert not Round.objects.filter(game=game).exists()
    # The same phone again is still one person.
    first.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert not Round.objects.filter(game=game).exists()
    second.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert Round.objects.filter(game=game).count() == 1
    # Both phones shared the card's one link for this table.
    assert ScorerLink.objects.filter(card__session=session).count() == 1


def test_a_replaced_card_says_so_and_stops_scoring(running: Session, director: Any) -> None:
    old_url = card_url(running, 1)
    holder = Client()
    holder.get(old_url)
    new = table_links.table_card_replace(session_id=running.pk, number=1, user=director)
    page = Client().get(old_url)
    assert page.status_code == 410
    text = page.content.decode()
    assert "This card was replaced" in text
    assert "Replaced " in text
    assert "Ask the director" in text
    game = game_at(running, 1, 1)
    response = holder.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
    assert response.status_code == 403
    assert not Round.objects.filter(game=game).exists()
    assert card_url(running, 1) == f"/t/{new.token}/"
    assert Client().get(card_url(running, 1)).status_code == 302
    # The other table's card is untouched.
    assert TableCard.objects.filter(session=running, replaced_at__isnull=True).count() == 2


def test_replacing_a_card_is_refused_for_no_such_table_or_a_finished_session(
    running: Session, director: Any
) -> None:
    refused(
        "no_such_card",
        lambda: table_links.table_card_replace(session_id=running.pk, number=3, user=director),
    )
    start_finish.session_finish(session_id=running.pk, early=True, user=director)
    refused(
        "session_over",
        lambda: table_links.table_card_replace(session_id=running.pk, number=1, user=director),
    )


def test_a_card_with_no_table_in_this_sitting_or_a_finished_session_says_so(
    running: Session, director: Any
) -> None:
    spare = TableCardFactory(session=running, number=3)
    page = Client().get(reverse("tournaments:table_card", args=[spare.token]))
    assert page.status_code == 200
    assert "Nobody plays at table 3 in this sitting" in page.content.decode()
    start_finish.session_finish(session_id=running.pk, early=True, user=director)
    page = Client().get(card_url(running, 1))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Club night is finished" in text
    assert reverse("tournaments:standings", args=[running.pk]) in text
    assert Client().get("/t/not-a-card/").status_code == 404


def test_a_rebalance_that_adds_a_table_gives_it_a_card(running: Session, director: Any) -> None:
    assert table_links.table_cards_ensure(session=running) == 0
    sitting = running.sittings.get()
    Table.objects.create(sitting=sitting, rank=3)
    assert table_links.table_cards_ensure(session=running) == 1
    assert [c.number for c in card_selectors.table_cards(running)] == [1, 2, 3]


def test_revoking_the_tables_scorer_links_leaves_its_card_working(
    running: Session, director: Any
) -> None:
    holder = Client()
    holder.get(card_url(running, 1))
    game = game_at(running, 1, 1)
    table_links.scorer_link_revoke(table_id=game.table_id, user=director)
    response = holder.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
    assert response.status_code == 302
    assert Round.objects.filter(game=game).count() == 1


# The club's cards ------------------------------------------------------------------------


def club_card_url(session: Session, number: int) -> str:
    return card_selectors.club_table_cards(session.club)[number - 1].url


def test_a_club_card_opens_the_running_sessions_table(
    make_session: Callable[..., Session], director: Any
) -> None:
    waiting = make_session(8, start=False)
    table_links.club_cards_issue(club_id=waiting.club_id, count=3, user=director)
    url = club_card_url(waiting, 2)
    page = Client().get(url)
    assert "No session of Tuesday Club is running now" in page.content.decode()
    start_finish.session_start(session_id=waiting.pk, user=director)
    scorer = Client()
    response = scorer.get(url)
    game = game_at(waiting, 1, 2)
    assert response.url == reverse("scoring:table", args=[game.table_id])
    entered = scorer.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
    assert entered.status_code == 302
    # Card 3: the session has two tables.
    assert "Nobody plays at table 3" in Client().get(club_card_url(waiting, 3)).content.decode()


def test_a_club_card_asks_which_session_when_two_run(
    make_session: Callable[..., Session], director: Any
) -> None:
    first = make_session(8)
    second = make_session(8, seed=9)
    table_links.club_cards_issue(club_id=first.club_id, count=2, user=director)
    url = club_card_url(first, 1)
    page = Client().get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "2 sessions of Tuesday Club are running now" in text
    assert f"?session={first.pk}" in text
    assert f"?session={second.pk}" in text
    phone = Client()
    chosen = phone.get(f"{url}?session={second.pk}")
    assert chosen.url == reverse("scoring:table", args=[game_at(second, 1, 1).table_id])
    # The phone remembers its choice: the next scan (after the movement) goes straight on.
    move_on(second, director)
    again = phone.get(url)
    assert again.url == reverse("scoring:table", args=[game_at(second, 2, 1).table_id])
    # A session that is not one of the club's running ones is asked again, not opened.
    stranger = make_session(8, seed=5, start=False)
    assert Client().get(f"{url}?session={stranger.pk}").status_code == 200
    assert Client().get(f"{url}?session=nonsense").status_code == 200


def test_rotating_the_club_cards_replaces_every_one_at_once(
    running: Session, director: Any
) -> None:
    table_links.club_cards_issue(club_id=running.club_id, count=2, user=director)
    old = [club_card_url(running, 1), club_card_url(running, 2)]
    holder = Client()
    holder.get(old[0])
    cards = table_links.club_cards_issue(club_id=running.club_id, count=3, user=director)
    assert [c.number for c in cards] == [1, 2, 3]
    for url in old:
        page = Client().get(url)
        assert page.status_code == 410
        assert "cards were replaced; this card for table" in page.content.decode()
    game = game_at(running, 1, 1)
    response = holder.post(reverse("scoring:round_enter", args=[game.pk]), first_round(game))
    assert response.status_code == 403
    assert ClubTableCard.objects.filter(replaced_at__isnull=True).count() == 3


@pytest.mark.parametrize("count", [0, table_links.CLUB_CARDS_MAX + 1])
def test_a_club_card_count_out_of_range_is_refused(
    count: int, running: Session, director: Any
) -> None:
    refused(
        "card_count",
        lambda: table_links.club_cards_issue(club_id=running.club_id, count=count, user=director),
    )


# The director's pages --------------------------------------------------------------------


def test_the_director_sees_and_replaces_a_card_after_confirming(
    running: Session, director: Any, django_assert_max_num_queries: Any
) -> None:
    page = signed_in(director)
    with django_assert_max_num_queries(12):
        cards = page.get(reverse("tournaments:session_cards", args=[running.pk]))
    text = cards.content.decode()
    assert text.count("<svg") == 2
    assert card_url(running, 2) in text
    manage = page.get(reverse("tournaments:manage", args=[running.pk])).content.decode()
    assert card_url(running, 1) in manage
    url = reverse("tournaments:table_card_replace", args=[running.pk, 1])
    confirm = page.get(url)
    assert "Replace the card of table 1?" in confirm.content.decode()
    assert TableCard.objects.filter(replaced_at__isnull=False).count() == 0
    done = page.post(url, follow=True)
    assert "Table 1 has a new card" in done.content.decode()
    assert TableCard.objects.filter(replaced_at__isnull=False).count() == 1
    refused_page = page.post(reverse("tournaments:table_card_replace", args=[running.pk, 7]))
    assert refused_page.status_code == 302
    assert TableCard.objects.filter(replaced_at__isnull=False).count() == 1


def test_the_director_issues_and_rotates_the_club_cards_after_confirming(
    running: Session, director: Any, django_assert_max_num_queries: Any
) -> None:
    page = signed_in(director)
    url = reverse("tournaments:club_cards", args=[running.club.slug])
    with django_assert_max_num_queries(10):
        assert "no table cards yet" in page.get(url).content.decode()
    asked = page.post(url, {"count": "1"})
    assert "Issue 1 card?" in asked.content.decode()
    assert not ClubTableCard.objects.exists()
    done = page.post(url, {"count": "1", "confirmed": "1"}, follow=True)
    assert "The club has 1 new table card;" in done.content.decode()
    asked = page.post(url, {"count": "4"})
    assert "Replace the 1 card in use with 4 new ones?" in asked.content.decode()
    page.post(url, {"count": "4", "confirmed": "1"})
    assert ClubTableCard.objects.filter(replaced_at__isnull=True).count() == 4
    bad = page.post(url, {"count": "99", "confirmed": "1"}, follow=True)
    assert "from 1 to 60 table cards" in bad.content.decode()
    assert ClubTableCard.objects.filter(replaced_at__isnull=True).count() == 4


def test_only_directors_of_the_club_manage_its_cards(running: Session, director: Any) -> None:
    other = UserFactory(username="other-director")
    ClubFactory().directors.add(other)
    holder = Client()
    holder.get(card_url(running, 1))
    refused_roles = {
        "signed-in stranger": signed_in(UserFactory(username="stranger")),
        "director of another club": signed_in(other),
        "card holder": holder,
        "anonymous": Client(),
    }
    writes = [
        (reverse("tournaments:table_card_replace", args=[running.pk, 1]), {}),
        (
            reverse("tournaments:club_cards", args=[running.club.slug]),
            {"count": "3", "confirmed": "1"},
        ),
    ]
    reads = [
        reverse("tournaments:session_cards", args=[running.pk]),
        reverse("tournaments:club_cards", args=[running.club.slug]),
    ]
    for role, client in refused_roles.items():
        signed = role in ("signed-in stranger", "director of another club")
        for url, body in writes:
            before = db_snapshot()
            response = client.post(url, body)
            assert response.status_code == (403 if signed else 302), (role, url)
            assert changed_tables(before) == [], role
        for url in reads:
            assert client.get(url).status_code == (403 if signed else 302), (role, url)


def test_the_migration_gives_a_session_already_running_its_cards(
    running: Session, make_session: Callable[..., Session]
) -> None:
    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0009_table_cards")
    waiting = make_session(8, start=False, seed=3)
    TableCard.objects.all().delete()
    migration.cards_for_running_sessions(apps, None)
    assert [c.number for c in card_selectors.table_cards(running)] == [1, 2]
    assert card_selectors.table_cards(waiting) == []


def test_opening_a_card_takes_a_fixed_number_of_queries(
    make_session: Callable[..., Session], director: Any, django_assert_max_num_queries: Any
) -> None:
    session = make_session(13)
    table_links.club_cards_issue(club_id=session.club_id, count=5, user=director)
    for url, limit in [
        # The first time, the card's link for the table is made; each open also saves the
        # browser's session (the link's token) and a message.
        (card_url(session, 3), 11),
        (card_url(session, 3), 10),
        (club_card_url(session, 2), 12),
        (club_card_url(session, 5), 5),  # no table 5: a plain page
    ]:
        with django_assert_max_num_queries(limit):
            response = Client().get(url)
        assert response.status_code in (200, 302), url


def test_a_big_sessions_cards_are_shown_a_page_at_a_time_and_not_listed_on_its_manage_page(
    make_session: Callable[..., Session], director: Any, django_assert_max_num_queries: Any
) -> None:
    big = make_session(128)  # 32 tables: more than the manage page lists
    page = signed_in(director)
    manage = page.get(reverse("tournaments:manage", args=[big.pk])).content.decode()
    assert "32 cards, one per table" in manage
    assert card_url(big, 1) not in manage
    url = reverse("tournaments:session_cards", args=[big.pk])
    with django_assert_max_num_queries(12):
        first = page.get(url).content.decode()
    assert first.count("<svg") == cards_view.CARDS_PER_PAGE
    assert card_url(big, 1) in first
    assert card_url(big, 25) not in first
    assert "Tables 1\N{EN DASH}24 of 32" in first
    second = page.get(url, {"page": "2"}).content.decode()
    assert second.count("<svg") == 32 - cards_view.CARDS_PER_PAGE
    assert card_url(big, 25) in second
    assert card_url(big, 32) in second
    assert "Replace the card of table 32…" in second
    # Any other page value is shown as Django's get_page shows it: never an error.
    for asked, shown in (("x", 1), ("", 1), ("0", 2), ("99", 2), ("9" * 500, 2)):
        answer = page.get(url, {"page": asked})
        assert answer.status_code == 200, asked
        assert f"Tables {1 if shown == 1 else 25}\N{EN DASH}" in answer.content.decode(), asked
