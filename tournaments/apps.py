from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from tournaments import pagecache
        from tournaments.models import Club, Session

        # A session's and its club's own fields show on the session's public pages: their
        # saves move its generation (tournaments/pagecache.py); every other change of what
        # the pages show goes through `pagecache.board_changed` or `pagecache.live_changed`.
        def session_saved(sender: type[Session], instance: Session, **kwargs: Any) -> None:
            pagecache.bump(instance.pk)

        def club_saved(sender: type[Club], instance: Club, **kwargs: Any) -> None:
            if pagecache.shared():
                pagecache.bump_many(list(instance.sessions.values_list("pk", flat=True)))

        post_save.connect(session_saved, sender=Session, dispatch_uid="pagecache-session")
        post_save.connect(club_saved, sender=Club, dispatch_uid="pagecache-club")
