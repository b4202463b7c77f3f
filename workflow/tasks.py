"""The workflow's Celery tasks, where the worker's autodiscovery looks for them
(`huckley.celery`). Each lives with its subject and keeps the name it had here, which
the queued messages carry: the session's (`workflow.session.tasks`), the front of
house's (`workflow.front.tasks`) and the club's (`workflow.club.tasks`). Nothing in the
workflow imports this module."""

from __future__ import annotations

from workflow.club.tasks import season_standings_refresh
from workflow.front.tasks import registration_email
from workflow.session.tasks import assignment_emails

__all__ = ["assignment_emails", "registration_email", "season_standings_refresh"]
