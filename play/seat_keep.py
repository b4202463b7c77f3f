"""The seat link a player's own phone keeps (docs/tournament.md, "Your seat link on your
phone"): a player who checks in at the door or signs up on their phone is given their seat
link there, and the phone keeps it, so that when "Find my table" or "Follow my table" on
that phone finds them at an online table (a movement, or a table switched online, in the
middle of the night) it offers "Play at your seat" without the director.

The check-in and the sign-up are the workflow's own services
(`workflow.front.door.self_check_in`, `workflow.front.registrations.registration_create`),
which know nothing of online play (play sits above the workflow); here each runs with the
making of the link, in one transaction, under the session's lock that the service takes
first (`scoring.locks`). A link is made when the session plays online at some table
(`plays_online`) and the player has none.

Who is given a link, and nobody else: the phone that checked the player in at the door
just now (a name already checked in is told so and gets nothing: the door code is the
secret of the room, not of the player), and whoever holds the sign-up's personal link
while the sign-up holds a place. Pages anyone can open (find my table, follow, the
API's sitting) never carry a seat token: the phone shows the link it kept itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from play.models import SeatLink
from tournaments.models import Registration, Session, Table
from tournaments.permissions import Caller
from workflow.front import door, registrations


def plays_online(session: Session) -> bool:
    """Whether any table of the session plays online, or will: a session created online
    deals every table online; a hybrid night has its tables switched one by one."""
    return session.online or Table.objects.filter(sitting__session=session, online=True).exists()


def _link_for(session: Session, player_id: int) -> SeatLink | None:
    """The player's seat link of the session: the one they have, else a new one when the
    session plays online (a paper night makes none)."""
    link = SeatLink.objects.filter(session=session, player_id=player_id).first()
    if link is None and plays_online(session):
        link = SeatLink.objects.create(session=session, player_id=player_id)
    return link


@dataclass(frozen=True)
class DoorArrival:
    """What the door tells the phone: the check-in, and the seat link that phone keeps
    (None: nothing to keep, the session plays on paper or the player was in already)."""

    checked_in: door.SelfCheckIn
    seat_link: SeatLink | None


@transaction.atomic
def door_check_in(
    *, session_id: int, name: str, door_code: str, client: str = "", user: Caller
) -> DoorArrival:
    """Check a player in at the door (`workflow.front.door.self_check_in`, whose refusals
    it raises as they are) and give this phone the player's seat link. A player checked
    in already gets no link here: whoever checked them in has it."""
    done = door.self_check_in(
        session_id=session_id, name=name, door_code=door_code, client=client, user=user
    )
    if done.already:
        return DoorArrival(checked_in=done, seat_link=None)
    # The check-in holds the session's lock: no other write makes this player's link now.
    session = Session.objects.get(pk=session_id)
    return DoorArrival(checked_in=done, seat_link=_link_for(session, done.player_id))


@transaction.atomic
def registration_sign_up(
    *,
    session_id: int,
    name: str,
    email: str = "",
    email_assignment: bool = False,
    invite: str = "",
    site: str = "",
    user: Caller,
) -> Registration:
    """Sign a player up (`workflow.front.registrations.registration_create`, its rules
    and refusals) and, when the sign-up takes a place on a night that plays online, make
    the player's seat link, which the sign-up's own page then gives (`registration_link`)."""
    signed = registrations.registration_create(
        session_id=session_id,
        name=name,
        email=email,
        email_assignment=email_assignment,
        invite=invite,
        site=site,
        user=user,
    )
    if signed.status == Registration.Status.REGISTERED:
        _link_for(signed.session, signed.player_id)
    return signed


def registration_link(signed: Registration) -> SeatLink | None:
    """The seat link the sign-up's personal page gives its holder: the player's own, while
    the sign-up holds a place (a waitlisted or cancelled one gives none). A read: the link
    is made at sign-up, or by the director's seats list for a player moved up later."""
    if signed.status != Registration.Status.REGISTERED:
        return None
    return SeatLink.objects.filter(session_id=signed.session_id, player_id=signed.player_id).first()
