"""Background work, queued after commit. Tasks take ids, load fresh rows and are safe to
run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from workflow import club_selectors


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def season_standings_refresh(season_id: int) -> int:
    """Recompute a season's ladder into the cache, so the club page reads it in one go."""
    return len(club_selectors.season_standings_refresh(season_id))
