"""Background work, queued after commit. Tasks take ids and are safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ratings import services
from tournaments.permissions import SYSTEM


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def ratings_recompute_from_game(club_id: int, rules_id: str, game_id: int) -> int:
    """Recompute the club's ratings under the rules from this game on."""
    return services.ratings_game_changed(
        club_id=club_id, rules_id=rules_id, game_id=game_id, user=SYSTEM
    )
