"""The sign-up pages: the public sign-up page, a sign-up's personal page (with the
player's seat link on a night that plays online) and its cancellation, and the director's
list with its settings, one-tap check-in and cancelling (web/views/registrations.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from django.test import Client

from play.models import SeatLink
from tests.factories import UserFactory
from tournaments.models import Registration, Session, SessionPlayer
from workflow.front import registrations
from workflow.session import services, withdrawals

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_session: Callable[..., Session], director: Any) -> Session:
    session = make_session(0, start=False)
    return registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=1, user=director
    )


@pytest.fixture
def boss(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def url(session: Session) -> str:
    return f"/sessions/{session.pk}/register/"


def test_on_an_online_night_the_sign_ups_page_gives_its_own_seat_link_and_nobody_elses(
    night: Session,
) -> None:
    Session.objects.filter(pk=night.pk).update(online=True)
    signed = Client().post(url(night), {"name": "Ann", "email": ""})
    ann = Registration.objects.get(name="Ann")
    token = SeatLink.objects.get(session=night, player=ann.player).token
    mine = Client().get(signed["Location"])
    html = mine.content.decode()
    assert f'data-keep-seat="{night.pk}:{ann.player_id}"' in html
    assert f'data-seat-url="/play/{token}/"' in html  # kept by static/seat_keep.js
    assert 'src="/static/seat_keep.js"' in html
    assert mine["Cache-Control"] == "no-store"
    # Bob is on the waitlist (one place): no link, on his page or anywhere else.
    Client().post(url(night), {"name": "Bob", "email": ""})
    bob = Registration.objects.get(name="Bob")
    assert bob.status == Registration.Status.WAITLISTED
    assert "/play/" not in Client().get(f"/registrations/{bob.token}/").content.decode()
    # Ann cancels: her page gives her link no more, and Bob's gives him none of hers.
    Client().post(f"/registrations/{ann.token}/cancel/")
    assert "/play/" not in Client().get(f"/registrations/{ann.token}/").content.decode()
    moved_up = Client().get(f"/registrations/{bob.token}/").content.decode()
    assert "you are <strong>registered</strong>" in moved_up
    assert token not in moved_up


def test_a_paper_nights_sign_up_page_has_no_seat_link(night: Session) -> None:
    signed = Client().post(url(night), {"name": "Ann", "email": ""})
    html = Client().get(signed["Location"]).content.decode()
    assert "you are <strong>registered</strong>" in html
    assert "/play/" not in html
    assert not SeatLink.objects.filter(session=night).exists()


def test_a_phone_signs_up_and_lands_on_its_personal_page(night: Session) -> None:
    page = Client().get(url(night))
    assert page.status_code == 200
    assert "0 of 1 places taken" in page.content.decode()
    signed = Client().post(url(night), {"name": "Ann", "email": ""})
    ann = Registration.objects.get(name="Ann")
    assert signed.status_code == 302
    assert signed["Location"] == f"/registrations/{ann.token}/"
    mine = Client().get(signed["Location"])
    assert "you are <strong>registered</strong>" in mine.content.decode()
    assert mine["Referrer-Policy"] == "same-origin"
    full = Client().get(url(night)).content.decode()
    assert "the night is full, so you join the waitlist" in full
    Client().post(url(night), {"name": "Bob"})
    bob = Registration.objects.get(name="Bob")
    assert (
        "on the waitlist, position 1"
        in Client().get(f"/registrations/{bob.token}/").content.decode()
    )


def test_cancelling_asks_first_then_moves_the_waitlist_up(night: Session) -> None:
    Client().post(url(night), {"name": "Ann"})
    Client().post(url(night), {"name": "Bob"})
    ann, bob = Registration.objects.get(name="Ann"), Registration.objects.get(name="Bob")
    asked = Client().get(f"/registrations/{ann.token}/cancel/")
    assert asked.status_code == 200
    assert "Your place goes at once to the first on the waitlist" in asked.content.decode()
    ann.refresh_from_db()
    assert ann.status == "registered"  # asking changed nothing
    done = Client().post(f"/registrations/{ann.token}/cancel/", follow=True)
    assert "Your sign-up is cancelled." in done.content.decode()
    bob.refresh_from_db()
    assert bob.status == "registered"
    twice = Client().post(f"/registrations/{ann.token}/cancel/", follow=True)
    assert "already cancelled" in twice.content.decode()


def test_an_unknown_personal_link_is_a_404(night: Session) -> None:
    assert Client().get("/registrations/nope/").status_code == 404
    assert Client().post("/registrations/nope/cancel/").status_code == 404


def test_a_refused_sign_up_keeps_what_was_typed_and_says_why(night: Session) -> None:
    answer = Client().post(url(night), {"name": "Ann Smith", "email": "ann at home"})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "is not an email address" in html
    assert 'value="Ann Smith"' in html
    assert 'value="ann at home"' in html
    assert not Registration.objects.exists()


def test_a_closed_night_shows_why_instead_of_the_form(night: Session, director: Any) -> None:
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=False, capacity=None, user=director
    )
    page = Client().get(url(night)).content.decode()
    assert "Sign-up for this night is closed" in page
    assert 'name="name"' not in page
    assert Client().post(url(night), {"name": "Ann"}).status_code == 409
    assert not Registration.objects.exists()


def test_a_private_night_needs_its_invitation_link(night: Session, director: Any) -> None:
    services.session_update_settings(
        session_id=night.pk, games_per_sitting=2, is_public=False, double_entry=False, user=director
    )
    night.refresh_from_db()
    assert Client().get(url(night)).status_code == 404
    assert Client().post(url(night), {"name": "Ann"}).status_code == 404
    invited = f"{url(night)}?invite={night.registration_invite}"
    assert Client().get(invited).status_code == 200
    signed = Client().post(invited, {"name": "Ann", "invite": night.registration_invite})
    assert signed.status_code == 302


def test_an_invitation_no_token_could_be_is_a_wrong_one(night: Session, director: Any) -> None:
    """A letter outside ASCII, a NUL: refused as a wrong invitation, never a 500."""
    services.session_update_settings(
        session_id=night.pk, games_per_sitting=2, is_public=False, double_entry=False, user=director
    )
    wrong = Client().get(f"{url(night)}?invite=wrong")
    assert wrong.status_code == 404
    for invite in ("%C3%A9t%C3%A9", "%00", "a" * 65):
        got = Client(raise_request_exception=False).get(f"{url(night)}?invite={invite}")
        assert (got.status_code, got.content) == (404, wrong.content), invite
        sent = Client(raise_request_exception=False).post(
            url(night), {"name": "Ann", "invite": unquote(invite)}
        )
        assert sent.status_code == 404, invite
    assert not Registration.objects.exists()


def test_sign_ups_from_one_address_are_limited(night: Session, settings: Any) -> None:
    settings.HUCKLEY_REGISTRATIONS_PER_HOUR = 1
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=True, capacity=None, user=night.club.directors.get()
    )
    assert Client().post(url(night), {"name": "Ann"}).status_code == 302
    answer = Client().post(url(night), {"name": "Bob"})
    assert answer.status_code == 429
    assert "Too many sign-ups from here" in answer.content.decode()


def test_the_public_page_links_the_sign_up_while_it_is_open(night: Session, director: Any) -> None:
    assert url(night) in Client().get(f"/sessions/{night.pk}/").content.decode()
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=False, capacity=1, user=director
    )
    assert url(night) not in Client().get(f"/sessions/{night.pk}/").content.decode()


# The director's list: the session, the sign-ups with their players, the roster's
# check-ins, the places taken, and what every signed-in page reads (the account, its
# browser session, its messages).
QUERIES = 7


def test_only_the_director_sees_the_list(night: Session, boss: Client) -> None:
    list_url = f"/director/sessions/{night.pk}/registrations/"
    assert Client().get(list_url).status_code == 302  # to sign in
    stranger = Client()
    stranger.force_login(UserFactory.create(username="stranger"))
    assert stranger.get(list_url).status_code == 403
    assert stranger.post(f"{list_url}settings/", {"registration_open": "on"}).status_code == 403
    assert boss.get(list_url).status_code == 200


def test_the_directors_list_is_a_fixed_number_of_queries(
    night: Session, boss: Client, django_assert_num_queries: Any
) -> None:
    list_url = f"/director/sessions/{night.pk}/registrations/"
    Client().post(url(night), {"name": "Ann"})
    boss.get(list_url)
    with django_assert_num_queries(QUERIES):
        boss.get(list_url)
    for name in [f"Late {i}" for i in range(20)]:
        Client().post(url(night), {"name": name})
    with django_assert_num_queries(QUERIES):
        page = boss.get(list_url)
    html = page.content.decode()
    assert "Registered 1" in html
    assert "Waitlist 20" in html


def test_the_director_checks_a_registered_player_in_with_one_tap(
    night: Session, boss: Client
) -> None:
    Client().post(url(night), {"name": "Ann"})
    ann = Registration.objects.get(name="Ann")
    page = boss.get(f"/director/sessions/{night.pk}/registrations/").content.decode()
    assert f'aria-label="Check {ann.name} in"' in page
    done = boss.post(
        f"/director/sessions/{night.pk}/registrations/check-in/", {"player": ann.player_id}
    )
    assert done.status_code == 302
    assert SessionPlayer.objects.get(session=night, player=ann.player).checked_in


def test_the_director_saves_the_settings_and_cancels_a_sign_up(
    night: Session, boss: Client
) -> None:
    Client().post(url(night), {"name": "Ann"})
    Client().post(url(night), {"name": "Bob"})
    base = f"/director/sessions/{night.pk}/registrations/"
    wrong = boss.post(f"{base}settings/", {"registration_open": "on", "capacity": "0"}, follow=True)
    assert "from 1 to" in wrong.content.decode()
    # What was typed comes back, with the refusal in words, and nothing is saved.
    night.refresh_from_db()
    before = (night.registration_open, night.capacity)
    typed = boss.post(f"{base}settings/", {"registration_open": "on", "capacity": "two dozen"})
    assert typed.status_code == 400
    page = typed.content.decode()
    assert "“two dozen” is not a number of players" in page
    assert 'value="two dozen"' in page
    night.refresh_from_db()
    assert (night.registration_open, night.capacity) == before
    ann = Registration.objects.get(name="Ann")
    asked = boss.get(f"{base}{ann.pk}/cancel/")
    assert "Cancel Ann" in asked.content.decode()
    boss.post(f"{base}{ann.pk}/cancel/")
    assert Registration.objects.get(name="Bob").status == "registered"
    boss.post(f"{base}settings/", {"capacity": ""})
    night.refresh_from_db()
    assert (night.registration_open, night.capacity) == (False, None)
    manage = boss.get(f"/director/sessions/{night.pk}/").content.decode()
    assert base in manage


def test_the_director_is_given_a_private_nights_link_with_its_invitation(
    night: Session, director: Any, boss: Client
) -> None:
    list_url = f"/director/sessions/{night.pk}/registrations/"
    assert "?invite=" not in boss.get(list_url).content.decode()
    services.session_update_settings(
        session_id=night.pk, games_per_sitting=2, is_public=False, double_entry=False, user=director
    )
    night.refresh_from_db()
    page = boss.get(list_url).content.decode()
    assert f"{url(night)}?invite={night.registration_invite}" in page


def test_a_signed_up_player_taken_off_the_roster_is_marked_on_the_list(
    night: Session, director: Any, boss: Client
) -> None:
    Client().post(url(night), {"name": "Ann"})
    ann = Registration.objects.get(name="Ann")
    withdrawals.session_withdraw(session_id=night.pk, player_id=ann.player_id, user=director)
    page = boss.get(f"/director/sessions/{night.pk}/registrations/").content.decode()
    assert "taken off the roster: cancel the sign-up" in page
