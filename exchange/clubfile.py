"""A whole club as one JSON file (`huckley-club/1`), and back.

The file holds every row of the club, table by table, with its id: seasons, players,
the pairs kept apart, Big Loser awards, sessions with their rosters, sittings, tables,
seatings, sit-outs, placings and standings, every game with its players, rounds, round
history and pending double entries, and the club's audit log (what the directors did:
restored by the import as it was, so the club keeps its history). Accounts (directors,
players' accounts, who entered what) are named by username.

Left out on purpose: scorer links and table cards (they are keys to a table; references to them are
blanked), online play's seat links (keys to a seat) and the round being played online
(its hands are secret until it ends; a finished one is a round like any other), and
anything derived that can be rebuilt (cached standings). Rows are written
field by field from the models, so a field another part of the site adds later travels
without a change here.

`club_import` loads such a file into a database that holds none of its rows, keeping
every id, so that exporting again gives the same file (tests/exchange prove the round
trip) and the game ids of a session export stay valid.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext

from common.errors import UserError
from common.text import refuse_hidden_characters
from scoring.models import Game, GamePlayer, PendingRound, Round, RoundChange
from tournaments.models import (
    AuditEntry,
    BigLoserAward,
    Club,
    KeepApart,
    Placing,
    Player,
    Season,
    Seating,
    Session,
    SessionPlayer,
    SessionStanding,
    SitOut,
    Sitting,
    Table,
)

CLUB_FORMAT = "huckley-club/1"

# Each table of the file, in an order that creates every row after the rows it points
# to, with the path from the model to its club.
TABLES: tuple[tuple[type[models.Model], str], ...] = (
    (Season, "club"),
    (Player, "club"),
    (KeepApart, "club"),
    (BigLoserAward, "season__club"),
    (Session, "club"),
    (SessionPlayer, "session__club"),
    (Sitting, "session__club"),
    (Table, "sitting__session__club"),
    (Seating, "sitting__session__club"),
    (SitOut, "sitting__session__club"),
    (Placing, "sitting__session__club"),
    (SessionStanding, "session__club"),
    (Game, "table__sitting__session__club"),
    (GamePlayer, "game__table__sitting__session__club"),
    (Round, "game__table__sitting__session__club"),
    (RoundChange, "game__table__sitting__session__club"),
    (PendingRound, "game__table__sitting__session__club"),
    # Added with the audit log: a file from before it has no such table and imports as ever.
    (AuditEntry, "club"),
)
ALL_TABLES: tuple[tuple[type[models.Model], str], ...] = ((Club, "pk"), *TABLES)
# The names a person typed, checked by the rule for names (common/text.py) on the way in:
# a club file may come from anywhere.
NAMED = {
    Club: "Club names",
    Season: "Season names",
    Session: "Session names",
    Player: "Player names",
    GamePlayer: "Player names",
}
# References to scorer links are blanked: the links themselves are not exported.
BLANKED = {"scorer_link"}


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _is_user(field: models.Field[Any, Any]) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return list(model._meta.concrete_fields)


def _value(obj: models.Model, field: models.Field[Any, Any], users: Mapping[int, str]) -> Any:
    if field.name in BLANKED:
        return None
    value = getattr(obj, field.attname)
    if value is None:
        return None
    if _is_user(field):
        return users[value]
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _key(model: type[models.Model], field: models.Field[Any, Any]) -> str:
    return field.name if _is_user(field) else field.attname


def club_export(club: Club) -> dict[str, Any]:
    """The club as plain JSON data, ordered by table and id: the same data always gives
    the same file."""
    rows: dict[type[models.Model], list[models.Model]] = {
        model: list(model._default_manager.filter(**{path: club}).order_by("pk"))
        for model, path in TABLES
    }
    user_ids = set(club.directors.values_list("pk", flat=True))
    every: list[tuple[type[models.Model], list[models.Model]]] = [(Club, [club]), *rows.items()]
    for model, objs in every:
        for field in _fields(model):
            if _is_user(field):
                user_ids |= {getattr(o, field.attname) for o in objs} - {None}
    users = dict(
        get_user_model()._default_manager.filter(pk__in=user_ids).values_list("pk", "username")
    )
    club_row = {_key(Club, f): _value(club, f, users) for f in _fields(Club)}
    club_row["directors"] = sorted(users[pk] for pk in club.directors.values_list("pk", flat=True))
    return {
        "format": CLUB_FORMAT,
        "club": club_row,
        "tables": {
            _label(model): [
                {_key(model, f): _value(o, f, users) for f in _fields(model)} for o in objs
            ]
            for model, objs in rows.items()
        },
    }


def _parse(field: models.Field[Any, Any], value: Any, users: Mapping[str, int]) -> Any:
    if value is None:
        return None
    if _is_user(field):
        return users[value]
    if isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value)
        if parsed is None:
            raise ValueError(f"{field.name}: {value!r} is not a date and time")
        return parsed
    if isinstance(field, models.DateField):
        day = parse_date(value)
        if day is None:
            raise ValueError(f"{field.name}: {value!r} is not a date")
        return day
    return value


def _build(
    model: type[models.Model], row: Mapping[str, Any], users: Mapping[str, int]
) -> models.Model:
    values = {}
    for field in _fields(model):
        key = _key(model, field)
        if key in row:
            values[field.attname] = _parse(field, row[key], users)
    return model(**values)


@contextmanager
def _stored_timestamps(models_: Sequence[type[models.Model]]) -> Iterator[None]:
    """Keep the file's timestamps: `auto_now` and `auto_now_add` would stamp every
    imported row with the time of the import."""
    saved = []
    for model in models_:
        for field in _fields(model):
            if isinstance(field, models.DateField) and (field.auto_now or field.auto_now_add):
                saved.append((field, field.auto_now, field.auto_now_add))
                field.auto_now = field.auto_now_add = False
    try:
        yield
    finally:
        for field, auto_now, auto_now_add in saved:
            field.auto_now, field.auto_now_add = auto_now, auto_now_add


def _refuse_hidden_names(data: Mapping[str, Any]) -> None:
    for model, what in NAMED.items():
        rows = [data["club"]] if model is Club else data["tables"].get(_label(model), [])
        for row in rows:
            refuse_hidden_characters(str(row.get("name", "")), what=f"{what} in a club file")


def _users(data: Mapping[str, Any]) -> set[str]:
    names = set(data["club"].get("directors", []))
    for model, _path in ALL_TABLES:
        rows = [data["club"]] if model is Club else data["tables"].get(_label(model), [])
        for field in _fields(model):
            if _is_user(field):
                names |= {r.get(field.name) for r in rows} - {None}
    return names


def named_accounts(data: Mapping[str, Any]) -> set[str]:
    """The usernames a club file names: its directors and every account its rows point to."""
    return _users(data)


@transaction.atomic
def club_import(data: Mapping[str, Any]) -> tuple[Club, list[str]]:
    """Load a club file into a database that holds none of its rows. Returns the club
    and the usernames of the accounts it had to create (without a usable password: an
    administrator sets one)."""
    if not isinstance(data, Mapping) or data.get("format") != CLUB_FORMAT:
        raise UserError(
            "club_file_format",
            gettext("This is not a club file (format %(CLUB_FORMAT)s).")
            % {"CLUB_FORMAT": CLUB_FORMAT},
        )
    try:
        club_row = data["club"]
        tables = data["tables"]
        _refuse_hidden_names(data)
        if Club.objects.filter(slug=club_row["slug"]).exists():
            raise UserError(
                "club_exists",
                gettext(
                    "A club with the slug %(slug)r exists already; a club file imports into "
                    "a database without it."
                )
                % {"slug": club_row["slug"]},
            )
        taken = [
            _label(model)
            for model, _path in ALL_TABLES
            if model._default_manager.filter(
                pk__in=[club_row["id"]]
                if model is Club
                else [r["id"] for r in tables.get(_label(model), [])]
            ).exists()
        ]
        if taken:
            raise UserError(
                "club_ids_taken",
                gettext(
                    "The database holds rows with this file's ids already (%(join)s); "
                    "import the club into an empty database."
                )
                % {"join": ", ".join(taken)},
            )
        User = get_user_model()
        users = dict(User._default_manager.values_list("username", "pk"))
        created = []
        for name in sorted(_users(data) - set(users)):
            user = User(username=name)
            user.set_unusable_password()
            user.save()
            users[name] = user.pk
            created.append(name)
        with _stored_timestamps([m for m, _ in ALL_TABLES]):
            club = _build(Club, club_row, users)
            club.save(force_insert=True)
            assert isinstance(club, Club)
            club.directors.set([users[n] for n in club_row.get("directors", [])])
            for model, _path in TABLES:
                objs = [_build(model, row, users) for row in tables.get(_label(model), [])]
                model._default_manager.bulk_create(objs)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UserError(
            "club_file_invalid", gettext("The club file cannot be read: %(e)r.") % {"e": e}
        ) from None
    # Ids were given explicitly: move PostgreSQL's sequences past them (a no-op on SQLite).
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [m for m, _ in ALL_TABLES]):
            cursor.execute(sql)
    return club, created
