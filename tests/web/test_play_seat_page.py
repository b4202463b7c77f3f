"""The player's seat page for online play (docs/tournament.md, "Playing online: the seat
page"): the seat's view as HTML (the hand, the choices in words, the table), the states
between games in words, an unknown token a 404, never stored by a cache; the seat link
shown on "Follow my table" and "My games" only to the player themselves."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from play import selectors, services
from play.models import SeatLink
from tests.factories import UserFactory
from tests.play.helpers import settle
from tournaments.models import DirectorCall, Seating, Session, Table
from web.templatetags.card_faces import card, card_name
from web.templatetags.play_words import move_label

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("QS", ("Q\u2660", "queen of spades", False)),
        ("TH", ("10\u2665", "10 of hearts", True)),
        ("2D", ("2\u2666", "2 of diamonds", True)),
        ("AC", ("A\u2663", "ace of clubs", False)),
        ("BH", ("Hi Bluke", "the high Bluke", False)),
        ("BL", ("Lo Bluke", "the low Bluke", False)),
        ("0w", ("Doe", "the Doe (white 0)", False)),
        ("10w", ("Buck", "the Buck (white 10)", False)),
        ("7w", ("W7", "white 7", False)),
        ("7", ("7", "7", False)),
    ],
)
def test_every_card_code_of_the_record_has_its_words(
    code: str, words: tuple[str, str, bool]
) -> None:
    assert card(code) == words


def test_the_choices_are_labelled_in_words() -> None:
    assert move_label({"action": "in"}, "announce") == "I'm in"
    assert move_label({"action": "out"}, "drop") == "I'm out"
    assert move_label({"action": "trump", "suit": "H"}, "order") == "Order up hearts \u2665"
    assert move_label({"action": "trump", "suit": "S"}, "name") == "Name spades \u2660 trump"
    assert move_label({"action": "pass"}, "order") == "Pass"
    assert move_label({"action": "discard", "card": "9D"}, "discard") == "Discard 9\u2666"
    assert move_label({"action": "bid", "bid": 3}, "bid") == "Bid 3"


@pytest.fixture
def online(make_session: Callable[..., Session], director: Any) -> Session:
    session = make_session(5, start=False)
    Session.objects.filter(pk=session.pk).update(online=True)
    from workflow.session import start_finish

    start_finish.session_start(session_id=session.pk, user=director)
    settle(session.pk)  # the tables dealt, as the start's commit would
    services.seat_links_ensure(session_id=session.pk, user=director)
    return session


def page_of(client: Client, token: str) -> Any:
    return client.get(reverse("tournaments:play", args=[token]))


def test_the_page_shows_the_seat_s_hand_and_its_choices_without_a_script(
    online: Session, client: Client
) -> None:
    first = SeatLink.objects.filter(session=online).first()
    assert first is not None
    to_act = selectors.seat_view(first.token)["to_act"]
    links = {
        link.player.name: link
        for link in SeatLink.objects.filter(session=online).select_related("player")
    }
    waiting = next(link for name, link in links.items() if name != to_act)
    for link in (links[to_act], waiting):
        response = page_of(client, link.token)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        assert response["Referrer-Policy"] == "no-referrer"
        html = response.content.decode()
        view = selectors.seat_view(link.token)
        assert (view["status"], len(view["hand"])) == ("playing", 5)
        # The view the script starts from is the one the page shows.
        data = re.search(r'<script id="play-view" type="application/json">(.*?)</script>', html)
        assert data is not None
        assert json.loads(data.group(1))["hand"] == view["hand"]
        for code in view["hand"]:
            assert f'aria-label="{card_name(code)}' in html
        if link is waiting:
            assert f"Waiting for {to_act}" in html
            assert re.search(r"<button[^>]*data-move=", html) is None
        else:
            assert "Your turn: are you in or out?" in html
            for move in view["legal"]:
                assert f">{escape(move_label(move, view['phase']))}</button>" in html
        # No other hand is on the page: only this seat's cards are buttons.
        assert html.count('<button type="button" class="playing-card') == len(view["hand"])


def test_an_unknown_token_is_a_404(client: Client, db: None) -> None:
    assert page_of(client, "no-such-token").status_code == 404


def test_a_table_on_paper_sends_the_player_to_it_in_words(
    online: Session, client: Client, director: Any
) -> None:
    link = SeatLink.objects.filter(session=online).select_related("player").first()
    assert link is not None
    seating = Seating.objects.select_related("table").get(
        player=link.player, sitting__session=online, left_at__isnull=True
    )
    Table.objects.filter(pk=seating.table_id).update(online=False)
    html = page_of(client, link.token).content.decode()
    assert (
        f"Your table plays on paper tonight: go to table {seating.table.number}, "
        f"seat {seating.seat}, and play with real cards."
    ) in html


def test_the_seat_link_is_offered_to_the_player_alone(online: Session, client: Client) -> None:
    link = SeatLink.objects.filter(session=online).select_related("player").first()
    assert link is not None
    follow = reverse("tournaments:follow", args=[online.pk, link.player_id])
    anyone = client.get(follow).content.decode()
    assert link.token not in anyone
    assert "Your table plays online" in anyone
    user = UserFactory()
    link.player.user = user
    link.player.save()
    client.force_login(user)
    mine = client.get(follow).content.decode()
    assert reverse("tournaments:play", args=[link.token]) in mine
    games = client.get(reverse("tournaments:my_games")).content.decode()
    assert reverse("tournaments:play", args=[link.token]) in games


@pytest.mark.parametrize(
    ("rules_id", "size"),
    [
        ("huckley-buck", 5),
        ("hucklebuck", 4),
        ("buck-euchre", 4),
        ("bluke", 4),
        ("bluke-nj", 4),
        ("ten-point-buck", 4),
    ],
)
def test_every_phase_of_every_game_is_drawn_with_its_choices_in_words(
    rules_id: str, size: int
) -> None:
    """A round of each game played by the engine's robots: at every move the page of the
    player to act offers exactly the choices of `legal`, each in words, and the page of
    every other player offers none."""
    import random

    from engine import online as engine_online
    from engine.online import RoundStart
    from web.templatetags.play_words import seat_page

    names = ["Ann", "Bob", "Cy", "Di", "Ed"][:size]
    start = RoundStart(rules_id, names, "Ann", 1, {}, dict.fromkeys(names, 0), [])
    order = engine_online.pack(start)
    random.Random(5).shuffle(order)
    rnd = engine_online.deal(start, order)
    phases = set()
    took_upcard: set[str] = set()
    while (who := rnd.to_act()) is not None:
        for name in names:
            view = {**rnd.view(name), "status": "playing", "move": 0}
            page = seat_page(view)
            if name != who:
                assert page["choices"] == [], (name, view["phase"])
                assert not any(c["move"] for c in page["hand"])
                assert page["turn"] == f"Waiting for {who}."
                continue
            phases.add(view["phase"])
            assert page["turn"].startswith("Your turn: ")
            legal = view["legal"]
            if view["phase"] == "play":
                playable = [json.loads(c["move"])["card"] for c in page["hand"] if c["move"]]
                # Ten-Point Buck deals a rank several times: each copy may be played.
                assert set(playable) == set(legal)
            elif legal[0]["action"] == "draw":
                assert [c["draw"] for c in page["choices"]] == list(range(len(legal)))
                for choice, template in zip(page["choices"], legal, strict=True):
                    if template.get("take_upcard"):
                        took_upcard.add(rules_id)
                        assert choice["label"].startswith("Take the upcard ")
                        assert choice["disabled"]  # until a card to discard is chosen
                    else:
                        assert choice["label"] == "Stand pat"
                assert all(c["drawing"] for c in page["hand"])
            else:
                offered = [json.loads(c["move"]) for c in page["choices"]]
                offered += [{"action": "bid", "bid": b} for b in page["bids"]]
                assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
                for choice in page["choices"]:
                    assert choice["label"]
                    assert "{" not in choice["label"]
                    assert choice["label"] != json.loads(choice["move"])["action"], choice
        rnd.apply(who, rnd.robot_move(who))
    assert "play" in phases
    if rules_id == "huckley-buck":  # the IHBA dealer's option was offered, in words
        assert took_upcard == {rules_id}


def test_the_page_links_the_game_s_rules_and_calls_the_director_to_the_player_s_table(
    online: Session, client: Client
) -> None:
    link = SeatLink.objects.filter(session=online).select_related("player").first()
    assert link is not None
    html = page_of(client, link.token).content.decode()
    assert f'href="{reverse("tournaments:rules", args=[online.rules_id])}"' in html
    assert 'href="#call">Call the director</a>' in html
    call_url = reverse("tournaments:play_call", args=[link.token])
    assert f'action="{call_url}"' in html

    answer = client.post(call_url, {"reason": "renege", "text": "Seat 3 reneged"})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournaments:play", args=[link.token]) + "#call"
    table = Seating.objects.get(player=link.player, left_at__isnull=True).table
    call = DirectorCall.objects.get()
    assert (call.table_id, call.reason, call.text) == (table.pk, "renege", "Seat 3 reneged")
    after = client.get(answer["Location"]).content.decode()
    assert "The director is called to your table: a renege" in after
    assert "The director has been called" in after
    assert f'action="{call_url}"' not in after  # no second form while the call is open

    # Another phone of the table calls too: refused in words, the first call kept.
    other = SeatLink.objects.filter(session=online, player__seatings__table=table).exclude(
        pk=link.pk
    )
    again = client.post(
        reverse("tournaments:play_call", args=[other.first().token]), {"reason": "dispute"}
    )
    page = client.get(again["Location"]).content.decode()
    assert "The director has already been called to this table" in page
    assert DirectorCall.objects.count() == 1


def test_the_seat_link_alone_calls_no_cookie_is_read(online: Session) -> None:
    """The page sends no referrer, so its form posts with the Origin "null": the call
    needs no CSRF cookie, and nothing of the browser's session decides who calls."""
    link = SeatLink.objects.filter(session=online).first()
    assert link is not None
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(UserFactory())
    answer = browser.post(
        reverse("tournaments:play_call", args=[link.token]),
        {"reason": "question"},
        HTTP_ORIGIN="null",
    )
    assert answer.status_code == 302
    call = DirectorCall.objects.get()
    assert call.called_by is None


def test_a_call_from_an_unknown_seat_link_is_a_404(online: Session, client: Client) -> None:
    url = reverse("tournaments:play_call", args=["no-such-token"])
    assert client.post(url, {"reason": "dispute"}).status_code == 404
    assert not DirectorCall.objects.exists()
    token = SeatLink.objects.filter(session=online).first().token
    assert client.get(reverse("tournaments:play_call", args=[token])).status_code == 405
