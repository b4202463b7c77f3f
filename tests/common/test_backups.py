"""Venue backups and `manage.py restore` (docs/operations.md, "Venue backups and restore").

They run on the suite's own database: SQLite under `make test`, PostgreSQL (pg_dump and
pg_restore) in `.ci/run`. A restore always goes into a fresh database in a subprocess
(another SQLite file, or a new PostgreSQL database), never into the test's own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection

from common import backups
from tests.huckley.test_settings import run_settings
from workflow.session import movements, start_finish
from workflow.session.simulation import play_sitting

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = connection.vendor == "postgresql"


@pytest.fixture
def backup_dir(settings: Any, tmp_path: Path) -> Path:
    """Backups on, into a folder of the test's own."""
    folder = tmp_path / "backups"
    settings.HUCKLEY_BACKUPS = True
    settings.HUCKLEY_BACKUP_DIR = folder
    settings.HUCKLEY_BACKUP_KEEP = 12
    return folder


def reasons(folder: Path) -> list[str]:
    return [p.name.split("_")[3].split(".")[0] for p in backups.backups(folder)]


@pytest.fixture
def fresh_database(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of a manage.py on another machine: an empty database of the same
    engine as the suite's. No Redis: its tasks run in the process, never on the suite's
    Celery worker, which writes to the suite's database."""
    drop = {"DATABASE_URL", "SQLITE_PATH", "REDIS_URL"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HUCKLEY_BACKUP_DIR"] = str(tmp_path / "other-machine-backups")
    if not POSTGRES:
        env["SQLITE_PATH"] = str(tmp_path / "other-machine.sqlite3")
        yield env
        return
    import psycopg

    db = connection.settings_dict
    name = f"huckley_backup_{uuid.uuid4().hex[:10]}"
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    admin = psycopg.connect(f"{url}/postgres", autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    env["DATABASE_URL"] = f"{url}/{name}"
    try:
        yield env
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# Run on the restored database: the session is at the sitting it had reached, and the
# next round of table 1's game can be entered.
RESUME = """
import json
from django.contrib.auth import get_user_model
from scoring import services as scoring
from scoring.models import Game
from workflow.session import selectors
from tournaments.models import Session
from workflow.session.simulation import play_game
session = Session.objects.get(status="running")
sitting = selectors.current_sitting(session)
game = Game.objects.get(table__sitting=sitting, table__rank=1, number=1)
before = game.round_count
play_game(game, seed=5, rounds=1, user=get_user_model().objects.get(username="dee-director"))
game.refresh_from_db()
# A backup as an older Huckley, one migration behind, would have written it.
from django.core.management import call_command
from common import backups
call_command("migrate", "api", "0001_initial", verbosity=0)
older = str(backups.take("older-huckley"))
call_command("migrate", verbosity=0)
seats = sorted(sitting.seatings.values_list("player__name", "table__rank", "seat"))
print(json.dumps({"sitting": sitting.number, "before": before, "after": game.round_count,
                  "older": older, "seats": seats}))
"""


@pytest.mark.usefixtures("transactional_db")
def test_a_movement_backup_restores_on_another_machine_and_the_night_carries_on(
    make_session: Any, backup_dir: Path, fresh_database: dict[str, str], director: Any
) -> None:
    session = make_session(8)
    backups.wait()
    sitting = session.sittings.get()
    play_sitting(sitting, seed=3)
    movements.sitting_move_players(session_id=session.pk, sitting_number=1, user=director)
    backups.wait()
    assert reasons(backup_dir) == ["session-start", "movement"]
    movement_backup = backups.backups(backup_dir)[-1]

    restored = manage(fresh_database, "restore", str(movement_backup))
    assert restored.returncode == 0, restored.stderr
    out = restored.stdout
    assert f"Restored {movement_backup.name}" in out
    assert "Clubs: 1 (Tuesday Club)." in out
    assert "Sessions running: 1." in out
    assert "Club night (Tuesday Club" in out
    assert "sitting 2, 2 tables, 0 of 4 games finished, 0 rounds entered" in out
    assert "Latest sitting: sitting 2 of Club night" in out

    resumed = manage(fresh_database, "shell", "-c", RESUME)
    assert resumed.returncode == 0, resumed.stderr
    resume = json.loads(resumed.stdout.strip().splitlines()[-1])
    older = Path(resume.pop("older"))
    # Everyone sits where the movement put them on the laptop that died.
    seats = session.sittings.get(number=2).seatings.values_list(
        "player__name", "table__rank", "seat"
    )
    assert resume.pop("seats") == [list(seat) for seat in sorted(seats)]
    assert resume == {"sitting": 2, "before": 0, "after": 1}

    # That database now holds the night (the refusal is tested below): --force replaces
    # it, after saving it. The file restored is the older Huckley's, with the round
    # entered above: it is migrated forward.
    forced = manage(fresh_database, "restore", "--force", str(older))
    assert forced.returncode == 0, forced.stderr
    saved = list(Path(fresh_database["HUCKLEY_BACKUP_DIR"]).glob("huckley_*_before-restore.*"))
    assert len(saved) == 1
    assert f"The database it replaces is saved as {saved[0]}" in forced.stdout
    assert "Migrated forward: 1 migration applied." in forced.stdout
    assert "sitting 2, 2 tables, 0 of 4 games finished, 1 round entered" in forced.stdout


@pytest.mark.django_db
def test_backups_are_taken_after_the_commit_only_when_turned_on(
    make_session: Any,
    settings: Any,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
    director: Any,
) -> None:
    first, second = make_session(8, start=False), make_session(8, start=False)
    settings.HUCKLEY_BACKUP_DIR = tmp_path / "off"
    assert settings.HUCKLEY_BACKUPS is False  # the suite's default, as `make run`'s
    with django_capture_on_commit_callbacks(execute=True):
        start_finish.session_start(session_id=first.pk, user=director)
    backups.wait()
    assert not (tmp_path / "off").exists()

    settings.HUCKLEY_BACKUPS = True
    settings.HUCKLEY_BACKUP_DIR = tmp_path / "on"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        start_finish.session_start(session_id=second.pk, user=director)
    assert not (tmp_path / "on").exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    backups.wait()
    assert reasons(tmp_path / "on") == ["session-start"]


def _wait_for(folder: Path, count: int) -> None:
    deadline = time.monotonic() + 20
    while len(backups.backups(folder)) < count and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.mark.usefixtures("transactional_db")
def test_the_timer_backs_up_every_interval_when_something_changed(backup_dir: Path) -> None:
    timer = backups.BackupTimer(0.1)
    timer.start()
    try:
        _wait_for(backup_dir, 1)
        time.sleep(0.5)  # five more ticks with nothing new
        if not POSTGRES:  # a pg_dump archive carries its time: never the same twice
            assert reasons(backup_dir) == ["timer"]
        Group.objects.create(name="scorers")
        _wait_for(backup_dir, 2)
    finally:
        timer.stop()
        timer.join(timeout=20)
    assert reasons(backup_dir)[:2] == ["timer", "timer"]
    # Each is a whole database: SQLite's own check, or pg_restore reading its contents.
    assert backups.inspect_backup(backups.backups(backup_dir)[-1]).kind == backups.engine()


@pytest.mark.django_db
def test_only_the_newest_backups_are_kept_and_dead_temporary_files_go(
    backup_dir: Path, settings: Any
) -> None:
    settings.HUCKLEY_BACKUP_KEEP = 2
    backup_dir.mkdir()
    dead = backup_dir / ".huckley_2026-01-01_00-00-00.000_timer.sqlite3.99.tmp"
    dead.write_text("half")
    os.utime(dead, (time.time() - 3600, time.time() - 3600))
    writing = backup_dir / ".huckley_2026-01-01_00-00-01.000_timer.sqlite3.98.tmp"
    writing.write_text("being written by another process")
    taken = [backups.take(f"step-{'abc'[i]}") for i in range(3)]
    assert backups.backups(backup_dir) == taken[1:]
    assert not taken[0].exists()
    assert not dead.exists()
    assert writing.exists()  # young: its process may still be writing it


@pytest.mark.django_db
def test_a_backup_that_fails_half_way_leaves_no_file_that_looks_like_one(
    backup_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def dies_half_way(*args: Any) -> None:
        target = next(a for a in args if isinstance(a, Path))
        target.write_bytes(backups.SQLITE_MAGIC + b"half a database")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backups, "_sqlite_copy", dies_half_way)
    monkeypatch.setattr(backups, "_pg_dump", dies_half_way)
    assert backups.take_logged("movement") is None
    assert list(backup_dir.iterdir()) == []
    assert "no backup (movement): The backup could not be written" in caplog.text


@pytest.mark.django_db
def test_postgres_without_pg_dump_is_one_clear_log_line(
    backup_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(backups, "engine", lambda alias="default": "postgresql")
    monkeypatch.setattr(backups.shutil, "which", lambda name: None)
    assert backups.take_logged("timer") is None
    assert "pg_dump is not installed" in caplog.text
    assert "Traceback" not in caplog.text


def _restore_refusal(path: Path) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), "--no-input")
    return str(refused.value)


@pytest.mark.django_db
def test_restore_refuses_a_file_that_is_not_a_huckley_backup(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("table 3 moved up")
    assert "is not a Huckley backup" in _restore_refusal(text)

    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    if POSTGRES:
        assert "is a SQLite backup, but this Huckley uses PostgreSQL" in _restore_refusal(other)
        # A real dump, of a database that is not Huckley's.
        other = tmp_path / "other.pgdump"
        args, env = backups.pg_arguments()
        dumped = subprocess.run(
            ["pg_dump", "--format=custom", f"--file={other}", *args[1:], "--dbname=postgres"],
            env=env,
            capture_output=True,
        )
        assert dumped.returncode == 0, dumped.stderr
    assert "is not a Huckley backup" in _restore_refusal(other)

    assert "cannot be read" in _restore_refusal(tmp_path / "missing.sqlite3")
    if not POSTGRES:
        itself = Path(connection.settings_dict["NAME"])
        assert "is the database Huckley uses here" in _restore_refusal(itself)


@pytest.mark.django_db
def test_restore_refuses_a_damaged_or_newer_backup_and_one_of_the_other_engine(
    backup_dir: Path, tmp_path: Path
) -> None:
    good = backups.take("timer")
    data = good.read_bytes()
    damaged = tmp_path / good.name
    damaged.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))
    assert "damaged" in _restore_refusal(damaged)

    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("CREATE TABLE django_migrations (id INTEGER, app TEXT, name TEXT, applied TEXT)")
        db.execute("INSERT INTO django_migrations VALUES (1, 'tournaments', '0001_initial', '')")
        db.execute("INSERT INTO django_migrations VALUES (2, 'tournaments', '9999_future', '')")
    if POSTGRES:
        assert "is a SQLite backup, but this Huckley uses PostgreSQL" in _restore_refusal(newer)
    else:
        message = _restore_refusal(newer)
        assert "made by a newer version of Huckley" in message
        assert "tournaments.9999_future" in message
        pgdump = tmp_path / "night.pgdump"
        pgdump.write_bytes(b"PGDMP" + bytes(100))
        assert "is a PostgreSQL backup, but this Huckley uses SQLite" in _restore_refusal(pgdump)


@pytest.mark.django_db
def test_restore_never_replaces_a_database_with_data_without_force(
    backup_dir: Path, director: Any
) -> None:
    backup = backups.take("timer")
    message = _restore_refusal(backup)
    assert "Nothing restored" in message
    assert "already holds 1 account" in message
    assert "--force" in message
    assert director.__class__.objects.filter(pk=director.pk).exists()


@pytest.mark.django_db
def test_restore_asks_at_the_terminal_and_a_no_changes_nothing(
    backup_dir: Path, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    backup = backups.take("timer")
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "n")
    with pytest.raises(CommandError, match="Nothing restored"):
        call_command("restore", str(backup))
    assert len(asked) == 1
    assert "already holds 1 account. Replace it with the backup? [y/N]" in asked[0]
    assert director.__class__.objects.filter(pk=director.pk).exists()
    assert reasons(backup_dir) == ["timer"]  # nothing saved, nothing replaced


def test_backup_settings_refuse_nonsense() -> None:
    result = run_settings({"HUCKLEY_BACKUP_KEEP": "0"}, "pass")
    assert result.returncode != 0
    assert "HUCKLEY_BACKUP_KEEP and HUCKLEY_BACKUP_INTERVAL must be at least 1" in result.stderr
    result = run_settings({"HUCKLEY_BACKUP_INTERVAL": "five"}, "pass")
    assert "HUCKLEY_BACKUP_INTERVAL must be a whole number" in result.stderr


# Who may read them: they hold password hashes, API token keys and scorer tokens ----------


@pytest.mark.django_db
def test_backups_and_their_folder_are_readable_by_their_owner_only(backup_dir: Path) -> None:
    backup_dir.mkdir(parents=True, exist_ok=True)
    backup_dir.chmod(0o755)  # as an older Huckley, or a plain mkdir, left it
    backup = backups.take("timer")
    assert backup.stat().st_mode & 0o777 == 0o600
    assert backup_dir.stat().st_mode & 0o777 == 0o700


@pytest.mark.django_db
def test_restore_warns_when_the_file_can_be_read_by_others(
    backup_dir: Path, director: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = backups.take("timer")
    backup.chmod(0o644)
    with pytest.raises(CommandError, match="Nothing restored"):
        call_command("restore", str(backup), "--no-input")
    warning = capsys.readouterr().err
    assert f"{backup.name} can be read by other accounts on this machine" in warning
    assert f"chmod 600 {backup}" in warning


@pytest.mark.django_db
def test_restore_says_nothing_of_a_file_only_its_owner_reads(
    backup_dir: Path, director: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = backups.take("timer")
    backup.chmod(0o600)
    with pytest.raises(CommandError, match="Nothing restored"):
        call_command("restore", str(backup), "--no-input")
    assert "can be read by other accounts" not in capsys.readouterr().err
