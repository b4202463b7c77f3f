"""Load a demo club on a fresh database: a finished season with its Big Loser, and a
current season with one finished session and one in progress (`make run` calls it with
--if-empty)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from tournaments.models import BigLoserAward, Club, Session
from workflow.session.simulation import PlayOptions, ensure_season, generated_names, play_session

DEMO_USER = "director"
DEMO_PASSWORD = "huckley-demo"


class Command(BaseCommand):
    help = "Load a demo club, seasons and sessions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing if any session exists."
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and Session.objects.exists():
            self.stdout.write("Demo data: the database already has sessions; nothing loaded.")
            return
        user_model = get_user_model()
        director = user_model.objects.filter(username=DEMO_USER).first()
        if director is None:
            director = user_model.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
        club, _ = Club.objects.get_or_create(slug="demo", defaults={"name": "Demo Huckley Club"})
        club.directors.add(director)
        today = timezone.localdate()
        last_season = ensure_season(club, today.year - 1)
        season = ensure_season(club, today.year)
        names = generated_names(14)
        for i, day in enumerate([last_season.starts_on + timedelta(days=40 * k) for k in (1, 2)]):
            play_session(
                club=club,
                season=last_season,
                name=f"Club night {i + 1}",
                day=day,
                players=names[: 11 + i],
                options=PlayOptions(seed=100 + i, sittings=2, user=director),
            )
        from workflow.club import selectors as club_selectors

        holder = club_selectors.big_loser_suggestion(last_season.pk, club.big_loser_criterion)[0]
        BigLoserAward.objects.update_or_create(
            season=last_season, defaults={"player": holder.player, "awarded_by": director}
        )
        play_session(
            club=club,
            season=season,
            name="Spring club night",
            day=max(season.starts_on, today - timedelta(days=7)),
            players=names[:12],
            options=PlayOptions(seed=200, sittings=2, user=director),
        )
        play_session(
            club=club,
            season=season,
            name="Tonight",
            day=today,
            players=names[:13],
            options=PlayOptions(
                seed=300, sittings=2, stop_after_games=1, stop_after_rounds=3, user=director
            ),
        )
        self.stdout.write(
            f"Demo data loaded: club “{club.name}”. Director sign-in: {DEMO_USER} / {DEMO_PASSWORD}"
        )
