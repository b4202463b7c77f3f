"""Celery tasks of online play: the robots' moves that fall due while nobody asks, and
the director's "Email the links" (queued after commit, `common.tasks`). Tasks take ids,
load fresh rows and are safe to run twice."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from play import deadlines, seat_mail, services

# A mail server that does not answer is tried again.
MAIL_RETRY = (OperationalError, OSError, SMTPException)


@shared_task(name="play.tasks.tick")
def tick(table_id: int, move: int) -> None:
    """Make the table's due robot moves, if its state is still `move`; else queue the
    tick at the table's deadline now (the changes since queued none while this one
    waited: `deadlines.schedule_tick`). Safe to run twice."""
    deadlines.tick_started(table_id)
    if deadlines.live_move(table_id) != move or not services.tick(table_id=table_id):
        deadlines.schedule_tick(table_id)


@shared_task(autoretry_for=MAIL_RETRY, retry_backoff=True, max_retries=5)
def seat_link_email(session_id: int, player_ids: list[int], site: str, nonce: str) -> int:
    """The director's "Email the links": each player's seat link to their address."""
    return seat_mail.seat_link_emails(session_id, player_ids, site, nonce)
