"""The emails of sign-up (docs/tournament.md, "Sign-up and the waitlist"): the personal
link after signing up, and the news of a place when the waitlist moves up. Run by the
Celery task of `workflow.front.tasks` after the write committed; each one claims its row
first (an UPDATE that only one run can make), so a task run twice sends once. The table
after each movement is the session's email (`workflow.session.mail`)."""

from __future__ import annotations

from django.core.mail import send_mail
from django.utils import timezone

from tournaments.models import Registration
from workflow.session.mail import night as night_of
from workflow.session.mail import personal_link

KINDS = ("signed_up", "promoted")


def registration_email(registration_id: int, kind: str) -> bool:
    """Send a sign-up its email of `kind` (`signed_up`, `promoted`); False when there is
    nothing to send (no address, cancelled since, already sent)."""
    registration = (
        Registration.objects.select_related("session__club").filter(pk=registration_id).first()
    )
    if registration is None or not registration.email:
        return False
    night = night_of(registration.session)
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
