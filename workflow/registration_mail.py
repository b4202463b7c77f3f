"""The emails of sign-up (docs/tournament.md, "Sign-up and the waitlist"): the personal
link after signing up, the news of a place when the waitlist moves up, and the table
after each movement for those who asked for it. Run by the Celery tasks of
`workflow.tasks` after the write committed; each one claims its row first (an UPDATE
that only one run can make), so a task run twice sends once."""

from __future__ import annotations

from django.core.mail import send_mail
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Registration, Seating, Session, SitOut

KINDS = ("signed_up", "promoted")


def personal_link(registration: Registration) -> str:
    path = reverse("tournaments:registration", args=[registration.token])
    return registration.site.rstrip("/") + path


def _night(session: Session) -> str:
    return f"{session.name} at {session.club.name} on {session.date:%A %d %B %Y}"


def registration_email(registration_id: int, kind: str) -> bool:
    """Send a sign-up its email of `kind` (`signed_up`, `promoted`); False when there is
    nothing to send (no address, cancelled since, already sent)."""
    registration = (
        Registration.objects.select_related("session__club").filter(pk=registration_id).first()
    )
    if registration is None or not registration.email:
        return False
    night = _night(registration.session)
    link = personal_link(registration)
    if kind == "promoted":
        claimed = Registration.objects.filter(
            pk=registration_id,
            status=Registration.Status.REGISTERED,
            promotion_emailed_at__isnull=True,
        ).update(promotion_emailed_at=timezone.now())
        if not claimed:
            return False
        subject = f"You have a place: {registration.session.name}"
        body = (
            f"Good news, {registration.name}: a place came free and you are now registered "
            f"for {night}.\n\nSee your sign-up, or cancel it if you cannot come: {link}\n"
        )
    elif kind == "signed_up":
        if registration.status == Registration.Status.CANCELLED:
            return False
        if registration.status == Registration.Status.REGISTERED:
            what = "you are registered"
        else:
            what = (
                "the night is full: you are on the waitlist, and we will email you if a "
                "place frees up"
            )
        subject = f"Your sign-up: {registration.session.name}"
        body = (
            f"{registration.name}, you signed up for {night}: {what}.\n\n"
            f"Your personal link, to see your sign-up or cancel it: {link}\n"
        )
    else:
        raise ValueError(f"Unknown email kind {kind!r}; one of {KINDS}.")
    send_mail(subject, body, None, [registration.email])
    return True


def assignment_emails(session_id: int, sitting_number: int) -> int:
    """After the movement into sitting `sitting_number`: email their new table to those
    who signed up with an email, asked for it, and whose table changed (or who sit out,
    or come back from sitting out). Returns how many were sent."""
    wanted = Registration.objects.filter(
        session_id=session_id,
        status=Registration.Status.REGISTERED,
        email_assignment=True,
        assignment_emailed_sitting__lt=sitting_number,
    ).exclude(Q(email="") | Q(player__isnull=True))
    if not wanted.exists():
        return 0
    players = [r.player_id for r in wanted]

    def tables(number: int) -> dict[int, tuple[int, int]]:
        return {
            pid: (rank, seat)
            for pid, rank, seat in Seating.objects.filter(
                sitting__session_id=session_id,
                sitting__number=number,
                player_id__in=players,
                left_at__isnull=True,
            ).values_list("player_id", "table__rank", "seat")
        }

    now, before = tables(sitting_number), tables(sitting_number - 1)
    out = set(
        SitOut.objects.filter(
            sitting__session_id=session_id, sitting__number=sitting_number
        ).values_list("player_id", flat=True)
    )
    sent = 0
    for registration in wanted.select_related("session__club"):
        pid = registration.player_id
        new = now.get(pid)
        if new is None and pid not in out:
            continue  # withdrawn: no table to tell
        if new is not None and before.get(pid, (None,))[0] == new[0]:
            continue  # same table: nothing to tell
        claimed = Registration.objects.filter(
            pk=registration.pk, assignment_emailed_sitting__lt=sitting_number
        ).update(assignment_emailed_sitting=sitting_number)
        if not claimed:
            continue
        session = registration.session
        where = (
            f"you play at table {new[0]}, seat {new[1]}"
            if new is not None
            else "you sit out this sitting"
        )
        send_mail(
            f"Sitting {sitting_number}: table {new[0]}" if new else f"Sitting {sitting_number}",
            f"{registration.name}, for sitting {sitting_number} of {_night(session)}, "
            f"{where}.\n\nYour sign-up: {personal_link(registration)}\n",
            None,
            [registration.email],
        )
        sent += 1
    return sent
