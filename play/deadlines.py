"""When a robot's move may next fall due at an online table, and the Celery task queued
for then (`play.tasks.tick`) when a worker runs tasks; with eager tasks (the embedded
default) the reads and the WebSocket timers tick instead."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.utils import timezone

from engine import online as engine_online
from play import presence
from play.models import LiveRound, SeatLink
from scoring.models import Game
from scoring.tables import table_current_game
from tournaments.models import Table

logger = logging.getLogger(__name__)


def next_deadline(table_id: int) -> tuple[int, datetime] | None:
    """The state number of the online table and when a robot's move may next fall due
    in it (the grace time or the clock of the player to act), for the task that ticks
    then; None when nothing can fall due."""
    table = Table.objects.select_related("sitting__session").filter(pk=table_id).first()
    if table is None or not table.online:
        return None
    game = table_current_game(table)
    live = LiveRound.objects.filter(game=game).first() if game is not None else None
    if game is None or live is None or game.status == Game.Status.FINISHED:
        return None
    rnd = engine_online.restore(game.rules_id, live.state)
    who = rnd.to_act()
    player_id = next((gp.player_id for gp in game.game_players.all() if gp.name == who), None)
    if player_id is None:
        return None
    session = table.sitting.session
    token = (
        SeatLink.objects.filter(session=session, player_id=player_id)
        .values_list("token", flat=True)
        .first()
    )
    last = presence.last_seen(token) if token else None
    since = max(last, live.turn_started_at) if last else live.turn_started_at
    due = [since + timedelta(seconds=session.online_grace_seconds + 0.5)]
    if session.move_clock_seconds is not None:
        due.append(live.turn_started_at + timedelta(seconds=session.move_clock_seconds + 0.5))
    return live.move, max(min(due), timezone.now() + timedelta(seconds=1))


def schedule_tick(table_id: int) -> None:
    """Queue `play.tasks.tick` at the table's next deadline, when a worker runs tasks
    (with eager tasks, the embedded default, the reads and the WebSocket timers tick).
    The task carries the state number: a task whose state has moved on does nothing, so
    each state has one task waiting at most."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    due = next_deadline(table_id)
    if due is None:
        return
    move, when = due
    try:
        # By name: the task module (play.tasks) imports this one.
        current_app.send_task("play.tasks.tick", args=(table_id, move), eta=when)
    except Exception:  # the broker is a helper: the reads and the WebSockets tick anyway
        logger.warning("could not schedule the tick of table %s", table_id, exc_info=True)


def live_move(table_id: int) -> int | None:
    """The state number of the table's round being played, or None."""
    game = table_current_game(table_id)
    if game is None:
        return None
    return LiveRound.objects.filter(game=game).values_list("move", flat=True).first()
