"""The round entry page at the table: what the scorer sees when a round is refused, and
what a Buck Euchre scorer must choose for trump (issue 10, bugs 1 and 2)."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import records, services
from scoring.games.buck_euchre import TRUMP_MISSING
from scoring.models import Game, Round
from tournaments.models import Session
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db


class Details(HTMLParser):
    """The <details> blocks of a page: their attributes and their summary text."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[dict[str, str | None], str]] = []
        self._in_summary = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self.found.append((dict(attrs), ""))
        elif tag == "summary":
            self._in_summary = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary":
            self._in_summary = False

    def handle_data(self, data: str) -> None:
        if self._in_summary and self.found:
            attrs, text = self.found[-1]
            self.found[-1] = (attrs, text + data)


def details_open(page: str, summary_start: str) -> bool:
    parser = Details()
    parser.feed(page)
    matching = [attrs for attrs, text in parser.found if text.strip().startswith(summary_start)]
    assert len(matching) == 1, parser.found
    return "open" in matching[0]


def seats_from_dealer(game: Game) -> list[str]:
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    start = names.index(game.first_dealer.name)
    return names[start:] + names[:start]


def post_round(client: Client, game: Game, fields: dict[str, Any]) -> Any:
    game.refresh_from_db()
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    dealer = records.game_check(game)["next_dealer"]
    data: dict[str, Any] = {"number": game.round_count + 1, "dealer": dealer}
    for key, value in fields.items():
        if isinstance(value, dict):
            for name, v in value.items():
                data[f"{key}_{names.index(name) + 1}"] = v
        else:
            data[key] = value
    return client.post(reverse("scoring:round_enter", args=[game.pk]), data)


