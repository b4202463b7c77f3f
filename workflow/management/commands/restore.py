"""`manage.py restore FILE`: put a venue backup (docs/operations.md, "Venue backups and
restore") into the configured database, on this machine or another one, and say what
it holds: the clubs, the sessions running and the latest sitting.

The file is checked first (a SQLite database or a pg_dump archive, whole, with Huckley's
migrations, none newer than this copy of Huckley knows); a database that already holds
clubs, sessions or accounts is replaced only with --force, or after a yes at the
terminal, and is itself saved to the backups folder first. The restored database is then
migrated forward to this copy's migrations.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from common import backups, restore
from common.backups import BackupError
from common.text import shown
from scoring.models import Round
from tournaments.models import Club, Session, Sitting
from workflow.session import selectors


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _listed(counts: dict[str, int]) -> str:
    return ", ".join(_count(n, noun) for noun, n in counts.items())


def _shown(name: str) -> str:
    return shown(name, limit=200)


class Command(BaseCommand):
    help = "Restore a Huckley backup (var/backups/…) into the configured database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A backup file: huckley_….sqlite3 or huckley_….pgdump.")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Replace a database that already holds clubs, sessions or accounts.",
        )
        parser.add_argument(
            "--no-input", action="store_false", dest="interactive", help="Never ask; refuse."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        self._warn_if_readable_by_others(path)
        try:
            kind = self._check(path)
            self._confirm(force=options["force"], interactive=options["interactive"])
            restore.restore_file(path, kind)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {path.name} into {self._target()}.")
        self._migrate()
        self._summary()

    def _warn_if_readable_by_others(self, path: Path) -> None:
        try:
            mode = path.stat().st_mode
        except OSError:
            return  # _check says what is wrong with the path
        if mode & (stat.S_IRGRP | stat.S_IROTH):
            self.stderr.write(
                f"Warning: {path.name} can be read by other accounts on this machine (mode "
                f"{stat.S_IMODE(mode):04o}), and it holds password hashes, API tokens and "
                f"scorer links. Make it yours only: chmod 600 {path}"
            )

    def _target(self) -> str:
        if backups.engine() == "sqlite":
            return f"the SQLite database {backups.database_name()}"
        return f"the PostgreSQL database {backups.database_name()}"

    def _check(self, path: Path) -> str:
        kind = backups.file_kind(path)
        here = backups.engine()
        if here == "sqlite" and path.resolve() == Path(backups.database_name()).resolve():
            raise BackupError(
                f"{path} is the database Huckley uses here, not a backup of it: name a "
                "file from the backups folder."
            )
        if kind != here:
            names = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
            switch = (
                "unset DATABASE_URL (SQLITE_PATH names the file)"
                if kind == "sqlite"
                else "set DATABASE_URL to the PostgreSQL database"
            )
            raise BackupError(
                f"{path.name} is a {names[kind]} backup, but this Huckley uses "
                f"{names.get(here, here)}: {switch} and run restore again."
            )
        found = backups.inspect_backup(path)
        newer = sorted(found.migrations - restore.known_migrations())
        if newer:
            listed = ", ".join(f"{app}.{name}" for app, name in newer[:5])
            raise BackupError(
                f"{path.name} was made by a newer version of Huckley (it has migrations "
                f"this one does not: {listed}). Update Huckley on this machine first."
            )
        return found.kind

    def _confirm(self, *, force: bool, interactive: bool) -> None:
        counts = restore.held()
        if not counts:
            return
        held = f"{self._target()} already holds {_listed(counts)}"
        if not force:
            if not (interactive and sys.stdin.isatty()):
                raise CommandError(
                    f"Nothing restored: {held}. Run again with --force to replace it "
                    "(a copy of it is saved to the backups folder first)."
                )
            answer = input(f"{held}. Replace it with the backup? [y/N] ")
            if answer.strip().lower() not in {"y", "yes"}:
                raise CommandError("Nothing restored.")
        saved = backups.take("before-restore")
        self.stdout.write(f"The database it replaces is saved as {saved}.")

    def _migrate(self) -> None:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if not plan:
            self.stdout.write("Its tables are up to date: no migration needed.")
            return
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(f"Migrated forward: {_count(len(plan), 'migration')} applied.")

    def _summary(self) -> None:
        # A backup made before names were checked may hold an escape or a bidi override:
        # the terminal shows it escaped instead of obeying it (common.text.shown).
        clubs = [_shown(n) for n in Club.objects.order_by("name").values_list("name", flat=True)]
        self.stdout.write(f"Clubs: {len(clubs)}" + (f" ({', '.join(clubs)})." if clubs else "."))
        running = list(
            Session.objects.filter(status=Session.Status.RUNNING)
            .select_related("club")
            .order_by("date", "pk")
        )
        self.stdout.write(f"Sessions running: {len(running)}.")
        for session in running:
            sitting = selectors.current_sitting(session)
            if sitting is None:
                continue
            progress = selectors.sitting_progress(sitting)
            done = sum(p.games_finished for p in progress)
            total = sum(p.games_total for p in progress)
            rounds = Round.objects.filter(game__table__sitting=sitting).count()
            self.stdout.write(
                f"  {_shown(session.name)} ({_shown(session.club.name)}, {session.date:%d %b %Y}): "
                f"sitting {sitting.number}, {_count(len(progress), 'table')}, "
                f"{done} of {_count(total, 'game')} finished, "
                f"{_count(rounds, 'round')} entered in this sitting."
            )
        latest = (
            Sitting.objects.select_related("session__club").order_by("-created_at", "-pk").first()
        )
        if latest is None:
            self.stdout.write("Latest sitting: none yet.")
            return
        seated = timezone.localtime(latest.created_at)
        self.stdout.write(
            f"Latest sitting: sitting {latest.number} of {_shown(latest.session.name)} "
            f"({_shown(latest.session.club.name)}), seated {seated:%d %b %Y %H:%M %Z}."
        )
        self.stdout.write(
            "Start the venue (make venue) and the night carries on from here; phones "
            "open the new address the venue prints, and the director signs in again."
        )
