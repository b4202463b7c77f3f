"""What the scorer page's queue is told when it sends a round (docs/tournament.md,
"Scoring without a network"), what a page says after a movement and in double entry,
and what makes the table's pages work offline: the service worker at the site root, the
manifest and its icons, and the generation each kept copy is filed under."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from PIL import Image

from scoring import services
from scoring.models import Game, Round
from tests.scoring.helpers import MakeSession, link_client, signed_in, split, top_game
from tournaments.models import Table
from workflow.session import movements
from workflow.session.simulation import play_sitting
from workflow.tables import card_selectors

pytestmark = pytest.mark.django_db

BY_FETCH = {"HTTP_X_REQUESTED_WITH": "scorer"}


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8))


def page_fields(client: Client, game: Game, first: int, second: int) -> dict[str, Any]:
    """The entry form's hidden fields as the page drew them, and a round where the first
    dealer takes `first` tricks and the next player `second`."""
    page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    hidden = dict(re.findall(r'type="hidden" name="(number|entry_key)" value="([^"]*)"', page))
    dealer = re.search(r'<option value="([^"]+)" selected>', page)
    assert hidden
    assert dealer is not None
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    tricks = split(game, first, second)["tricks"]
    fields: dict[str, Any] = {**hidden, "dealer": dealer.group(1)}
    for name, n in tricks.items():
        fields[f"tricks_{names.index(name) + 1}"] = n
    return fields


def send(client: Client, game: Game, fields: dict[str, Any]) -> tuple[int, dict[str, str]]:
    response = client.post(reverse("scoring:round_enter", args=[game.pk]), fields, **BY_FETCH)
    assert response["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def test_a_round_the_page_sends_is_answered_sent_in_a_word(game: Game, director: Any) -> None:
    client = link_client(game.table_id, director)
    assert send(client, game, page_fields(client, game, 3, 2)) == (
        200,
        {"result": "sent", "compare": "", "message": ""},
    )
    assert Round.objects.filter(game=game).count() == 1


def test_a_resend_after_a_lost_answer_is_already_there_with_the_same_numbers(
    game: Game, director: Any
) -> None:
    client = link_client(game.table_id, director)
    fields = page_fields(client, game, 3, 2)
    send(client, game, fields)
    status, answer = send(client, game, fields)
    assert (status, answer["result"]) == (200, "same")
    assert Round.objects.filter(game=game).count() == 1
    # The next page tells the phone the round was its own, not "had already been entered".
    page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert "Round 1 is already there with the same numbers: this phone had sent it." in page
    assert "had already been entered" not in page


def test_a_round_someone_else_entered_with_other_numbers_is_different_with_a_link_to_compare(
    game: Game, director: Any
) -> None:
    client = link_client(game.table_id, director)
    fields = page_fields(client, game, 3, 2)
    services.round_submit(game_id=game.pk, number=1, data=split(game, 2, 3), actor=director)
    status, answer = send(client, game, fields)
    assert (status, answer["result"]) == (409, "different")
    assert answer["compare"] == f"{reverse('scoring:table', args=[game.table_id])}?game=1"
    assert Round.objects.get(game=game).data == split(game, 2, 3)


def test_a_round_the_rules_refuse_is_refused_with_the_reason(game: Game, director: Any) -> None:
    client = link_client(game.table_id, director)
    status, answer = send(client, game, page_fields(client, game, 3, 3))  # six tricks
    assert (status, answer["result"]) == (400, "refused")
    assert answer["message"]
    assert not Round.objects.filter(game=game).exists()


def test_a_plain_form_post_still_gets_the_score_sheet(game: Game, director: Any) -> None:
    client = link_client(game.table_id, director)
    url = reverse("scoring:round_enter", args=[game.pk])
    response = client.post(url, page_fields(client, game, 3, 2))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[game.table_id])


def test_in_double_entry_the_other_phone_is_the_other_scorer(
    make_session: MakeSession, director: Any
) -> None:
    game = top_game(make_session(8, double_entry=True))
    one = link_client(game.table_id, director)
    link = game.table.scorer_links.get()
    two = Client()  # another phone at the table, with the same link
    two.get(reverse("tournaments:scorer_open", args=[link.token]))
    assert send(one, game, page_fields(one, game, 3, 2))[1]["result"] == "waiting"
    status, answer = send(two, game, page_fields(two, game, 2, 3))
    assert (status, answer["result"]) == (200, "different")
    assert answer["compare"] == f"{reverse('scoring:table', args=[game.table_id])}#pending"
    page = two.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert "entered differently by the other scorer" in page
    assert "Entry by the other scorer" in page
    assert "the table&#x27;s scorer link" not in page
    assert "the table's scorer link" not in page
    # A director sees the two phones' entries apart.
    directed = signed_in(director).get(reverse("scoring:table", args=[game.table_id]))
    assert "Entry 1 by a scorer at the table" in directed.content.decode()
    assert "Entry 2 by a scorer at the table" in directed.content.decode()


def test_after_the_movement_the_old_page_says_where_the_card_leads_and_offers_it(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    card = card_selectors.table_cards(session)[0]
    phone = Client()
    phone.get(card.url)  # the phone opened table 1 through its card
    table1 = Table.objects.get(sitting__session=session, sitting__number=1, rank=1)
    play_sitting(table1.sitting, seed=4)
    before = phone.get(reverse("scoring:table", args=[table1.pk])).content.decode()
    assert "now leads to" not in before  # the sitting has not moved yet
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    page = phone.get(reverse("scoring:table", args=[table1.pk])).content.decode()
    assert (
        "The sitting has moved on: the card of table 1 now leads to table 1 of sitting 2." in page
    )
    assert f'<a class="button" href="{card.url}">Open table 1 of sitting 2</a>' in page


def test_after_the_movement_a_card_that_leads_nowhere_says_why(
    make_session: MakeSession, director: Any
) -> None:
    session = make_session(8)
    table2 = Table.objects.get(sitting__session=session, sitting__number=1, rank=2)
    play_sitting(table2.sitting, seed=4)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    Table.objects.filter(sitting__session=session, sitting__number=2, rank=2).update(
        rank=9, number=9
    )
    page = Client().get(reverse("scoring:table", args=[table2.pk])).content.decode()
    assert "The sitting has moved on. Nobody plays at table 2 in this sitting" in page


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content


def test_the_manifest_makes_the_site_installable_with_icons_of_192_and_512_pixels(
    client: Client,
) -> None:
    page = client.get("/").content.decode()
    assert f'<link rel="manifest" href="{reverse("tournaments:manifest")}">' in page
    manifest = client.get(reverse("tournaments:manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.content)
    assert data["name"] == "Huckley"
    assert data["start_url"] == "/"
    assert data["display"] == "standalone"
    assert data["theme_color"] == "#1d5e3a"
    pngs = {icon["sizes"]: icon["src"] for icon in data["icons"] if icon["type"] == "image/png"}
    assert set(pngs) == {"192x192", "512x512"}
    for sizes, src in pngs.items():
        found = finders.find(src.removeprefix(settings.STATIC_URL).lstrip("/"))
        assert isinstance(found, str), src
        image = Image.open(found)
        assert f"{image.width}x{image.height}" == sizes


def test_the_score_sheet_carries_its_generation_and_a_round_moves_it(
    game: Game, director: Any
) -> None:
    client = link_client(game.table_id, director)
    url = reverse("scoring:table", args=[game.table_id])
    before = client.get(url)["X-Huckley-Generation"]
    assert before
    services.round_submit(game_id=game.pk, number=1, data=split(game, 3, 2), actor=director)
    assert client.get(url)["X-Huckley-Generation"] != before


def test_the_table_and_find_my_table_pages_register_the_service_worker(
    game: Game, director: Any
) -> None:
    session_id = game.table.sitting.session_id
    for url in (
        reverse("scoring:table", args=[game.table_id]),
        reverse("tournaments:session", args=[session_id]),
    ):
        assert "/static/offline.js" in Client().get(url).content.decode(), url
