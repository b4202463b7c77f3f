"""When a robot's move may next fall due at an online table, and the Celery task queued
for then (`play.tasks.tick`) when a worker runs tasks; with eager tasks (the embedded
default) the reads and the WebSocket timers tick instead."""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import Final

from celery import current_app
from django.conf import settings
from django.core.cache import cache

from play import selectors
from play.models import LiveRound
from scoring.tables import table_current_game
from tournaments.models import Table

logger = logging.getLogger(__name__)


def next_deadline(table_id: int) -> tuple[int, datetime] | None:
    """The state number of the online table and when a robot's move may next fall due
    in it (the grace time or the clock of the player to act), for the task that ticks
    then; None when nothing can fall due (`play.selectors.deadline_of`)."""
    table = Table.objects.select_related("sitting__session").filter(pk=table_id).first()
    if table is None or not table.online:
        return None
    return selectors.deadline_of(selectors.table_state(table))


#: `schedule_tick`'s `due` when the caller has not read it.
UNKNOWN: Final = object()


def _pending_key(table_id: int) -> str:
    return f"play:tick:{table_id}"


def schedule_tick(table_id: int, due: object = UNKNOWN) -> None:
    """Queue `play.tasks.tick` at the table's next deadline (`due` when the caller read
    it with the table's state, as the push does), when a worker runs tasks (with eager
    tasks, the embedded default, the reads and the WebSocket timers tick).

    One task waits per table: when the one already queued falls due no later than this
    deadline, nothing more is queued (a move every second would otherwise queue a task
    each, every one a minute ahead); that task, when it finds the table moved on, queues
    the one for the table's deadline then (`play.tasks.tick`). The cache remembers when
    the waiting task falls due; lost with the cache, a task is queued again."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    if due is UNKNOWN:
        due = next_deadline(table_id)
    if not isinstance(due, tuple):
        return
    move, when = due
    now = time.time()
    pending = cache.get(_pending_key(table_id))
    if isinstance(pending, float) and now < pending <= when.timestamp():
        return
    try:
        # By name: the task module (play.tasks) imports this one.
        current_app.send_task("play.tasks.tick", args=(table_id, move), eta=when)
    except Exception:  # the broker is a helper: the reads and the WebSockets tick anyway
        logger.warning("could not schedule the tick of table %s", table_id, exc_info=True)
        return
    cache.set(_pending_key(table_id), when.timestamp(), max(1, int(when.timestamp() - now) + 60))


def tick_started(table_id: int) -> None:
    """The waiting task of the table runs: the next deadline queues its own."""
    cache.delete(_pending_key(table_id))


def live_move(table_id: int) -> int | None:
    """The state number of the table's round being played, or None."""
    game = table_current_game(table_id)
    if game is None:
        return None
    return LiveRound.objects.filter(game=game).values_list("move", flat=True).first()
