"""The emails of sign-up (docs/tournament.md, "Sign-up and the waitlist"): the personal
link after signing up, and the news of a place when the waitlist moves up. Run by the
Celery task of `workflow.front.tasks` after the write committed; each one claims its row
first (an UPDATE that only one run can make), so a task run twice sends once. The table
after each movement is the session's email (`workflow.session.mail`)."""

from __future__ import annotations

from django.core.mail import send_mail
from django.utils import timezone, translation
from django.utils.translation import gettext

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
    with translation.override(getattr(registration.session.club, "language", None) or None):
        return _send(registration, kind)


def _send(registration: Registration, kind: str) -> bool:
    night = night_of(registration.session)
    link = personal_link(registration)
    if kind == "promoted":
        claimed = Registration.objects.filter(
            pk=registration.pk,
            status=Registration.Status.REGISTERED,
            promotion_emailed_at__isnull=True,
        ).update(promotion_emailed_at=timezone.now())
        if not claimed:
            return False
        subject = gettext("You have a place: %(session)s") % {"session": registration.session.name}
        body = gettext(
            "Good news, %(name)s: a place came free and you are now registered "
            "for %(night)s.\n\nSee your sign-up, or cancel it if you cannot come: %(link)s\n"
        ) % {"name": registration.name, "night": night, "link": link}
    elif kind == "signed_up":
        if registration.status == Registration.Status.CANCELLED:
            return False
        if registration.status == Registration.Status.REGISTERED:
            what = gettext("you are registered")
        else:
            what = gettext(
                "the night is full: you are on the waitlist, and we will email you if a "
                "place frees up"
            )
        subject = gettext("Your sign-up: %(session)s") % {"session": registration.session.name}
        body = gettext(
            "%(name)s, you signed up for %(night)s: %(what)s.\n\n"
            "Your personal link, to see your sign-up or cancel it: %(link)s\n"
        ) % {"name": registration.name, "night": night, "what": what, "link": link}
    else:
        raise ValueError(f"Unknown email kind {kind!r}; one of {KINDS}.")
    send_mail(subject, body, None, [registration.email])
    return True
