"""Celery tasks of online play: the director's "Email the links" (queued after commit,
`common.tasks`). Tasks take ids, load fresh rows and are safe to run twice. The
deadlines are the scheduler's (`play.scheduler`), never a queued task's; a change of
seats wakes the tables it concerns (`seats_changed`, the signal's receiver)."""

from __future__ import annotations

from smtplib import SMTPException
from typing import Any

from celery import shared_task
from django.db import OperationalError

from play import scheduler, seat_mail

# A mail server that does not answer is tried again.
MAIL_RETRY = (OperationalError, OSError, SMTPException)


@shared_task(autoretry_for=MAIL_RETRY, retry_backoff=True, max_retries=5)
def seat_link_email(session_id: int, player_ids: list[int], site: str, nonce: str) -> int:
    """The director's "Email the links": each player's seat link to their address."""
    return seat_mail.seat_link_emails(session_id, player_ids, site, nonce)


def seats_changed(
    sender: Any,
    *,
    session_id: int,
    player_ids: frozenset[int] | None,
    table_ids: frozenset[int] | None,
    **kwargs: Any,
) -> None:
    """`tournaments.signals.seats_changed`, after the commit: the tables concerned are
    woken (`play.scheduler.wake`) and the first of them moved on at once, in the process
    that made the change (a movement deals there); the schedulers of the ASGI processes
    take any others within a quarter of a second."""
    scheduler.run_now(scheduler.tables_of(session_id, player_ids, table_ids))
