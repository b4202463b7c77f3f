"""Ratings follow the results: connected in RatingsConfig.ready."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from common.tasks import enqueue_on_commit
from scoring.signals import game_result_changed


@receiver(game_result_changed, dispatch_uid="ratings.game_result_changed")
def game_result_changed_recompute(
    sender: Any, *, game_id: int, club_id: int, rules_id: str, **kwargs: Any
) -> None:
    from ratings import tasks

    # After the commit, so the task reads the new result; robust, so that a failure in the
    # ratings never turns a stored round into an error page (rebuild_ratings repairs).
    enqueue_on_commit(tasks.ratings_recompute_from_game, club_id, rules_id, game_id)
