"""Background work of the front of house, queued after commit. Tasks take ids, load
fresh rows and are safe to run twice. Their names are those they had in
`workflow.tasks`, which the queued messages carry."""

from __future__ import annotations

from celery import shared_task

from workflow.front import registration_mail
from workflow.session.tasks import MAIL_RETRY


@shared_task(
    name="workflow.tasks.registration_email",
    autoretry_for=MAIL_RETRY,
    retry_backoff=True,
    max_retries=5,
)
def registration_email(registration_id: int, kind: str) -> bool:
    """A sign-up's email: its personal link (`signed_up`), or a place freed (`promoted`)."""
    return registration_mail.registration_email(registration_id, kind)
