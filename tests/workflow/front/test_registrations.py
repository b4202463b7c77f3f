"""Sign-up before the night (workflow.front.registrations): capacity, the waitlist and its
order, cancellation and promotion, who may sign up, and the emails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.core.exceptions import PermissionDenied

from common.errors import ConflictError, NotFoundError, UserError
from tests.factories import PlayerFactory, UserFactory
from tournaments.models import Player, Registration, Session, SessionPlayer
from tournaments.permissions import SYSTEM
from workflow.front import registration_mail, registrations
from workflow.session import movements, services, start_finish
from workflow.session.simulation import finish_sitting_unplayed

pytestmark = pytest.mark.django_db

ANON = AnonymousUser()


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, tuple[Any, ...]]]:
    """The tasks the writes queue after commit, instead of sending them to a worker: each
    test runs them itself, on either run (eager or a real worker)."""
    seen: list[tuple[Any, tuple[Any, ...]]] = []
    monkeypatch.setattr(registrations, "enqueue_on_commit", lambda t, *a: seen.append((t, a)))
    return seen


@pytest.fixture
def night(make_session: Callable[..., Session], director: Any) -> Session:
    """A public night in check-in with nobody on the roster, sign-up open for 2."""
    session = make_session(0, start=False)
    return registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=2, user=director
    )


def sign(session: Session, name: str, **kw: Any) -> Registration:
    return registrations.registration_create(
        session_id=session.pk, name=name, user=kw.pop("user", ANON), **kw
    )


def statuses(session: Session) -> list[tuple[str, str, int | None]]:
    return [
        (r.registration.name, r.registration.status, r.position)
        for r in registrations.session_registrations(session)
    ]


def test_sign_ups_beyond_the_capacity_join_the_waitlist_in_order(night: Session) -> None:
    for name in ["Ann", "Bob", "Cy", "Di"]:
        sign(night, name)
    assert statuses(night) == [
        ("Ann", "registered", 1),
        ("Bob", "registered", 2),
        ("Cy", "waitlisted", 1),
        ("Di", "waitlisted", 2),
    ]
    on_roster = set(
        SessionPlayer.objects.filter(session=night).values_list("player__name", flat=True)
    )
    assert on_roster == {"Ann", "Bob"}
    assert not SessionPlayer.objects.filter(session=night, checked_in=True).exists()


def test_a_cancellation_moves_the_first_of_the_waitlist_up_and_emails_them(
    night: Session, queued: list[Any]
) -> None:
    ann = sign(night, "Ann", email="ann@example.org")
    sign(night, "Bob")
    cy = sign(night, "Cy", email="cy@example.org")
    sign(night, "Di")
    registrations.registration_cancel(token=ann.token)
    assert statuses(night) == [
        ("Ann", "cancelled", None),
        ("Bob", "registered", 1),
        ("Cy", "registered", 2),
        ("Di", "waitlisted", 1),
    ]
    cy.refresh_from_db()
    assert cy.promoted_at is not None
    assert not SessionPlayer.objects.filter(session=night, player__name="Ann").exists()
    assert SessionPlayer.objects.filter(session=night, player__name="Cy").exists()
    for task, args in queued:
        task(*args)
    # Ann cancelled before her email went: none is sent for a cancelled sign-up.
    assert [m.to for m in mail.outbox] == [["cy@example.org"], ["cy@example.org"]]
    assert cy.token in mail.outbox[0].body
    promoted = mail.outbox[-1]
    assert "a place came free" in promoted.body
    assert cy.token in promoted.body
    # The task run twice sends once.
    registration_mail.registration_email(cy.pk, "promoted")
    assert len(mail.outbox) == 2


def test_nobody_moves_up_while_the_roster_is_still_at_capacity(
    night: Session, director: Any
) -> None:
    ann, _, cy = sign(night, "Ann"), sign(night, "Bob"), sign(night, "Cy")
    services.session_add_players(session_id=night.pk, new_names=["Walk In"], user=director)
    registrations.registration_cancel(token=ann.token)
    cy.refresh_from_db()
    assert cy.status == "waitlisted"  # Bob and the walk-in fill the 2 places


def test_a_name_is_matched_as_find_my_table_matches(night: Session) -> None:
    rosa = PlayerFactory.create(club=night.club, name="Rosa Díaz")
    signed = sign(night, "  rosa   DIAZ ")
    assert signed.player == rosa
    assert signed.name == "rosa DIAZ"  # as typed, spaces folded; the club's record unchanged
    assert Player.objects.get(pk=rosa.pk).name == "Rosa Díaz"


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ("Anne-Marie Costello", "ANNE MARIE COSTELLO"),
        ("Pádraig McGettigan", "padraig mc gettigan"),
        ("Pete O'Brien", "pete o\u2019brien"),
        ("Ewan MacDonald", "Ewan Mac Donald"),
    ],
)
def test_a_name_typed_with_other_hyphens_spaces_or_apostrophes_is_the_club_player(
    night: Session, stored: str, typed: str
) -> None:
    player = PlayerFactory.create(club=night.club, name=stored)
    assert sign(night, typed).player == player
    assert Player.objects.filter(club=night.club).count() == 1
    with pytest.raises(ConflictError) as refused:  # the same player twice: refused
        sign(night, stored)
    assert refused.value.code == "already_registered"


def test_mc_and_mac_are_two_players_at_sign_up(night: Session) -> None:
    mc = PlayerFactory.create(club=night.club, name="Ewan McDonald")
    mac = sign(night, "Ewan Mac Donald").player
    assert mac != mc
    assert mac.name == "Ewan Mac Donald"


def test_a_new_name_makes_a_new_club_player(night: Session) -> None:
    signed = sign(night, "Newcomer Nell")
    assert signed.player.club == night.club
    assert signed.player.name == "Newcomer Nell"


def test_a_name_already_signed_up_is_refused_in_plain_words(night: Session) -> None:
    sign(night, "Ann")
    sign(night, "Bob")
    sign(night, "Cy")
    with pytest.raises(ConflictError, match="already signed up for this night and has a place"):
        sign(night, "ann")
    with pytest.raises(ConflictError, match=r"on the waitlist \(number 1\)"):
        sign(night, "CY")


def test_a_player_the_director_put_on_the_roster_need_not_sign_up(
    night: Session, director: Any
) -> None:
    services.session_add_players(session_id=night.pk, new_names=["Walk In"], user=director)
    with pytest.raises(ConflictError) as refused:
        sign(night, "walk in")
    assert refused.value.code == "already_on_roster"


def test_a_cancelled_player_may_sign_up_again_at_the_back(night: Session) -> None:
    ann = sign(night, "Ann")
    sign(night, "Bob")
    sign(night, "Cy")
    registrations.registration_cancel(token=ann.token)
    again = sign(night, "Ann")
    assert (again.status, registrations.position(again)) == ("waitlisted", 1)


@pytest.mark.parametrize(
    ("name", "email", "opt_in", "code"),
    [
        ("   ", "", False, "name_required"),
        ("...", "", False, "name_required"),
        ("A" * 61, "", False, "name_too_long"),
        ("Ann\u202e", "", False, "name_hidden_character"),
        ("Ann", "not an email", False, "email_invalid"),
        ("Ann", "", True, "email_needed"),
    ],
)
def test_a_sign_up_with_bad_input_is_refused_next_to_its_field(
    night: Session, name: str, email: str, opt_in: bool, code: str
) -> None:
    with pytest.raises(UserError) as refused:
        sign(night, name, email=email, email_assignment=opt_in)
    assert refused.value.code == code
    assert refused.value.field in ("name", "email")
    assert not Registration.objects.exists()


def test_two_club_players_with_one_match_key_are_not_guessed(night: Session) -> None:
    PlayerFactory.create(club=night.club, name="Jo Lee")
    PlayerFactory.create(club=night.club, name="Jo Leé")
    with pytest.raises(ConflictError) as refused:
        sign(night, "jo  lee.")
    assert refused.value.code == "name_ambiguous"
    assert sign(night, "jo leé").player.name == "Jo Leé"  # the exact spelling decides


def test_sign_up_is_refused_when_closed_started_or_cancelled(
    night: Session, director: Any, make_session: Callable[..., Session]
) -> None:
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=False, capacity=2, user=director
    )
    with pytest.raises(ConflictError) as closed:
        sign(night, "Ann")
    assert closed.value.code == "registration_closed"
    running = make_session(8)
    with pytest.raises(ConflictError) as started:
        sign(running, "Ann")
    assert started.value.code == "session_started"


def test_a_private_night_needs_its_invitation(night: Session, director: Any) -> None:
    services.session_update_settings(
        session_id=night.pk, games_per_sitting=2, is_public=False, double_entry=False, user=director
    )
    night.refresh_from_db()
    for stranger in (None, ANON, UserFactory.create(username="stranger")):
        with pytest.raises(PermissionDenied):
            sign(night, "Ann", user=stranger)
        with pytest.raises(PermissionDenied):
            sign(night, "Ann", user=stranger, invite="wrong")
    assert not Registration.objects.exists()
    assert len(night.registration_invite) >= 30
    assert sign(night, "Ann", invite=night.registration_invite).status == "registered"
    assert sign(night, "Bob", user=director).status == "registered"


def test_the_director_cannot_be_stood_in_for(night: Session) -> None:
    ann = sign(night, "Ann")
    for stranger in (None, ANON, UserFactory.create(username="stranger")):
        with pytest.raises(PermissionDenied):
            registrations.registration_remove(registration_id=ann.pk, user=stranger)
        with pytest.raises(PermissionDenied):
            registrations.session_registration_settings(
                session_id=night.pk, registration_open=True, capacity=None, user=stranger
            )
    ann.refresh_from_db()
    assert ann.status == "registered"


def test_a_cancellation_needs_the_personal_link(night: Session) -> None:
    with pytest.raises(NotFoundError):
        registrations.registration_cancel(token="not-a-token")
    with pytest.raises(NotFoundError):
        registrations.registration_cancel(token="")


def test_cancelling_twice_or_after_the_start_is_refused(night: Session, director: Any) -> None:
    ann, bob = sign(night, "Ann"), sign(night, "Bob")
    registrations.registration_cancel(token=ann.token)
    with pytest.raises(ConflictError) as twice:
        registrations.registration_cancel(token=ann.token)
    assert twice.value.code == "already_cancelled"
    sign(night, "Cy")
    sign(night, "Di")
    night.entries.update(checked_in=True)
    with pytest.raises(ConflictError) as checked:
        registrations.registration_cancel(token=bob.token)
    assert checked.value.code == "checked_in"
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=True, capacity=None, user=director
    )
    night.entries.update(checked_in=True)
    start_finish.session_start(session_id=night.pk, user=director)
    with pytest.raises(ConflictError) as started:
        registrations.registration_remove(registration_id=bob.pk, user=director)
    assert started.value.code == "session_started"


def test_raising_the_capacity_moves_the_waitlist_up_and_lowering_it_drops_nobody(
    night: Session, director: Any
) -> None:
    for name in ["Ann", "Bob", "Cy", "Di", "Ed"]:
        sign(night, name)
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=True, capacity=3, user=director
    )
    assert [s for _, s, _ in statuses(night)] == ["registered"] * 3 + ["waitlisted"] * 2
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=True, capacity=1, user=director
    )
    assert [s for _, s, _ in statuses(night)] == ["registered"] * 3 + ["waitlisted"] * 2
    assert night.entries.count() == 3
    ann = Registration.objects.get(name="Ann")
    registrations.registration_cancel(token=ann.token)  # 2 left, still above 1: nobody up
    assert [s for _, s, _ in statuses(night)][1:] == ["registered"] * 2 + ["waitlisted"] * 2
    registrations.session_registration_settings(
        session_id=night.pk, registration_open=True, capacity=None, user=director
    )
    assert [s for _, s, _ in statuses(night)][1:] == ["registered"] * 4


def test_the_capacity_is_at_least_one(night: Session, director: Any) -> None:
    with pytest.raises(UserError) as refused:
        registrations.session_registration_settings(
            session_id=night.pk, registration_open=True, capacity=0, user=director
        )
    assert (refused.value.code, refused.value.field) == ("capacity_invalid", "capacity")


def test_the_director_removes_a_sign_up_and_the_waitlist_moves_up(
    night: Session, director: Any
) -> None:
    ann = sign(night, "Ann")
    sign(night, "Bob")
    cy = sign(night, "Cy")
    registrations.registration_remove(registration_id=ann.pk, user=director)
    cy.refresh_from_db()
    assert cy.status == "registered"


def test_registered_players_are_checked_in_with_the_roster_service(
    night: Session, director: Any
) -> None:
    ann = sign(night, "Ann")
    services.session_check_in(
        session_id=night.pk, player_ids=[ann.player_id], checked_in=True, user=director
    )
    [row] = registrations.session_registrations(night)
    assert (row.on_roster, row.checked_in) == (True, True)


def test_the_assignment_email_goes_only_to_those_who_asked_and_moved(
    make_session: Callable[..., Session], director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    session = make_session(0, start=False)
    registrations.session_registration_settings(
        session_id=session.pk, registration_open=True, capacity=None, user=director
    )
    names = [f"Player {i}" for i in range(8)]
    signed = {
        n: sign(session, n, email=f"p{i}@example.org", email_assignment=i < 6)
        for i, n in enumerate(names)
    }
    session.entries.update(checked_in=True)
    start_finish.session_start(session_id=session.pk, user=director)
    finish_sitting_unplayed(session.sittings.get(), random.Random(3))
    queued: list[tuple[Any, tuple[Any, ...]]] = []
    monkeypatch.setattr(movements, "enqueue_on_commit", lambda t, *a: queued.append((t, a)))
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=SYSTEM)
    assert [(t.name, a) for t, a in queued] == [
        ("workflow.tasks.assignment_emails", (session.pk, 2))
    ]
    mail.outbox.clear()
    sent = queued[0][0](*queued[0][1])
    rank = {
        (s.sitting.number, s.player.name): s.table.rank
        for s in session.sittings.first().seatings.select_related("sitting", "player", "table")
    } | {
        (s.sitting.number, s.player.name): s.table.rank
        for s in session.sittings.last().seatings.select_related("sitting", "player", "table")
    }
    moved = {n for n in names[:6] if rank[(1, n)] != rank[(2, n)]}
    assert moved, "the movement moved someone who asked"
    assert sent == len(moved)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(signed[n].email for n in moved)
    assert queued[0][0](*queued[0][1]) == 0  # run twice: sent once
