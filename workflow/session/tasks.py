"""Background work of a running session, queued after commit. Tasks take ids, load fresh
rows and are safe to run twice. Their names are those they had in `workflow.tasks`,
which the queued messages carry."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from workflow.session import mail

# A mail server that does not answer is tried again.
MAIL_RETRY = (OperationalError, OSError, SMTPException)


@shared_task(
    name="workflow.tasks.assignment_emails",
    autoretry_for=MAIL_RETRY,
    retry_backoff=True,
    max_retries=5,
)
def assignment_emails(session_id: int, sitting_number: int) -> int:
    """After a movement: their new table to those who asked and whose table changed."""
    return mail.assignment_emails(session_id, sitting_number)
