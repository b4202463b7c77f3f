"""Background work, queued after commit. Tasks take ids, load fresh rows and are safe to
run twice."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from workflow import club_selectors, registration_mail


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def season_standings_refresh(season_id: int) -> int:
    """Recompute a season's ladder into the cache, so the club page reads it in one go."""
    return len(club_selectors.season_standings_refresh(season_id))


# Sign-up (workflow.registrations): a mail server that does not answer is tried again.
MAIL_RETRY = (OperationalError, OSError, SMTPException)


@shared_task(autoretry_for=MAIL_RETRY, retry_backoff=True, max_retries=5)
def registration_email(registration_id: int, kind: str) -> bool:
    """A sign-up's email: its personal link (`signed_up`), or a place freed (`promoted`)."""
    return registration_mail.registration_email(registration_id, kind)


@shared_task(autoretry_for=MAIL_RETRY, retry_backoff=True, max_retries=5)
def assignment_emails(session_id: int, sitting_number: int) -> int:
    """After a movement: their new table to those who asked and whose table changed."""
    return registration_mail.assignment_emails(session_id, sitting_number)
