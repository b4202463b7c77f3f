"""Celery tasks of online play: the director's "Email the links" (queued after commit,
`common.tasks`). Tasks take ids, load fresh rows and are safe to run twice. The robots'
moves and the clocks are the scheduler's (`play.scheduler`), never a task's."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from play import seat_mail

# A mail server that does not answer is tried again.
MAIL_RETRY = (OperationalError, OSError, SMTPException)


@shared_task(autoretry_for=MAIL_RETRY, retry_backoff=True, max_retries=5)
def seat_link_email(session_id: int, player_ids: list[int], site: str, nonce: str) -> int:
    """The director's "Email the links": each player's seat link to their address."""
    return seat_mail.seat_link_emails(session_id, player_ids, site, nonce)
