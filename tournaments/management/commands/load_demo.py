"""Load the demo data on a fresh database (`make run` calls it with --if-empty)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Load a demo club, season and session."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-empty", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write("No demo data yet: the tournament models come next.")
