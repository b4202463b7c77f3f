"""Sign-up before the night, with a capacity and a waitlist (docs/tournament.md, "Sign-up
and the waitlist"; docs/api.md, Registrations).

- A session in check-in (`setup`) whose director opened sign-up (`registration_open`)
  takes sign-ups: from anyone when it is public, with its invitation link
  (`registration_invite`) when it is private, and from its directors always
  (`may_sign_up`).
- Every player on the roster takes a place, whether they signed up or the director added
  them; while the roster is below the `capacity` (or there is none) a sign-up is
  `registered` and goes on the roster (not checked in), otherwise it is `waitlisted`, in
  the order of signing up (`Registration.number`).
- A cancellation takes the player off the roster (unless checked in: then it is
  refused) and, in the same transaction, moves the first of the waitlist up into every
  place now free; raising the capacity does the same. Lowering it drops nobody: the
  roster stays, and new sign-ups wait until places free up.

Every write here locks the session first (`scoring.locks.lock_session`), so sign-ups,
cancellations and promotions of one session run one at a time: numbers and positions
are never given twice, and a place freed is given once. Emails go after commit, from
the Celery task of `workflow.front.tasks`, only to those who gave an address.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from common.errors import ConflictError, NotFoundError, UserError
from common.matching import match_key, spelled
from common.tasks import enqueue_on_commit
from common.text import refuse_hidden_characters
from common.tokens import is_token
from scoring.locks import lock_session
from tournaments import audit, pagecache
from tournaments.models import Club, Player, Registration, Session, SessionPlayer
from tournaments.permissions import (
    Actor,
    Caller,
    User,
    can_direct,
    can_view_session,
    require_director,
)
from workflow.front import tasks

Status = Registration.Status
#: The largest capacity a session may have (more is no limit at all: leave it empty).
MAX_CAPACITY = 10_000


def may_sign_up(who: Actor | User, session: Session, invite: str = "") -> bool:
    """Whether `who` may sign up for `session` (its state aside): a public session is
    open to anyone; a private one to those who hold its invitation, or may see it
    (its directors, its roster)."""
    if session.is_public or can_direct(who, session.club_id):
        return True
    # `compare_digest` takes ASCII only: anything no token could be is a wrong invitation.
    if is_token(invite) and session.registration_invite:
        return secrets.compare_digest(invite, session.registration_invite)
    return can_view_session(who, session)


def signup_refusal(session: Session) -> ConflictError | None:
    """Why `session` takes no sign-up now, in words that say what to do; None when it
    does. The sign-up page shows it instead of the form."""
    if session.status == Session.Status.CANCELLED:
        return ConflictError("session_cancelled", gettext("This night is cancelled."))
    if session.status != Session.Status.SETUP:
        return ConflictError(
            "session_started",
            gettext("This night has started: sign-up is over. Ask the director at the door."),
        )
    if not session.registration_open:
        return ConflictError(
            "registration_closed",
            gettext("Sign-up for this night is closed. Ask the club's director."),
        )
    return None


def places_taken(session: Session) -> int:
    """Players on the roster, signed up or added by the director: each takes a place."""
    return SessionPlayer.objects.filter(session=session, withdrawn_at__isnull=True).count()


def position(registration: Registration) -> int | None:
    """Its place in its own list, 1 first: among the registered, or on the waitlist (1 is
    the next to move up), in the order of signing up; None once cancelled."""
    if registration.status == Status.CANCELLED:
        return None
    return Registration.objects.filter(
        session_id=registration.session_id,
        status=registration.status,
        number__lte=registration.number,
    ).count()


@dataclass(frozen=True)
class Row:
    """A sign-up on the director's list, with its place and whether they are checked in."""

    registration: Registration
    position: int | None
    on_roster: bool
    checked_in: bool


def session_registrations(session: Session) -> list[Row]:
    """Everyone who signed up, in the order of signing up, with their status and place
    (two queries). For the director: the page and the API check who asks."""
    registrations = list(
        Registration.objects.filter(session=session).select_related("player").order_by("number")
    )
    entries = dict(
        SessionPlayer.objects.filter(session=session, withdrawn_at__isnull=True).values_list(
            "player_id", "checked_in"
        )
    )
    counted = {Status.REGISTERED: 0, Status.WAITLISTED: 0}
    rows = []
    for r in registrations:
        place = None
        if r.status in counted:
            counted[Status(r.status)] += 1
            place = counted[Status(r.status)]
        rows.append(
            Row(
                registration=r,
                position=place,
                on_roster=r.player_id in entries,
                checked_in=bool(entries.get(r.player_id)),
            )
        )
    return rows


def registration_by_token(token: str) -> Registration:
    """The sign-up a personal link opens, or a 404 in plain words."""
    found = (
        Registration.objects.select_related("session__club", "player").filter(token=token).first()
        if token
        else None
    )
    if found is None:
        raise NotFoundError(
            "registration_not_found",
            gettext("No sign-up has this link. Check the link, or sign up again."),
        )
    return found


