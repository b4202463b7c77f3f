"""The scorer's page (issue 10): the entry key that makes a resend safe, who deals and the
scores so far, Bluke's hand size before entry, a double-entry mismatch shown field by
field, a correction that asks before it changes more than its round, and a director's
restore."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring import compare, records, services
from scoring.games import family_for
from scoring.models import Game, Round, RoundChange
from tests.factories import UserFactory
from tests.scoring.helpers import (
    A_WINS,
    NOBODY_WINS_ROUND_4,
    MakeSession,
    dealer_order,
    link_client,
    play,
    signed_in,
    top_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_session: MakeSession) -> Game:
    return top_game(make_session(8))


def sheet_url(game: Game) -> str:
    return f"{reverse('scoring:table', args=[game.table_id])}?game={game.number}"


def round_fields(game: Game, first: int, second: int, **extra: Any) -> dict[str, Any]:
    """The entry form's fields for a round where the first dealer and the next player
    take `first` and `second` tricks."""
    names = list(game.game_players.order_by("seat").values_list("name", flat=True))
    a, b, _, _ = dealer_order(game)
    game.refresh_from_db()
    data: dict[str, Any] = {
        "number": game.round_count + 1,
        "dealer": records.game_check(game)["next_dealer"],
        f"tricks_{names.index(a) + 1}": first,
        f"tricks_{names.index(b) + 1}": second,
    }
    data.update(extra)
    return data


def test_the_page_sends_an_entry_key_and_a_resend_stores_the_round_once(
    game: Game, director: Any
) -> None:
    client = link_client(game.table_id, director)
    page = client.get(sheet_url(game)).content.decode()
    key = re.search(r'name="entry_key" value="([0-9a-f]{32})"', page)
    assert key is not None
    fields = round_fields(game, 3, 2, entry_key=key.group(1))
    url = reverse("scoring:round_enter", args=[game.pk])
    assert client.post(url, fields).status_code == 302
    again = client.post(url, fields, follow=True)
    # The phone's own round, sent again after a lost answer, is recognised as its own.
    assert (
        "Round 1 is already there with the same numbers: this phone had sent it."
        in again.content.decode()
    )
    assert Round.objects.filter(game=game).count() == 1
    assert Round.objects.get(game=game).entry_key == key.group(1)


def test_a_malformed_entry_key_is_refused_in_plain_words(game: Game, director: Any) -> None:
    client = signed_in(director)
    url = reverse("scoring:round_enter", args=[game.pk])
    response = client.post(url, round_fields(game, 3, 2, entry_key="<script>"))
    assert response.status_code == 400
    assert not Round.objects.filter(game=game).exists()


def test_the_page_says_who_deals_and_the_scores_so_far(game: Game, director: Any) -> None:
    play(game, A_WINS[:1])
    a, b, c, _ = dealer_order(game)
    page = signed_in(director).get(sheet_url(game)).content.decode()
    assert f"<strong>{b}</strong> deals round 2." in page
    assert f"{a} 3" in page
    assert f"{b} 2" in page
    assert f"{c} 0" in page


def test_bluke_shows_the_hand_size_and_the_bids_before_entry(
    make_session: MakeSession, director: Any
) -> None:
    game = top_game(make_session(8, rules_id="bluke"))
    page = signed_in(director).get(sheet_url(game)).content.decode()
    players = game.game_players.count()
    sizes = {4: 13, 5: 10, 6: 9}
    size = sizes[players]
    assert f"Hand 1 of {2 * size - 1}: deal {size} cards to each player." in page
    assert f"Each player bids 1 to {size} before play" in page
    assert re.search(rf'name="cards"[^>]*value="{size}"', page)


def test_a_mismatch_lists_every_field_that_differs_side_by_side() -> None:
    family = family_for("buck-euchre")
    first = {
        "dealer": "Ann",
        "upcard": "JC",
        "trump": "S",
        "out": ["Cy"],
        "tricks": {"Ann": 3, "Bob": 2},
    }
    second = {
        "dealer": "Ann",
        "upcard": "JC",
        "trump": "H",
        "tricks": {"Ann": 3, "Bob": 1, "Cy": 1},
    }
    rows = compare.differences(family, first, second, ["Ann", "Bob", "Cy"])
    assert [(r.label, r.first, r.second) for r in rows] == [
        ("Trump", "S", "H"),
        ("Dropped: Cy", "dropped", "stayed in"),
        ("Tricks: Bob", "2", "1"),
        ("Tricks: Cy", "—", "1"),
    ]


def test_the_page_shows_both_entries_of_a_mismatch(
    make_session: MakeSession, director: Any
) -> None:
    game = top_game(make_session(8, double_entry=True))
    one, two = link_client(game.table_id, director), link_client(game.table_id, director)
    url = reverse("scoring:round_enter", args=[game.pk])
    one.post(url, round_fields(game, 3, 2))
    two.post(url, round_fields(game, 2, 3))
    page = one.get(sheet_url(game)).content.decode()
    a, b, _, _ = dealer_order(game)
    assert "The entries differ in 2 places." in page
    assert f'<th scope="row">Tricks: {a}</th><td>3</td><td>2</td>' in page
    assert f'<th scope="row">Tricks: {b}</th><td>2</td><td>3</td>' in page


def decided(game: Game) -> Game:
    play(game, A_WINS)
    following = Game.objects.get(table=game.table, number=2)
    play(following, [(3, 2)])
    return following


def test_a_correction_that_reopens_a_game_asks_first_and_changes_nothing(
    game: Game, director: Any
) -> None:
    following = decided(game)
    client = signed_in(director)
    url = reverse("scoring:round_edit", args=[game.pk, 4])
    fields = round_fields(game, *NOBODY_WINS_ROUND_4, number=4, dealer=dealer_order(game)[3])
    response = client.post(url, fields)
    page = response.content.decode()
    assert response.status_code == 200
    assert "This correction changes more than round 4" in page
    assert "Game 1 is open again" in page
    assert "The 1 round entered in game 2 (round 1) goes" in page
    assert Round.objects.filter(game=following).count() == 1
    seen = re.search(r'name="confirm" value="([0-9a-f]+)"', page)
    assert seen is not None
    # Confirming what was shown makes the change, and keeps what it took off.
    done = client.post(url, {**fields, "confirm": seen.group(1)})
    assert done.status_code == 302
    assert not Game.objects.filter(pk=following.pk).exists()
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.EDIT)
    assert change.removed is not None
    assert len(change.removed["rounds"]) == 1


def test_a_confirmation_of_other_numbers_asks_again(game: Game, director: Any) -> None:
    following = decided(game)
    client = signed_in(director)
    url = reverse("scoring:round_edit", args=[game.pk, 4])
    fields = round_fields(game, *NOBODY_WINS_ROUND_4, number=4, dealer=dealer_order(game)[3])
    response = client.post(url, {**fields, "confirm": "0" * 32})
    assert "This correction changes more than round 4" in response.content.decode()
    assert Game.objects.filter(pk=following.pk).exists()


def test_the_delete_question_says_what_the_deletion_changes(game: Game, director: Any) -> None:
    decided(game)
    page = signed_in(director).get(reverse("scoring:round_delete", args=[game.pk, 4]))
    text = page.content.decode()
    assert "Game 1 is open again" in text
    assert "Delete round and make these changes" in text


def test_a_director_restores_from_the_history(game: Game, director: Any) -> None:
    following = decided(game)
    services.round_delete(game_id=game.pk, number=4, actor=director, confirm=True)
    assert not Game.objects.filter(table=game.table, number=2).exists()
    client = signed_in(director)
    page = client.get(sheet_url(game)).content.decode()
    assert "Restore round 4 as it was and game 2" in page
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.DELETE)
    url = reverse("scoring:change_restore", args=[game.pk, change.pk])
    response = client.post(url, follow=True)
    assert "Round 4 is back as it was." in response.content.decode()
    back = Game.objects.get(table=game.table, number=2)
    assert back.pk != following.pk
    assert back.round_count == 1


@pytest.mark.parametrize("who", ["scorer", "stranger", "anonymous"])
def test_only_a_director_may_restore(game: Game, director: Any, who: str) -> None:
    decided(game)
    services.round_delete(game_id=game.pk, number=4, actor=director, confirm=True)
    change = RoundChange.objects.get(game=game, action=RoundChange.Action.DELETE)
    client = {
        "scorer": lambda: link_client(game.table_id, director),
        "stranger": lambda: signed_in(UserFactory(username="someone-else")),
        "anonymous": Client,
    }[who]()
    assert "Restore round" not in client.get(sheet_url(game)).content.decode()
    response = client.post(reverse("scoring:change_restore", args=[game.pk, change.pk]))
    assert response.status_code == 403
    change.refresh_from_db()
    assert change.restored_at is None
    assert game.rounds.count() == 3
