"""A club file (`huckley-club/1`) brought in through a page, by a signed-in user, in two
steps as the roster import: `club_file_preview` says what the import would create and
writes nothing; `club_file_import` imports it and makes the user a director of it.

The preview is the import itself, run inside a transaction that is then rolled back:
what it shows, and every refusal in `exchange.clubfile`'s words, are exactly what the
import does. (On PostgreSQL the rolled-back run leaves the id sequences moved past the
file's ids: a gap in the ids, nothing more.)

`manage.py import_club` is the operator's way, and may name any account. A page is open
to any signed-in user, so a file that names accounts this site has already (as a
director, or as a player's account) is refused here, except the importer's own: it
would hand a club or a player record to someone who did not ask for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User as Account
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from common.errors import UserError
from exchange.clubfile import CLUB_FORMAT, club_import, named_accounts
from scoring.models import Game, Round
from tournaments import audit
from tournaments.models import Club, Player, Season, Session
from tournaments.permissions import User, account

# A club of several seasons is well under this; the page's signed preview carries it.
MAX_BYTES = 2_000_000

# What the preview counts, in the order it says them.
COUNTED: tuple[tuple[str, type[Any]], ...] = (
    ("season", Season),
    ("player", Player),
    ("session", Session),
    ("game", Game),
    ("round", Round),
)


@dataclass(frozen=True)
class ClubFilePreview:
    name: str
    slug: str
    # "1 season", "12 players", ...: what the club brings, in words.
    counts: tuple[str, ...]
    directors: tuple[str, ...]
    # Accounts the import creates, without a password (each sets one through "Forgot
    # your password?" once an email is on it, or a director invites them again).
    created: tuple[str, ...]


def club_file_size_check(size: int) -> None:
    """Refuse a file too large by its size alone, before reading it into memory."""
    if size > MAX_BYTES:
        raise UserError(
            "club_file_too_large",
            gettext(
                "The file is %(size)s bytes; a club file here has at most %(MAX_BYTES)s "
                "bytes. Ask the site's operator to import it (manage.py import_club)."
            )
            % {"size": format(size, ","), "MAX_BYTES": format(MAX_BYTES, ",")},
            field="file",
        )


def club_file_read(content: bytes) -> dict[str, Any]:
    """The JSON of an uploaded club file, or a refusal in plain words."""
    club_file_size_check(len(content))
    try:
        data = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise UserError(
            "club_file_not_json",
            gettext(
                "This is not a club file: it is not JSON (format %(CLUB_FORMAT)s, as "
                "GET /api/clubs/<slug>/export.json gives)."
            )
            % {"CLUB_FORMAT": CLUB_FORMAT},
            field="file",
        ) from None
    if not isinstance(data, dict):
        raise UserError(
            "club_file_format",
            gettext("This is not a club file (format %(CLUB_FORMAT)s).")
            % {"CLUB_FORMAT": CLUB_FORMAT},
        )
    return data


def _importer(user: User) -> Account:
    importer = account(user)
    if importer is None:
        raise UserError("sign_in_required", gettext("Sign in to import a club."))
    return importer


def _refuse_others_accounts(data: Mapping[str, Any], importer: Account) -> None:
    try:
        names = named_accounts(data) - {importer.get_username()}
    except (KeyError, TypeError, AttributeError):
        return  # the import itself refuses the file, in its own words
    existing = sorted(
        get_user_model()
        ._default_manager.filter(username__in=names)
        .values_list("username", flat=True)
    )
    if existing:
        raise UserError(
            "club_file_accounts_exist",
            gettext(
                "The file names accounts this site has already (%(accounts)s); only the "
                "site's operator can import it, with manage.py import_club."
            )
            % {"accounts": ", ".join(existing)},
        )


def _import(data: Mapping[str, Any], importer: Account) -> tuple[Club, list[str]]:
    _refuse_others_accounts(data, importer)
    try:
        club, created = club_import(data)
    except IntegrityError:
        raise UserError(
            "club_file_inconsistent",
            gettext(
                "The club file does not fit together (a row points to one that is not "
                "in it); export it again."
            ),
        ) from None
    club.directors.add(importer)
    return club, created


class _DryRun(Exception):
    def __init__(self, preview: ClubFilePreview) -> None:
        self.preview = preview


def club_file_preview(*, data: Mapping[str, Any], user: User) -> ClubFilePreview:
    """What importing `data` would create, or the import's refusal; writes nothing."""
    importer = _importer(user)
    try:
        with transaction.atomic():
            club, created = _import(data, importer)
            counts = tuple(
                _counted(model._default_manager.filter(**_club_filter(model, club)).count(), noun)
                for noun, model in COUNTED
            )
            directors = tuple(sorted(club.directors.values_list("username", flat=True)))
            raise _DryRun(
                ClubFilePreview(
                    name=club.name,
                    slug=club.slug,
                    counts=counts,
                    directors=directors,
                    created=tuple(created),
                )
            )
    except _DryRun as done:
        return done.preview


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _club_filter(model: type[Any], club: Club) -> dict[str, Club]:
    path = {
        Season: "club",
        Player: "club",
        Session: "club",
        Game: "table__sitting__session__club",
        Round: "game__table__sitting__session__club",
    }[model]
    return {path: club}


@transaction.atomic
def club_file_import(*, data: Mapping[str, Any], user: User) -> Club:
    """Import a club file whole, or nothing; the user becomes one of its directors."""
    importer = _importer(user)
    club, created = _import(data, importer)
    audit.record(
        importer,
        club=club,
        action="club.import",
        summary=f"Imported the club {club.name} from a club file",
        details={"created_accounts": created},
    )
    return club