def _clean_name(name: str) -> str:
    refuse_hidden_characters(name, what=gettext_noop("Names"), field="name")
    cleaned = " ".join(name.split())
    if not match_key(cleaned):
        raise UserError("name_required", gettext("Type your name."), field="name")
    if len(cleaned) > 60:
        raise UserError("name_too_long", gettext("A name has at most 60 characters."), field="name")
    return cleaned


def _clean_email(email: str, email_assignment: bool) -> str:
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise UserError(
                "email_invalid",
                gettext("“%(email)s” is not an email address. Correct it, or leave it empty.")
                % {"email": email[:60]},
                field="email",
            ) from None
    elif email_assignment:
        raise UserError(
            "email_needed",
            gettext("Give an email address to get your table by email, or untick that box."),
            field="email",
        )
    return email


def _player_for(club: Club, name: str) -> Player:
    """The club's player this name is, matched as "find my table" matches (case, accents,
    punctuation, spaces, Mc/Mac joins: `common.matching.match_key`), or a new player with
    the name as typed. Of two players of that key, the one written as typed."""
    key = match_key(name)
    same = [p for p in Player.objects.filter(club=club) if match_key(p.name) == key]
    exact = [p for p in same if spelled(p.name) == spelled(name)]
    if len(same) > 1 and len(exact) != 1:
        raise ConflictError(
            "name_ambiguous",
            gettext(
                "The club has %(n_same)s players with that name (%(join)s): type yours "
                "exactly as the club writes it, or ask the director."
            )
            % {"n_same": len(same), "join": ", ".join(p.name for p in same)},
            field="name",
        )
    if same:
        player = exact[0] if exact else same[0]
        if not player.active:  # signing up means they are back
            Player.objects.filter(pk=player.pk).update(active=True)
        return player
    # get_or_create: the same new name signing up for two nights at once is one player.
    return Player.objects.get_or_create(club=club, name=name)[0]


def _refuse_twice(session: Session, player: Player) -> None:
    earlier = (
        Registration.objects.filter(session=session, player=player)
        .exclude(status=Status.CANCELLED)
        .first()
    )
    if earlier is not None:
        where = (
            gettext("has a place")
            if earlier.status == Status.REGISTERED
            else gettext("is on the waitlist (number %(number)s)") % {"number": position(earlier)}
        )
        raise ConflictError(
            "already_registered",
            gettext(
                "%(player)s is already signed up for this night and %(where)s. Open the "
                "personal link you got when you signed up to see it or cancel it; a "
                "sign-up under the same name again is refused."
            )
            % {"player": player.name, "where": where},
            field="name",
        )
    if SessionPlayer.objects.filter(session=session, player=player).exists():
        raise ConflictError(
            "already_on_roster",
            gettext("%(player)s is already on this night's roster: no need to sign up.")
            % {"player": player.name},
            field="name",
        )


@transaction.atomic
def registration_create(
    *,
    session_id: int,
    name: str,
    email: str = "",
    email_assignment: bool = False,
    invite: str = "",
    site: str = "",
    user: Caller,
) -> Registration:
    """Sign `name` up for the night: registered while places are left, else on the
    waitlist. `site` is where they signed up (scheme and host), for their emails' links.
    Open to the public (`may_sign_up`); a name already signed up is refused
    (`already_registered`): their own link, not a second sign-up, shows it."""
    session = lock_session(session_id)
    if not may_sign_up(user, session, invite):
        raise PermissionDenied(
            gettext(
                "This night is private: sign up with the invitation link the director gave you."
            )
        )
    refusal = signup_refusal(session)
    if refusal is not None:
        raise refusal
    typed = _clean_name(name)
    email = _clean_email(email, email_assignment)
    player = _player_for(session.club, typed)
    _refuse_twice(session, player)
    number = (Registration.objects.filter(session=session).aggregate(m=Max("number"))["m"] or 0) + 1
    full = session.capacity is not None and places_taken(session) >= session.capacity
    registration = Registration.objects.create(
        session=session,
        player=player,
        name=typed,
        email=email,
        email_assignment=email_assignment,
        status=Status.WAITLISTED if full else Status.REGISTERED,
        number=number,
        token=secrets.token_urlsafe(24),
        site=site[:200],
    )
    if not full:
        SessionPlayer.objects.create(session=session, player=player)
        pagecache.board_changed(session.pk)
    if email:
        enqueue_on_commit(tasks.registration_email, registration.pk, "signed_up")
    return registration


