"""Background work of the club, queued after commit. Tasks take ids, load fresh rows and
are safe to run twice. Their names are those they had in `workflow.tasks`, which the
queued messages carry."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from workflow.club import selectors


@shared_task(
    name="workflow.tasks.season_standings_refresh",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def season_standings_refresh(season_id: int) -> int:
    """Recompute a season's ladder into the cache, so the club page reads it in one go."""
    return len(selectors.season_standings_refresh(season_id))
