"""The session's email to its signed-up players (docs/tournament.md, "Sign-up and the
waitlist"): after each movement, their new table to those who asked for it. Run by the
Celery task of `workflow.session.tasks` after the movement committed; each email claims
its row first (an UPDATE that only one run can make), so a task run twice sends once.

The personal link and the night's name are shared with the emails of sign-up
(`workflow.front.registration_mail`), which sit above the session."""

from __future__ import annotations

from django.core.mail import send_mail
from django.db.models import Q
from django.urls import reverse
from django.utils import dateformat, translation
from django.utils.translation import gettext

from tournaments.models import Registration, Seating, Session, SitOut


def personal_link(registration: Registration) -> str:
    """The sign-up's own page, where it is seen or cancelled, on the site it came from."""
    path = reverse("tournaments:registration", args=[registration.token])
    return registration.site.rstrip("/") + path


def night(session: Session) -> str:
    """The session as an email names it: its name, its club and its date."""
    return gettext("%(session)s at %(club)s on %(date)s") % {
        "session": session.name,
        "club": session.club.name,
        # Django's names of days and months, in the active language ("%A %d %B %Y").
        "date": dateformat.format(session.date, "l d F Y"),
    }


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
        with translation.override(getattr(session.club, "language", None) or None):
            words = {
                "name": registration.name,
                "sitting": sitting_number,
                "table": new[0] if new else None,
                "seat": new[1] if new else None,
                "night": night(session),
                "link": personal_link(registration),
            }
            where = (
                gettext("you play at table %(table)s, seat %(seat)s") % words
                if new is not None
                else gettext("you sit out this sitting")
            )
            send_mail(
                gettext("Sitting %(sitting)s: table %(table)s") % words
                if new
                else gettext("Sitting %(sitting)s") % words,
                gettext(
                    "%(name)s, for sitting %(sitting)s of %(night)s, %(where)s.\n\n"
                    "Your sign-up: %(link)s\n"
                )
                % {**words, "where": where},
                None,
                [registration.email],
            )
        sent += 1
    return sent
