"""python manage.py rebuild_ratings [--club SLUG]: every rating from scratch."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import ratings_rebuild
from tournaments.models import Club
from tournaments.permissions import SYSTEM


class Command(BaseCommand):
    help = "Rebuild every player rating from the finished games, from scratch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="Only this club (its slug).")

    def handle(self, *args: Any, **options: Any) -> None:
        club_id = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"No club with the slug {options['club']!r}.")
            club_id = club.pk
        started = time.perf_counter()
        done = ratings_rebuild(club_id=club_id, user=SYSTEM)
        elapsed = time.perf_counter() - started
        games = sum(done.values())
        self.stdout.write(
            f"Rebuilt {len(done)} rating list{'s' if len(done) != 1 else ''} "
            f"from {games} game{'s' if games != 1 else ''} in {elapsed:.2f} s."
        )
