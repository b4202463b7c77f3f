"""Celery tasks of online play: the robots' moves that fall due while nobody asks."""

from __future__ import annotations

from celery import shared_task

from play import deadlines, services


@shared_task(name="play.tasks.tick")
def tick(table_id: int, move: int) -> None:
    """Make the table's due robot moves, if its state is still `move`; else the change
    that moved it on queued its own tick. Safe to run twice."""
    if deadlines.live_move(table_id) != move:
        return
    if not services.tick(table_id=table_id):
        deadlines.schedule_tick(table_id)