@pytest.fixture
def client_of(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def two_at_nine_and_ten(make_session: Callable[..., Session]) -> tuple[Game, list[str]]:
    """A Huckley Buck game at four where the next round can take two players to 11."""
    session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    a, b, c, d = seats_from_dealer(game)
    for number, counts in enumerate([(3, 2, 0, 0), (2, 3, 0, 0), (3, 2, 0, 0), (1, 3, 1, 0)], 1):
        data = {"tricks": dict(zip((a, b, c, d), counts, strict=True))}
        services.round_submit(game_id=game.pk, number=number, data=data, actor=SYSTEM)
    game.refresh_from_db()
    assert {gp.name: gp.score for gp in game.game_players.all()}[a] == 9
    return game, [a, b, c, d]


def test_a_wrong_trick_order_when_two_reach_the_target_is_shown_open(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, (a, b, c, _d) = two_at_nine_and_ten
    # a and b both reach 11; the order given says a took three tricks, not two.
    order = {f"trick_{t}": who for t, who in enumerate([a, a, a, b, c], start=1)}
    response = post_round(client_of, game, {"tricks": {a: 2, b: 1, c: 2}, **order})
    assert response.status_code == 400
    page = response.content.decode()
    assert details_open(page, "Trick order")
    assert not details_open(page, "Penalties")
    assert Round.objects.filter(game=game).count() == 4


def test_a_half_given_trick_order_is_shown_open_with_its_error(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, (a, b, c, _d) = two_at_nine_and_ten
    order = {"trick_2": a, "trick_3": b, "trick_4": c}
    response = post_round(client_of, game, {"tricks": {a: 2, b: 1, c: 2}, **order})
    assert response.status_code == 400
    page = response.content.decode()
    assert details_open(page, "Trick order")
    assert "Give the winner of every trick" in page


def test_a_missing_trick_order_when_two_reach_the_target_is_shown_open(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, (a, b, c, _d) = two_at_nine_and_ten
    response = post_round(client_of, game, {"tricks": {a: 2, b: 1, c: 2}})
    assert response.status_code == 400
    assert details_open(response.content.decode(), "Trick order")


def test_the_right_trick_order_decides_who_reached_the_target_first(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, (a, b, c, _d) = two_at_nine_and_ten
    # b's trick 2 makes 11 before a's trick 4 does.
    order = {f"trick_{t}": who for t, who in enumerate([a, b, c, a, c], start=1)}
    response = post_round(client_of, game, {"tricks": {a: 2, b: 1, c: 2}, **order})
    assert response.status_code == 302
    game.refresh_from_db()
    assert list(game.game_players.filter(won=True).values_list("name", flat=True)) == [b]


def test_penalties_with_an_error_are_shown_open(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, (a, b, c, _d) = two_at_nine_and_ten
    fields = {"tricks": {a: 1, b: 1, c: 3}, "penalty_player_1": a, "penalty_player_2": b}
    response = post_round(client_of, game, fields)
    assert response.status_code == 400
    page = response.content.decode()
    assert details_open(page, "Penalties")
    assert not details_open(page, "Trick order")


def test_an_untouched_entry_form_keeps_both_sections_closed(
    client_of: Client, two_at_nine_and_ten: tuple[Game, list[str]]
) -> None:
    game, _names = two_at_nine_and_ten
    page = client_of.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert not details_open(page, "Trick order")
    assert not details_open(page, "Penalties")


@pytest.fixture
def buck_euchre(make_session: Callable[..., Session]) -> tuple[Game, list[str]]:
    session = make_session(8, rules_id="buck-euchre")
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    return game, seats_from_dealer(game)


def test_a_buck_euchre_round_with_no_trump_chosen_is_refused_in_plain_words(
    client_of: Client, buck_euchre: tuple[Game, list[str]]
) -> None:
    """A forgotten trump is not a no-trump hand (docs/rules-buck-euchre.md, `trump_missing`)."""
    game, (_dealer, left, across, right) = buck_euchre
    fields = {"upcard": "9H", "trump": "", "tricks": {left: 2, across: 2, right: 1}}
    response = post_round(client_of, game, fields)
    assert response.status_code == 400
    page = response.content.decode()
    assert TRUMP_MISSING in page
    assert "null" not in page
    assert not Round.objects.filter(game=game).exists()


def test_no_trump_is_entered_by_choosing_it(
    client_of: Client, buck_euchre: tuple[Game, list[str]]
) -> None:
    game, (_dealer, left, across, right) = buck_euchre
    fields = {"upcard": "9H", "trump": "none", "tricks": {left: 2, across: 2, right: 1}}
    response = post_round(client_of, game, fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Round.objects.get(game=game).data
    assert "trump" in stored
    assert stored["trump"] is None


def test_a_club_upcard_with_trump_left_empty_is_dirty_clubs(
    client_of: Client, buck_euchre: tuple[Game, list[str]]
) -> None:
    game, (dealer, left, across, right) = buck_euchre
    fields = {"upcard": "JC", "trump": "", "tricks": {dealer: 1, left: 2, across: 1, right: 1}}
    response = post_round(client_of, game, fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "trump" not in Round.objects.get(game=game).data
    sheet = client_of.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert "upcard JC; dirty clubs" in sheet


def test_correcting_a_buck_euchre_round_to_an_empty_trump_is_refused(
    client_of: Client, buck_euchre: tuple[Game, list[str]]
) -> None:
    game, (dealer, left, across, _right) = buck_euchre
    data = {"upcard": "9H", "trump": "H", "declarer": left, "tricks": {left: 3, across: 2}}
    services.round_submit(game_id=game.pk, number=1, data=data, actor=SYSTEM)
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    post = {"number": 1, "dealer": dealer, "upcard": "9H", "trump": ""}
    post |= {f"tricks_{names.index(n) + 1}": v for n, v in {left: 3, across: 2}.items()}
    post["declarer"] = left
    response = client_of.post(reverse("scoring:round_edit", args=[game.pk, 1]), post)
    assert response.status_code == 400
    assert TRUMP_MISSING in response.content.decode()
    assert Round.objects.get(game=game).data["trump"] == "H"