def _promote(session: Session) -> list[Registration]:
    """Move the first of the waitlist up into every free place, in order."""
    if session.status != Session.Status.SETUP:
        return []
    waiting = Registration.objects.filter(session=session, status=Status.WAITLISTED).order_by(
        "number"
    )
    if session.capacity is not None:
        free = session.capacity - places_taken(session)
        if free <= 0:
            return []
        waiting = waiting[:free]
    promoted = list(waiting)
    now = timezone.now()
    for registration in promoted:
        registration.status = Status.REGISTERED
        registration.promoted_at = now
        registration.save(update_fields=["status", "promoted_at"])
        SessionPlayer.objects.get_or_create(session=session, player_id=registration.player_id)
        if registration.email:
            enqueue_on_commit(tasks.registration_email, registration.pk, "promoted")
    if promoted:
        pagecache.board_changed(session.pk)
    return promoted


def _cancel(session: Session, registration_id: int) -> Registration:
    registration = Registration.objects.select_related("player").get(pk=registration_id)
    if registration.status == Status.CANCELLED:
        raise ConflictError("already_cancelled", gettext("This sign-up is already cancelled."))
    if session.status != Session.Status.SETUP:
        raise ConflictError(
            "session_started",
            gettext(
                "This night has started or is over: a sign-up can no longer be "
                "cancelled. Tell the director."
            ),
        )
    entry = SessionPlayer.objects.filter(session=session, player=registration.player).first()
    held_a_place = registration.status == Status.REGISTERED
    if held_a_place and entry is not None and entry.checked_in:
        raise ConflictError(
            "checked_in",
            gettext(
                "%(player)s is checked in already: ask the director to take the "
                "check-in back first."
            )
            % {"player": registration.player.name},
        )
    registration.status = Status.CANCELLED
    registration.cancelled_at = timezone.now()
    registration.save(update_fields=["status", "cancelled_at"])
    if held_a_place and entry is not None:
        entry.delete()
        pagecache.board_changed(session.pk)
    _promote(session)
    return registration


@transaction.atomic
def registration_cancel(*, token: str) -> Registration:
    """Cancel the sign-up this personal link opens (holding the link is the permission),
    moving the first of the waitlist up at once."""
    found = registration_by_token(token)
    session = lock_session(found.session_id)
    return _cancel(session, found.pk)


@transaction.atomic
def registration_remove(*, registration_id: int, user: Caller) -> Registration:
    """A director cancels someone's sign-up (they phoned to say so), as their link would."""
    session_id = (
        Registration.objects.filter(pk=registration_id).values_list("session_id", flat=True).first()
    )
    if session_id is None:
        raise NotFoundError("registration_not_found", gettext("There is no such sign-up."))
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("cancel sign-ups"))
    cancelled = _cancel(session, registration_id)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="registration.cancel",
        summary=f"Cancelled the sign-up of {cancelled.player.name}",
        details={"registration_id": cancelled.pk, "player_id": cancelled.player_id},
    )
    return cancelled


def _capacity(given: int | str | None) -> int | None:
    """The capacity a director gave: a number, empty for no limit, or a refusal that
    quotes what was typed."""
    if given is None or isinstance(given, int):
        return given
    text = given.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise UserError(
            "capacity_invalid",
            gettext(
                "“%(given)s” is not a number of players: write a whole number such as "
                "24, or leave it empty for no limit."
            )
            % {"given": given},
            field="capacity",
        )
    return int(text)


@transaction.atomic
def session_registration_settings(
    *, session_id: int, registration_open: bool, capacity: int | str | None, user: Caller
) -> Session:
    """Open or close sign-up and set the capacity (None or empty text: no limit; text is
    read as a whole number, as a person typed it). A higher capacity (or none) moves the
    waitlist up at once; a lower one than the roster drops nobody."""
    session = lock_session(session_id)
    require_director(user, session.club_id, to=gettext_noop("change its sessions"))
    capacity = _capacity(capacity)
    if capacity is not None and not 1 <= capacity <= MAX_CAPACITY:
        raise UserError(
            "capacity_invalid",
            gettext(
                "The capacity is a number of players, from 1 to %(MAX_CAPACITY)s; leave "
                "it empty for no limit."
            )
            % {"MAX_CAPACITY": MAX_CAPACITY},
            field="capacity",
        )
    if session.status != Session.Status.SETUP and (
        registration_open != session.registration_open or capacity != session.capacity
    ):
        raise ConflictError(
            "session_started",
            gettext(
                "This night has started (or is over or cancelled): sign-up can no longer change."
            ),
        )
    changed = audit.changes(
        {"registration_open": session.registration_open, "capacity": session.capacity},
        {"registration_open": registration_open, "capacity": capacity},
    )
    if registration_open != session.registration_open:
        # The session's public page links the sign-up while it is open: a new generation.
        pagecache.live_changed(session.pk)
    session.registration_open = registration_open
    session.capacity = capacity
    if registration_open and not session.registration_invite:
        session.registration_invite = secrets.token_urlsafe(24)
    session.save(update_fields=["registration_open", "capacity", "registration_invite"])
    _promote(session)
    audit.record(
        user,
        club=session.club_id,
        session=session,
        action="registration.settings",
        summary="Sign-up: "
        + (audit.said(changed, {"registration_open": "open", "capacity": "capacity"}) or "saved"),
        details=changed,
    )
    return session
