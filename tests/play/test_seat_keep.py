"""The seat link a player's phone keeps (play.seat_keep): the door's check-in and the
sign-up make the player's seat link on a night that plays online, give it to that phone
only, and never to anyone else; a paper night makes none. The pages that hand it over
are tests/web/test_door_pages.py and tests/web/test_registration_pages.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from common.errors import UserError
from play import seat_keep
from play import services as play_services
from play.models import SeatLink
from tests.rows import make_door_night
from tournaments.models import Registration, Session, SessionPlayer
from tournaments.permissions import SYSTEM
from workflow.front import registrations

pytestmark = pytest.mark.django_db

ANON = AnonymousUser()


@pytest.fixture
def door_night(club: Any, season: Any, director: Any) -> Callable[..., Session]:
    """The door's night of tests.rows (door code 4821), online or on paper."""

    def make(*, online: bool) -> Session:
        session = make_door_night(club, season, director)
        Session.objects.filter(pk=session.pk).update(online=online)
        session.refresh_from_db()
        return session

    return make


def arrive(session: Session, name: str, code: str = "4821") -> seat_keep.DoorArrival:
    return seat_keep.door_check_in(
        session_id=session.pk, name=name, door_code=code, client="10.0.0.9", user=SYSTEM
    )


def link_of(session: Session, name: str) -> SeatLink | None:
    return SeatLink.objects.filter(session=session, player__name=name).first()


def test_checking_in_at_the_door_of_an_online_night_gives_that_phone_the_players_link(
    door_night: Callable[..., Session],
) -> None:
    night = door_night(online=True)
    arrival = arrive(night, "rosa diaz")
    assert arrival.checked_in.name == "Rosa Díaz"
    assert SessionPlayer.objects.get(session=night, player__name="Rosa Díaz").checked_in
    kept = link_of(night, "Rosa Díaz")
    assert kept is not None
    assert arrival.seat_link == kept
    # Only hers: the others at the door have none yet.
    assert SeatLink.objects.filter(session=night).count() == 1


def test_a_name_checked_in_already_is_given_no_link(
    door_night: Callable[..., Session],
) -> None:
    night = door_night(online=True)
    first = arrive(night, "Ann Lee")
    again = arrive(night, "ann lee")  # another phone in the room, typing her name
    assert again.checked_in.already
    assert again.seat_link is None
    assert first.seat_link is not None
    assert SeatLink.objects.filter(session=night).count() == 1


def test_a_paper_night_makes_no_link_at_the_door(door_night: Callable[..., Session]) -> None:
    night = door_night(online=False)
    arrival = arrive(night, "Bob Stone")
    assert arrival.checked_in.name == "Bob Stone"
    assert arrival.seat_link is None
    assert not SeatLink.objects.filter(session=night).exists()


def test_a_refused_check_in_makes_no_link_and_checks_nobody_in(
    door_night: Callable[..., Session],
) -> None:
    night = door_night(online=True)
    with pytest.raises(UserError) as refused:
        arrive(night, "Cy Young", code="1111")
    assert refused.value.code == "wrong_door_code"
    assert not SeatLink.objects.filter(session=night).exists()
    assert not SessionPlayer.objects.filter(session=night, checked_in=True).exists()


def test_a_player_who_has_a_link_keeps_the_same_one(door_night: Callable[..., Session]) -> None:
    night = door_night(online=True)
    player = SessionPlayer.objects.get(session=night, player__name="Anna Berg").player
    made = SeatLink.objects.create(session=night, player=player)
    assert arrive(night, "Anna Berg").seat_link == made
    assert SeatLink.objects.filter(session=night).count() == 1


@pytest.fixture
def sign_up_night(make_session: Callable[..., Session], director: Any) -> Callable[..., Session]:
    """A public night in check-in, sign-up open for 2, online or on paper."""

    def make(*, online: bool) -> Session:
        session = make_session(0, start=False)
        Session.objects.filter(pk=session.pk).update(online=online)
        return registrations.session_registration_settings(
            session_id=session.pk, registration_open=True, capacity=2, user=director
        )

    return make


def sign(session: Session, name: str) -> Registration:
    return seat_keep.registration_sign_up(session_id=session.pk, name=name, user=ANON)


def test_a_sign_up_that_takes_a_place_on_an_online_night_makes_the_players_link(
    sign_up_night: Callable[..., Session],
) -> None:
    night = sign_up_night(online=True)
    ann = sign(night, "Ann")
    assert ann.status == Registration.Status.REGISTERED
    link = link_of(night, "Ann")
    assert link is not None
    assert seat_keep.registration_link(ann) == link


def test_the_waitlist_and_a_cancelled_sign_up_are_given_no_link(
    sign_up_night: Callable[..., Session],
) -> None:
    night = sign_up_night(online=True)
    sign(night, "Ann")
    bob = sign(night, "Bob")
    cy = sign(night, "Cy")  # beyond the capacity of 2
    assert cy.status == Registration.Status.WAITLISTED
    assert link_of(night, "Cy") is None
    assert seat_keep.registration_link(cy) is None
    registrations.registration_cancel(token=bob.token)
    bob.refresh_from_db()
    assert seat_keep.registration_link(bob) is None  # his link stays with his record only
    # Cy moved up into Bob's place: his page gives his link once one is made for him.
    cy.refresh_from_db()
    assert cy.status == Registration.Status.REGISTERED
    assert seat_keep.registration_link(cy) is None
    made = SeatLink.objects.create(session=night, player=cy.player)
    assert seat_keep.registration_link(cy) == made


def test_a_paper_night_makes_no_link_at_sign_up(sign_up_night: Callable[..., Session]) -> None:
    night = sign_up_night(online=False)
    ann = sign(night, "Ann")
    assert ann.status == Registration.Status.REGISTERED
    assert seat_keep.registration_link(ann) is None
    assert not SeatLink.objects.filter(session=night).exists()


def test_a_refused_sign_up_makes_no_link(sign_up_night: Callable[..., Session]) -> None:
    night = sign_up_night(online=True)
    sign(night, "Ann")
    with pytest.raises(UserError) as refused:
        sign(night, "ann")
    assert refused.value.code == "already_registered"
    assert SeatLink.objects.filter(session=night).count() == 1


def test_a_hybrid_night_plays_online_once_a_table_does(
    make_session: Callable[..., Session], director: Any
) -> None:
    night = make_session(8)
    assert not seat_keep.plays_online(night)
    table = night.sittings.get().tables.get(rank=2)
    play_services.table_online_set(table_id=table.pk, online=True, user=director)
    assert seat_keep.plays_online(night)
