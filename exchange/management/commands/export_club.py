"""`python manage.py export_club SLUG [--output FILE]`: the same file as
`GET /api/clubs/{slug}/export.json`, for the operator."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exchange.clubfile import club_export
from tournaments.models import Club


class Command(BaseCommand):
    help = "Export a club as one JSON file (huckley-club/1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", default="-", help="a file, or - for standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with the slug {options['slug']!r}.")
        text = json.dumps(club_export(club), indent=1, ensure_ascii=False)
        if options["output"] == "-":
            self.stdout.write(text)
        else:
            with open(options["output"], "w", encoding="utf-8") as f:
                f.write(text + "\n")
