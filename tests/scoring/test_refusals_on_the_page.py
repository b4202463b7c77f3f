"""Every combination a game's engine refuses is refused on the round entry page, in the
engine's words, and nothing is stored (issue "A new club's first night without help",
items 1 and 2).

Each row of the table is a round as a scorer types it into the real page (the Django test
client posting the round entry form), and the engine's error code it must meet. The page
must answer 400, show every message the engine gives for that round (or the family's
plain words for the code), never Django's own bounds messages, and leave every table of
the project as it was. That the form sends every field is test_every_field_reaches_the_engine.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

import engine
from scoring import records, services
from scoring.games import family_for
from scoring.models import Game, Round
from tests.scoring.helpers import top_game
from tests.snapshots import changed_tables, db_snapshot
from tournaments.models import Session
from tournaments.permissions import SYSTEM

pytestmark = pytest.mark.django_db

#: A round as typed, from the seats in dealing order (the dealer first): round fields
#: (`misdeal`, `trump`, `trick_1`) and per-player columns as {column: [value per seat]}.
Typed = Callable[[list[str]], dict[str, Any]]


@dataclass(frozen=True)
class Refusal:
    rules_id: str
    what: str
    typed: Typed
    code: str


def cols(**columns: list[Any]) -> dict[str, Any]:
    """Per-player columns by seat from the dealer: cols(tricks=[2, 1, 1, 1])."""
    return {"columns": columns}


REFUSALS = [
    # Huckley Buck and Hucklebuck (docs/rules.md): misdeals, penalties, tricks 0 to 5.
    Refusal(
        "huckley-buck",
        "tricks typed with a misdeal (the issue's round)",
        lambda s: {"misdeal": "on", **cols(tricks=[2, 1, 1, 1])},
        "misdeal_with_tricks",
    ),
    Refusal(
        "hucklebuck",
        "tricks typed with a misdeal",
        lambda s: {"misdeal": "on", **cols(tricks=[0, 5, 0, 0])},
        "misdeal_with_tricks",
    ),
    Refusal(
        "huckley-buck",
        "a trick order with a misdeal",
        lambda s: {"misdeal": "on", **{f"trick_{t}": s[t % 4] for t in range(1, 6)}},
        "misdeal_with_tricks",
    ),
    Refusal(
        "huckley-buck",
        "a renege penalty in a misdeal",
        lambda s: {"misdeal": "on", "penalty_player_1": s[1], "penalty_kind_1": "renege"},
        "penalty_kind_conflict",
    ),
    Refusal(
        "huckley-buck",
        "a misdeal penalty in a played round",
        lambda s: {
            "penalty_player_1": s[0],
            "penalty_kind_1": "misdeal",
            **cols(tricks=[0, 3, 2, 0]),
        },
        "penalty_kind_conflict",
    ),
    Refusal("huckley-buck", "six tricks", lambda s: cols(tricks=[6, 0, 0, 0]), "bad_field"),
    Refusal("huckley-buck", "minus one trick", lambda s: cols(tricks=[-1, 3, 3, 0]), "bad_field"),
    Refusal("huckley-buck", "no tricks at all", lambda s: {}, "tricks_missing"),
    # Buck Euchre (docs/rules-buck-euchre.md).
    Refusal(
        "buck-euchre",
        "tricks typed with a misdeal",
        lambda s: {"misdeal": "on", "trump": "H", "declarer": s[1], **cols(tricks=[0, 3, 2, 0])},
        "misdeal_with_tricks",
    ),
    Refusal(
        "buck-euchre",
        "six tricks",
        lambda s: {"upcard": "9H", "trump": "H", "declarer": s[1], **cols(tricks=[0, 6, 0, 0])},
        "bad_field",
    ),
    Refusal(
        "buck-euchre",
        "an upcard outside the 24-card pack",
        lambda s: {"upcard": "8H", "trump": "H", "declarer": s[1], **cols(tricks=[0, 3, 2, 0])},
        "not_in_pack",
    ),
    Refusal(
        "buck-euchre",
        "a declarer in dirty clubs",
        lambda s: {"upcard": "JC", "declarer": s[1], **cols(tricks=[1, 2, 1, 1])},
        "dirty_clubs_declarer",
    ),
    Refusal(
        "buck-euchre",
        "a declarer with no trump",
        lambda s: {"upcard": "9H", "trump": "none", "declarer": s[2], **cols(tricks=[1, 2, 1, 1])},
        "declarer_without_trump",
    ),
    Refusal(
        "buck-euchre",
        "a suit named with nobody declaring",
        lambda s: {"upcard": "9H", "trump": "S", **cols(tricks=[1, 2, 1, 1])},
        "declarer_missing",
    ),
    Refusal(
        "buck-euchre",
        "the declarer dropped",
        lambda s: {
            "upcard": "9H",
            "trump": "H",
            "declarer": s[1],
            **cols(out=["", "on", "", ""], tricks=[2, 0, 2, 1]),
        },
        "declarer_cannot_drop",
    ),
    # Ten-Point Buck (docs/rules-ten-point-buck.md): bids and card points 0 to 220.
    Refusal(
        "ten-point-buck",
        "a bid above 220",
        lambda s: cols(bids=[221, 40, 40, 40], points=[50, 50, 50, 50]),
        "bad_field",
    ),
    Refusal(
        "ten-point-buck",
        "card points below 0",
        lambda s: cols(bids=[40, 40, 40, 40], points=[-1, 70, 70, 50]),
        "bad_field",
    ),
    Refusal(
        "ten-point-buck",
        "a bid left blank",
        lambda s: cols(bids=["", 40, 40, 40], points=[50, 50, 50, 50]),
        "missing_bid",
    ),
    Refusal(
        "ten-point-buck",
        "the Doe's bonus to a player without the Buck's points",
        lambda s: {"doe_bonus": s[0], **cols(bids=[5, 40, 40, 40], points=[5, 65, 65, 65])},
        "doe_bonus_points",
    ),
    # Bluke (docs/rules-bluke.md): round 1 of `bluke` deals the largest hand (13 at 4).
    Refusal(
        "bluke",
        "more tricks than cards dealt",
        lambda s: cols(bids=[1, 1, 1, 1], tricks=[14, 0, 0, 0]),
        "bad_field",
    ),
    Refusal(
        "bluke",
        "a bid above the cards dealt",
        lambda s: cols(bids=[14, 1, 1, 1], tricks=[10, 1, 1, 1]),
        "bid_out_of_range",
    ),
    Refusal(
        "bluke",
        "a hand size of 0",
        lambda s: {"cards": "0", **cols(bids=[1, 1, 1, 1], tricks=[10, 1, 1, 1])},
        "wrong_cards",
    ),
    Refusal(
        "bluke-nj",
        "an upcard that is no card",
        lambda s: {"upcard": "ZZ", **cols(bids=[1, 1, 1, 1], tricks=[1, 0, 0, 0])},
        "bad_card",
    ),
]

#: Django's words for a value out of a field's bounds: never the answer to a scorer.
DJANGO_BOUNDS = ("Ensure this value", "Select a valid choice")


def seats_from_dealer(game: Game) -> tuple[list[str], list[str]]:
    """(the players in seat order, the same from the next round's dealer on)."""
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    dealer = records.game_check(game)["next_dealer"]
    start = names.index(dealer)
    return names, names[start:] + names[:start]


def post_data(game: Game, typed: Typed) -> dict[str, Any]:
    names, seats = seats_from_dealer(game)
    fields = typed(seats)
    data: dict[str, Any] = {"number": game.round_count + 1, "dealer": seats[0]}
    for column, values in fields.pop("columns", {}).items():
        for name, value in zip(seats, values, strict=True):
            data[f"{column}_{names.index(name) + 1}"] = value
    return data | fields


@pytest.fixture
def game_of(make_session: Callable[..., Session]) -> Callable[[str], Game]:
    """The top game of a started session of eight, at a table of four, for a rules id."""

    def make(rules_id: str) -> Game:
        game = top_game(make_session(8, rules_id=rules_id))
        assert game.game_players.count() == 4
        return game

    return make


@pytest.fixture
def client_of(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.mark.parametrize("refusal", REFUSALS, ids=[f"{r.rules_id}: {r.what}" for r in REFUSALS])
def test_a_round_the_engine_refuses_is_refused_on_the_page_in_its_words(
    refusal: Refusal, game_of: Callable[[str], Game], client_of: Client
) -> None:
    game = game_of(refusal.rules_id)
    data = post_data(game, refusal.typed)
    # What the engine says of that round, asked directly: the page must show all of it.
    form = family_for(game.rules_id).form(data, players=seats_from_dealer(game)[0])
    assert form.is_valid(), form.errors
    verdict = engine.check(records.game_record(game, rounds=[form.to_round()]))
    codes = {e["code"] for e in verdict["errors"]}
    assert refusal.code in codes, verdict["errors"]
    before = db_snapshot()

    response = client_of.post(reverse("scoring:round_enter", args=[game.pk]), data)

    assert response.status_code == 400
    page = response.content.decode()
    plain = family_for(game.rules_id).form.plain_messages
    for error in verdict["errors"]:
        assert escape(plain.get(error["code"], error["message"])) in page, error
    for words in DJANGO_BOUNDS:
        assert words not in page
    assert "{#" not in page  # no template comment shown as text
    assert changed_tables(before) == []
    assert not Round.objects.filter(game=game).exists()


def test_the_issues_misdeal_says_what_to_clear(
    game_of: Callable[[str], Game], client_of: Client
) -> None:
    """Tricks 2/1/1/1 typed, Misdeal ticked, "Enter round": refused, not a hooked dealer."""
    game = game_of("huckley-buck")
    data = post_data(game, lambda s: {"misdeal": "on", **cols(tricks=[2, 1, 1, 1])})
    response = client_of.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert response.status_code == 400
    assert (
        "The round is marked as a misdeal, so no tricks were played; clear the tricks, or "
        "untick misdeal if the round was played."
    ) in response.content.decode()
    game.refresh_from_db()
    assert game.round_count == 0
    assert all(gp.score == 0 for gp in game.game_players.all())


def test_six_tricks_are_refused_in_the_games_words_beside_the_players_row(
    game_of: Callable[[str], Game], client_of: Client
) -> None:
    game = game_of("huckley-buck")
    names, seats = seats_from_dealer(game)
    data = post_data(game, lambda s: cols(tricks=[6, 0, 0, 0]))
    page = client_of.post(reverse("scoring:round_enter", args=[game.pk]), data).content.decode()
    field = f"id_tricks_{names.index(seats[0]) + 1}"
    assert f'aria-describedby="{field}_error"' in page
    error_row = page[page.index(f'id="{field}_error"') :]
    assert error_row.index(
        escape(f"{seats[0]}'s tricks must be a whole number from 0 to 5, not 6.")
    ) < (error_row.index("</tr>"))


def test_a_buck_euchre_misdeal_is_stored_with_everything_typed(
    game_of: Callable[[str], Game], client_of: Client
) -> None:
    """The engine ignores a misdeal's trump and declarer by its rules (docs/rules-buck-
    euchre.md, Misdeals); they are stored as typed, not dropped on the way."""
    game = game_of("buck-euchre")
    data = post_data(
        game, lambda s: {"misdeal": "on", "upcard": "9h", "trump": "H", "declarer": s[1]}
    )
    response = client_of.post(reverse("scoring:round_enter", args=[game.pk]), data)
    assert response.status_code == 302
    _names, seats = seats_from_dealer(game)
    stored = Round.objects.get(game=game).data
    assert stored == {
        "dealer": seats[-1],
        "misdeal": True,
        "upcard": "9H",
        "trump": "H",
        "declarer": seats[0],
    }


def test_a_correction_to_six_tricks_is_refused_in_the_games_words(
    game_of: Callable[[str], Game], client_of: Client
) -> None:
    """The correction page is the same form: its refusals are the engine's too."""
    game = game_of("huckley-buck")
    names, seats = seats_from_dealer(game)
    entered = {"tricks": {seats[0]: 3, seats[1]: 2}}
    services.round_submit(game_id=game.pk, number=1, data=entered, actor=SYSTEM)
    data = {"number": 1, "dealer": seats[0], f"tricks_{names.index(seats[0]) + 1}": 6}
    before = db_snapshot()

    response = client_of.post(reverse("scoring:round_edit", args=[game.pk, 1]), data)

    assert response.status_code == 400
    page = response.content.decode()
    assert escape(f"{seats[0]}'s tricks must be a whole number from 0 to 5, not 6.") in page
    assert "Ensure this value" not in page
    assert changed_tables(before) == []
