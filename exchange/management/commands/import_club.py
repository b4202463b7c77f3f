"""`python manage.py import_club FILE`: load a club file made by
`GET /api/clubs/{slug}/export.json` (or `export_club`) into a database without it."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import IntegrityError

from common.errors import UserError
from exchange.clubfile import club_import


class Command(BaseCommand):
    help = "Import a club file (huckley-club/1) into a database that does not hold it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the club file (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
        except (OSError, ValueError) as e:
            raise CommandError(f"Cannot read {path}: {e}") from None
        try:
            club, created = club_import(data)
        except UserError as e:
            raise CommandError(e.message) from None
        except IntegrityError as e:
            raise CommandError(f"The club file does not fit together: {e}") from None
        self.stdout.write(f"Imported club {club.name} ({club.slug}).")
        if created:
            self.stdout.write(
                "Accounts created without a password (set one in the admin): " + ", ".join(created)
            )
