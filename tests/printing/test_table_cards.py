"""Table cards on paper: every QR code read back off the rendered page opens its table's
game now, after two movements as on the first sitting; a table that plays online says so;
only a director prints them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from play import services as play_services
from printing import sheets
from scoring.models import Game
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Club, Seating, Session
from workflow.session import movements, selectors
from workflow.session.simulation import play_sitting
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db


def cards_url(session: Session, query: str = "") -> str:
    return f"/api/sessions/{session.pk}/print/table-cards.pdf{query}"


def opens(url: str) -> str:
    """Where a card's link leads a phone with no account: the page it is sent to."""
    parts = urlsplit(url)
    assert parts.scheme == "http"
    assert parts.netloc == "testserver"
    response = Client().get(parts.path)
    assert response.status_code == 302, response.content[:300]
    return str(response["Location"])


def table_now(session: Session, rank: int) -> Any:
    return selectors.require_current_sitting(session).tables.get(rank=rank)


def test_every_cards_qr_code_opens_its_tables_game_after_two_movements(
    make_session: Callable[..., Session],
    director: Any,
    api_as: Callable[..., Any],
    qr_codes: Callable[[bytes], list[list[str]]],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = make_session(12)
    response = api_as(director).get(cards_url(session))
    assert response.status_code == 200
    content = bytes(response.content)
    pages = qr_codes(content)
    texts = pdf_text(content)
    # One card per table, one QR code per card, its link also written out for a phone
    # with no camera, with the rules played.
    assert len(pages) == len(texts) == 3
    urls = []
    for number, (codes, text) in enumerate(zip(pages, texts, strict=True), start=1):
        assert len(codes) == 1
        urls.append(codes[0])
        assert f"Table {number} {number} " in text
        assert codes[0] in text
        assert "Huckley Buck" in text
    assert len(set(urls)) == 3
    for sitting_number in (1, 2, 3):
        sitting = selectors.require_current_sitting(session)
        assert sitting.number == sitting_number
        for rank, url in enumerate(urls, start=1):
            table = table_now(session, rank)
            assert opens(url) == reverse("scoring:table", args=[table.pk])
            # The page it opens is that table's game now, with who sits there now.
            page = Client()
            page.get(urlsplit(url).path)
            html = page.get(reverse("scoring:table", args=[table.pk])).content.decode()
            game = Game.objects.filter(table=table).order_by("-number").first()
            assert game is not None
            assert f"<h2>Game {game.number}" in html
            for name in Seating.objects.filter(table=table).values_list("player__name", flat=True):
                assert name in html
        if sitting_number < 3:
            play_sitting(sitting, seed=sitting_number, user=director)
            movements.sitting_move_players(
                session_id=session.pk, sitting_number=sitting_number, user=director
            )
    # The movement moved people: the cards did not need to change for it.
    assert session.sittings.count() == 3


def test_the_card_of_a_table_that_plays_online_says_so(
    make_session: Callable[..., Session],
    director: Any,
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = make_session(12)  # three tables of four
    online = table_now(session, 2)
    play_services.table_online_set(table_id=online.pk, online=True, user=director)
    said = "This table plays online: play on your phone, from your own seat link."
    texts = pdf_text(bytes(api_as(director).get(cards_url(session)).content))
    assert [said in text for text in texts] == [n == online.number for n in (1, 2, 3)]
    assert [f"Table {n} · online" in text for n, text in enumerate(texts, 1)] == [
        n == online.number for n in (1, 2, 3)
    ]
    cards = sheets.table_cards(session, lambda path: path)
    assert [(c.number, c.online) for c in cards] == [(1, False), (2, True), (3, False)]


def test_a_replaced_card_prints_anew_and_the_old_paper_says_it_was_replaced(
    make_session: Callable[..., Session],
    director: Any,
    api_as: Callable[..., Any],
    qr_codes: Callable[[bytes], list[list[str]]],
) -> None:
    session = make_session(8)
    before = [codes[0] for codes in qr_codes(api_as(director).get(cards_url(session)).content)]
    table_links.table_card_replace(session_id=session.pk, number=2, user=director)
    after = [codes[0] for codes in qr_codes(api_as(director).get(cards_url(session)).content)]
    assert after[0] == before[0]
    assert after[1] != before[1]
    assert opens(after[1]) == reverse("scoring:table", args=[table_now(session, 2).pk])
    old = Client().get(urlsplit(before[1]).path)
    assert old.status_code == 410
    assert "This card was replaced" in old.content.decode()


def test_letter_paper_for_table_cards(
    make_session: Callable[..., Session],
    director: Any,
    api_as: Callable[..., Any],
    page_sizes: Callable[[bytes], list[tuple[int, int]]],
) -> None:
    session = make_session(8)
    content = api_as(director).get(cards_url(session, "?paper=letter")).content
    assert page_sizes(content) == [(612, 792), (612, 792)]


def test_only_a_director_prints_table_cards(
    make_session: Callable[..., Session], director: Any, api_as: Callable[..., Any]
) -> None:
    session = make_session(8)
    assert api_as().get(cards_url(session)).status_code == 401
    other_director = UserFactory()
    ClubFactory().directors.add(other_director)
    player = session.entries.first().player
    player.user = UserFactory()
    player.save()
    for who in (UserFactory(), other_director, player.user):
        response = api_as(who).get(cards_url(session))
        assert response.status_code == 403
        assert response.json()["code"] == "not_director"
    # A scorer of one of its tables holds one table's link, not the others'.
    link = table_links.scorer_link_create(table_id=table_now(session, 1).pk, user=director)
    scorer = api_as()
    scorer.credentials(HTTP_X_SCORER_TOKEN=link.token)
    assert scorer.get(cards_url(session)).status_code == 403
    # A private session stays hidden from whoever may not see it; without credentials
    # the answer is a 401 whether the session exists or not (docs/api.md).
    session.is_public = False
    session.save()
    assert api_as().get(cards_url(session)).status_code == 401
    assert api_as(other_director).get(cards_url(session)).status_code == 404


def test_the_clubs_laminated_cards_open_the_running_session(
    club: Club,
    director: Any,
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    qr_codes: Callable[[bytes], list[list[str]]],
) -> None:
    path = f"/api/clubs/{club.slug}/print/table-cards.pdf"
    table_links.club_cards_issue(club_id=club.pk, count=3, user=director)
    assert api_as().get(path).status_code == 401
    assert api_as(UserFactory()).get(path).status_code == 403
    pages = qr_codes(api_as(director).get(path).content)
    assert [len(codes) for codes in pages] == [1, 1, 1]
    session = make_session(8)
    assert opens(pages[1][0]) == reverse("scoring:table", args=[table_now(session, 2).pk])
