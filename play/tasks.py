"""Celery tasks of online play: the director's "Email the links" (queued after commit,
`common.tasks`), and a look of the scheduler right after a change of seats. Tasks take
ids, load fresh rows and are safe to run twice. The deadlines themselves are the
scheduler's (`play.scheduler`), never a queued task's."""

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


@shared_task(name="play.tasks.run_due", ignore_result=True)
def run_due() -> int:
    """One look of the scheduler (`play.scheduler.run_due`): queued once by a change of
    seats, so a movement deals at once where a worker runs tasks (and in the request
    with eager tasks, the embedded default), not only at the servers' next look."""
    return scheduler.run_due()


def seats_changed(
    sender: Any,
    *,
    session_id: int,
    player_ids: frozenset[int] | None,
    table_ids: frozenset[int] | None,
    **kwargs: Any,
) -> None:
    """`tournaments.signals.seats_changed`, after the commit: the tables concerned are
    woken (`play.scheduler.wake`) and the scheduler looks at once (`run_due`)."""
    if scheduler.wake(scheduler.tables_of(session_id, player_ids, table_ids)):
        run_due.delay()
