"""Keep-apart pairs in a club (docs/tournament.md, "Seating wishes"): the services and
every refusal, the start of a session that honours them and says which it could not, the
club's page and the API. The pure seating is tests/format/test_keep_apart_format.py;
who may call each write is also in test_every_write_checks.py and tests/api/test_roles.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import UserError
from tests.api.conftest import token_client
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments.models import BigLoserAward, Club, KeepApart, Player, Seating, Session
from tournaments.permissions import SYSTEM
from workflow.club import seating_wishes
from workflow.session import services, start_finish

pytestmark = pytest.mark.django_db


def pairs_state() -> list[tuple[int, int, int]]:
    return list(KeepApart.objects.order_by("pk").values_list("pk", "first_id", "second_id"))


def refused(code: str, **kwargs: Any) -> UserError:
    before = pairs_state()
    with pytest.raises(UserError) as e:
        seating_wishes.keep_apart_add(**kwargs)
    assert e.value.code == code
    assert pairs_state() == before
    return e.value


def table_of(session: Session) -> dict[str, int]:
    return dict(
        Seating.objects.filter(sitting__session=session, sitting__number=1).values_list(
            "player__name", "table__rank"
        )
    )


def by_name(club: Club, *names: str) -> list[int]:
    return [Player.objects.get(club=club, name=n).pk for n in names]


# The services


def test_a_director_keeps_two_players_apart_stored_smaller_id_first(
    club: Club, director: Any
) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club)
    pair = seating_wishes.keep_apart_add(club_id=club.pk, players=[bob.pk, ann.pk], user=director)
    assert (pair.first, pair.second, pair.created_by) == (ann, bob, director)
    assert list(seating_wishes.keep_apart_pairs(club)) == [pair]


def test_each_refusal_says_what_is_wrong_and_writes_nothing(club: Club, director: Any) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club, name=factory_names())
    stranger = PlayerFactory.create(club=ClubFactory.create(slug="elsewhere"), name="Stan")
    add = {"club_id": club.pk, "user": director}
    assert refused("keep_apart_two_players", players=[ann.pk], **add).message == (
        "Choose two players to keep apart."
    )
    refused("keep_apart_two_players", players=[ann.pk, bob.pk, ann.pk], **add)
    refused("keep_apart_two_players", players="12", **add)
    refused("keep_apart_two_players", players=[ann.pk, "Bob"], **add)
    assert refused("keep_apart_same_player", players=[ann.pk, ann.pk], **add).message == (
        "A player cannot be kept apart from themself: choose two different players."
    )
    assert refused("not_club_player", players=[ann.pk, stranger.pk], **add).message == (
        f"Player {stranger.pk} is not one of Tuesday Club's players."
    )
    refused("not_club_player", players=[ann.pk, 999999], **add)
    seating_wishes.keep_apart_add(players=[ann.pk, bob.pk], **add)
    assert refused("keep_apart_exists", players=[bob.pk, ann.pk], **add).message == (
        "Ann and Bob are already kept apart."
    )


def factory_names() -> Any:
    import factory

    return factory.Iterator(["Ann", "Bob", "Cy", "Dee"])


def test_a_pair_of_another_club_cannot_be_removed_through_this_one(
    club: Club, director: Any
) -> None:
    other = ClubFactory.create(slug="elsewhere")
    a, b = PlayerFactory.create_batch(2, club=other)
    pair = seating_wishes.keep_apart_add(club_id=other.pk, players=[a.pk, b.pk], user=SYSTEM)
    with pytest.raises(UserError) as e:
        seating_wishes.keep_apart_remove(club_id=club.pk, pair_id=pair.pk, user=director)
    assert (e.value.status, e.value.code) == (404, "no_such_pair")
    assert KeepApart.objects.filter(pk=pair.pk).exists()


def test_who_does_not_direct_the_club_may_not_add_or_remove(club: Club, director: Any) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club)
    pair = seating_wishes.keep_apart_add(club_id=club.pk, players=[ann.pk, bob.pk], user=director)
    outsider = UserFactory.create(username="outsider")
    with pytest.raises(PermissionDenied, match="Only a director of this club may keep players"):
        seating_wishes.keep_apart_add(club_id=club.pk, players=[bob.pk, ann.pk], user=outsider)
    with pytest.raises(PermissionDenied):
        seating_wishes.keep_apart_remove(club_id=club.pk, pair_id=pair.pk, user=outsider)
    assert pairs_state() == [(pair.pk, ann.pk, bob.pk)]


def test_a_player_merged_or_deleted_takes_their_pairs_along(club: Club, director: Any) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club)
    seating_wishes.keep_apart_add(club_id=club.pk, players=[ann.pk, bob.pk], user=director)
    bob.delete()
    assert pairs_state() == []


# The start of a session


def test_the_start_parts_a_pair_the_draw_put_together(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    # Found by the draw without wishes: with seed 7, these two start at one table.
    plain = table_of(make_session(12, seed=7))
    together = sorted((a, b) for a in plain for b in plain if a < b and plain[a] == plain[b])[0]
    session = make_session(12, seed=7, start=False)
    seating_wishes.keep_apart_add(club_id=club.pk, players=by_name(club, *together), user=director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    seated = table_of(session)
    assert seated[together[0]] != seated[together[1]]
    assert sitting.not_kept_apart == []
    # Everyone else who moved took a seat a pair left: the sizes are the draw's.
    assert sorted(seated.values()) == sorted(plain.values())


@pytest.mark.parametrize("seeding", ["strongest_top", "balanced"])
def test_every_seeding_honours_the_pairs(
    make_session: Callable[..., Session], club: Club, director: Any, seeding: str
) -> None:
    session = make_session(12, seed=3, start=False)
    services.session_update_settings(
        session_id=session.pk,
        games_per_sitting=2,
        is_public=True,
        double_entry=False,
        seeding=seeding,
        user=director,
    )
    ids = sorted(session.entries.values_list("player_id", flat=True))
    # Three players all kept apart from each other, and a couple: three tables do it.
    wishes = [(ids[0], ids[1]), (ids[0], ids[2]), (ids[1], ids[2]), (ids[3], ids[4])]
    for pair in wishes:
        seating_wishes.keep_apart_add(club_id=club.pk, players=list(pair), user=director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    at = dict(sitting.seatings.values_list("player_id", "table__rank"))
    assert all(at[a] != at[b] for a, b in wishes)
    assert sitting.not_kept_apart == []


def test_one_table_cannot_keep_a_pair_apart_and_the_start_says_so(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(4, start=False)
    first, second = sorted(session.entries.values_list("player_id", flat=True))[:2]
    seating_wishes.keep_apart_add(club_id=club.pk, players=[first, second], user=director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    names = [Player.objects.get(pk=first).name, Player.objects.get(pk=second).name]
    assert sitting.not_kept_apart == [
        {
            "players": [first, second],
            "names": names,
            "reason": "there is only one table",
            # the reason as a code, for the pages to word it in the reader's language
            "code": "one_table",
            "values": {},
        }
    ]
    sitting.refresh_from_db()
    assert sitting.not_kept_apart[0]["reason"] == "there is only one table"


def test_the_big_loser_stays_at_the_bottom_table_when_kept_apart(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    previous = SeasonFactory.create(club=club, name="2025")
    for seed in range(1, 6):
        session = make_session(12, seed=seed, start=False)
        holder, partner = by_name(club, "Cy", "Ann")
        BigLoserAward.objects.update_or_create(season=previous, defaults={"player_id": holder})
        KeepApart.objects.all().delete()
        seating_wishes.keep_apart_add(club_id=club.pk, players=[holder, partner], user=director)
        sitting = start_finish.session_start(session_id=session.pk, user=director)
        at = dict(sitting.seatings.values_list("player_id", "table__rank"))
        assert at[holder] == 3
        assert at[partner] != 3


def test_players_not_playing_tonight_change_nothing(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    plain = table_of(make_session(8, seed=5))
    absent = PlayerFactory.create(club=club, name="Absent Al")
    session = make_session(8, seed=5, start=False)
    seating_wishes.keep_apart_add(
        club_id=club.pk, players=[absent.pk, by_name(club, "Ann")[0]], user=director
    )
    start_finish.session_start(session_id=session.pk, user=director)
    assert table_of(session) == plain


# The API


def test_the_api_lists_adds_and_removes_pairs(club: Club, director: Any) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club, name=factory_names())
    api = token_client(director)
    url = f"/api/clubs/{club.slug}/keep-apart/"
    assert api.get(url).json() == []
    made = api.post(url, {"players": [bob.pk, ann.pk]}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["players"] == [ann.pk, bob.pk]
    assert body["names"] == ["Ann", "Bob"]
    assert [p["id"] for p in api.get(url).json()] == [body["id"]]
    assert api.delete(f"{url}{body['id']}/").status_code == 204
    assert api.get(url).json() == []
    gone = api.delete(f"{url}{body['id']}/")
    assert (gone.status_code, gone.json()["code"]) == (404, "no_such_pair")
    huge = api.delete(f"{url}99999999999999999999/")
    assert (huge.status_code, huge.json()["code"]) == (404, "no_such_pair")


@pytest.mark.parametrize(
    ("players", "code"),
    [
        ("same", "keep_apart_same_player"),
        ("one", "keep_apart_two_players"),
        ("stranger", "not_club_player"),
        ("twice", "keep_apart_exists"),
    ],
)
def test_the_api_refuses_in_plain_words(club: Club, director: Any, players: str, code: str) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club)
    stranger = PlayerFactory.create(club=ClubFactory.create(slug="elsewhere"))
    api = token_client(director)
    url = f"/api/clubs/{club.slug}/keep-apart/"
    api.post(url, {"players": [ann.pk, bob.pk]}, format="json")
    body = {
        "same": [ann.pk, ann.pk],
        "one": [ann.pk],
        "stranger": [ann.pk, stranger.pk],
        "twice": [bob.pk, ann.pk],
    }[players]
    before = pairs_state()
    response = api.post(url, {"players": body}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["field"] == "players"
    assert pairs_state() == before


def test_the_api_start_answer_lists_the_pairs_not_kept_apart(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(4, start=False)
    first, second = sorted(session.entries.values_list("player_id", flat=True))[:2]
    seating_wishes.keep_apart_add(club_id=club.pk, players=[first, second], user=director)
    response = token_client(director).post(f"/api/sessions/{session.pk}/start/")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 1
    assert [len(t["seatings"]) for t in body["tables"]] == [4]
    assert body["not_kept_apart"] == [
        {
            "players": [first, second],
            "names": [Player.objects.get(pk=first).name, Player.objects.get(pk=second).name],
            "reason": "there is only one table",
        }
    ]


def test_the_pairs_are_not_shown_to_the_public(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(4, start=False)
    first, second = sorted(session.entries.values_list("player_id", flat=True))[:2]
    seating_wishes.keep_apart_add(club_id=club.pk, players=[first, second], user=director)
    sitting = start_finish.session_start(session_id=session.pk, user=director)
    public = APIClient()
    assert public.get(f"/api/clubs/{club.slug}/keep-apart/").status_code == 401
    detail = public.get(f"/api/sittings/{sitting.pk}/").json()
    assert "not_kept_apart" not in detail


def test_the_schema_documents_the_paths(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert set(schema["paths"]["/api/clubs/{slug}/keep-apart/"]) >= {"get", "post"}
    assert "delete" in schema["paths"]["/api/clubs/{slug}/keep-apart/{pair_id}/"]
    started = schema["components"]["schemas"]["SessionStarted"]
    assert "not_kept_apart" in started["properties"]


# The club's page


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_club_page_adds_lists_and_removes_after_a_confirmation(
    club: Club, director: Any
) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club, name=factory_names())
    page = reverse("tournaments:club_keep_apart", args=[club.slug])
    browser = signed_in(director)
    home = browser.get(reverse("tournaments:club_home", args=[club.slug])).content.decode()
    assert page in home
    added = browser.post(page, {"first": ann.pk, "second": bob.pk}, follow=True)
    assert "Ann and Bob are kept apart." in added.content.decode()
    pair = KeepApart.objects.get()
    remove = reverse("tournaments:club_keep_apart_remove", args=[club.slug, pair.pk])
    assert remove in added.content.decode()
    confirm = browser.get(remove)
    assert "Stop keeping Ann and Bob apart?" in confirm.content.decode()
    assert KeepApart.objects.exists()
    done = browser.post(remove, follow=True)
    assert "Ann and Bob are no longer kept apart." in done.content.decode()
    assert not KeepApart.objects.exists()


def test_the_club_page_shows_the_refusal_next_to_the_form(club: Club, director: Any) -> None:
    (ann,) = PlayerFactory.create_batch(1, club=club, name="Ann")
    page = reverse("tournaments:club_keep_apart", args=[club.slug])
    response = signed_in(director).post(page, {"first": ann.pk, "second": ann.pk})
    assert response.status_code == 400
    assert "A player cannot be kept apart from themself" in response.content.decode()
    assert not KeepApart.objects.exists()


def test_the_club_page_is_for_directors_only(club: Club, director: Any) -> None:
    ann, bob = PlayerFactory.create_batch(2, club=club)
    pair = seating_wishes.keep_apart_add(club_id=club.pk, players=[ann.pk, bob.pk], user=director)
    outsider = signed_in(UserFactory.create(username="outsider"))
    page = reverse("tournaments:club_keep_apart", args=[club.slug])
    remove = reverse("tournaments:club_keep_apart_remove", args=[club.slug, pair.pk])
    assert outsider.get(page).status_code == 403
    assert outsider.post(page, {"first": ann.pk, "second": bob.pk}).status_code == 403
    assert outsider.post(remove).status_code == 403
    assert Client().get(page).status_code == 302  # to the sign-in page
    assert pairs_state() == [(pair.pk, ann.pk, bob.pk)]


def test_the_club_page_lists_many_pairs_in_a_fixed_number_of_queries(
    club: Club, director: Any, django_assert_num_queries: Any
) -> None:
    players = PlayerFactory.create_batch(20, club=club)
    for a, b in zip(players[::2], players[1::2], strict=True):
        seating_wishes.keep_apart_add(club_id=club.pk, players=[a.pk, b.pk], user=director)
    browser = signed_in(director)
    page = reverse("tournaments:club_keep_apart", args=[club.slug])
    with django_assert_num_queries(6):
        response = browser.get(page)
    assert response.content.decode().count("Stop keeping") == 10


def test_the_manage_page_says_which_pairs_were_not_kept_apart(
    make_session: Callable[..., Session], club: Club, director: Any
) -> None:
    session = make_session(4, start=False)
    first, second = sorted(session.entries.values_list("player_id", flat=True))[:2]
    seating_wishes.keep_apart_add(club_id=club.pk, players=[first, second], user=director)
    browser = signed_in(director)
    started = browser.post(reverse("tournaments:start", args=[session.pk]), follow=True)
    text = started.content.decode()
    a, b = Player.objects.get(pk=first).name, Player.objects.get(pk=second).name
    assert f"{a} and {b} could not be kept apart: there is only one table." in text
    again = browser.get(reverse("tournaments:manage", args=[session.pk])).content.decode()
    assert 'id="not-kept-apart"' in again
    assert f"{a} and {b}: there is only one table." in again
