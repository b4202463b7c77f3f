"""Model instances from SQL written once, for the few reads and writes on the hottest
paths: a table's locks and who plays there, read at every move over HTTP and at every
step of online play's scheduler (a round's end, a deal, a robot's move), and the rows
those steps write (`update`, `insert`, `delete`). Django builds a query's SQL anew at
every run, and there that cost three to five times what running it does
(docs/performance.md, "A round's end in hand-written reads").

The columns are the model's own, named from its `_meta`, and each value goes through
the converters Django's compiler applies (the backend's and the field's, such as a
JSON field's), so an instance is the one the ORM would make: `Model.from_db`, its
state not adding, on the default database. The SQL is the caller's, written for
PostgreSQL and SQLite alike; `lock` writes a row lock where the database has them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import DatabaseError, connection
from django.db.models import Model
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


@cache
def _fields(model: type[Model], vendor: str) -> tuple[tuple[str, tuple[Converter, ...], Any], ...]:
    """Each concrete field's attribute name, its converters on `vendor`, and the column
    expression they are called with (as the compiler calls them)."""
    out = []
    for field in model._meta.concrete_fields:
        col = field.get_col(model._meta.db_table)
        converters = tuple(connection.ops.get_db_converters(col)) + tuple(
            col.get_db_converters(connection)
        )
        out.append((field.attname, converters, col))
    return tuple(out)


def columns(model: type[Model], alias: str) -> str:
    """The model's columns, in its fields' order, under the table's `alias` in the
    SQL: what `build` reads."""
    return _columns(model, alias, connection.vendor)


@cache
def _columns(model: type[Model], alias: str, vendor: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(str(f.column))}" for f in model._meta.concrete_fields)


def width(model: type[Model]) -> int:
    """How many columns `columns` names."""
    return len(model._meta.concrete_fields)


def build(model: type[M], row: Sequence[Any], start: int = 0) -> M:
    """The instance of `model` whose columns (as `columns` names them) are the row's,
    from `start` (a row that reads several models' columns one after the other)."""
    fields = _fields(model, connection.vendor)
    converted = []
    for value, (_, converters, col) in zip(row[start : start + len(fields)], fields, strict=True):
        for convert in converters:
            value = convert(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, [name for name, _, _ in fields], converted)


def lock(strength: str, alias: str) -> str:
    """The row lock of the table under `alias` (`strength`: "UPDATE", "NO KEY
    UPDATE"), on a database that has row locks (PostgreSQL); nothing on SQLite, which
    runs one write transaction at a time."""
    if not connection.features.has_select_for_update:
        return ""
    return f" FOR {strength} OF {alias}"


def fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of `sql` with `params`, on the default connection."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def select(model: type[M], sql: str, params: Sequence[Any]) -> list[M]:
    """The instances of `model` that `sql` (reading its `columns`) finds with `params`."""
    return [build(model, row) for row in fetch(sql, params)]


def update(instance: Model, fields: Sequence[str]) -> None:
    """`instance.save(update_fields=fields)`, in SQL written once: each field's value as
    Django's save gives it (`pre_save`, so an `auto_now` field is stamped, then
    `get_db_prep_save`), and the same error when no row was there. A model that a
    receiver of `pre_save` or `post_save` listens to is saved by Django, signals and
    all."""
    model = type(instance)
    if pre_save.has_listeners(model) or post_save.has_listeners(model):
        instance.save(update_fields=fields)
        return
    names = tuple(fields)
    sql, chosen = _update_sql(model, names, connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    quote = connection.ops.quote_name
    chosen = [model._meta.get_field(name) for name in names]
    sets = ", ".join(f"{quote(str(f.column))} = %s" for f in chosen)  # type: ignore[union-attr]
    pk = quote(str(model._meta.pk.column))
    return f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {pk} = %s", chosen


def insert(instance: Model) -> None:
    """`instance.save(force_insert=True)` (what `Model.objects.create` does), in SQL
    written once: each field's value as Django's insert gives it (`pre_save` with
    `add`, so `auto_now_add` and `auto_now` are stamped, then `get_db_prep_save`), an
    automatic key left to the database and read back, the instance then saved (`pk`
    set, no longer adding). A model that a receiver of `pre_save` or `post_save`
    listens to is saved by Django, signals and all."""
    model = type(instance)
    meta = model._meta
    if pre_save.has_listeners(model) or post_save.has_listeners(model) or not _plain(model):
        instance.save(force_insert=True)
        return
    auto = meta.auto_field is not None and instance.pk is None
    sql, chosen, returning = _insert_sql(model, auto, connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in chosen]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if auto:
            key = (
                cursor.fetchone()[0]
                if returning
                else connection.ops.last_insert_id(cursor, meta.db_table, str(meta.pk.column))
            )
            setattr(instance, meta.pk.attname, key)
    instance._state.adding = False
    instance._state.db = connection.alias


@cache
def _plain(model: type[Model]) -> bool:
    """Whether an insert of `model` is its own table's row with nothing read back but
    an automatic key: no parent model's table, no default of the database's own."""
    meta = model._meta
    return not meta.parents and not any(
        f.has_db_default() or (f.db_returning and f is not meta.auto_field)
        for f in meta.concrete_fields
    )


@cache
def _insert_sql(model: type[Model], auto: bool, vendor: str) -> tuple[str, list[Any], bool]:
    quote = connection.ops.quote_name
    meta = model._meta
    chosen = [f for f in meta.concrete_fields if not (auto and f is meta.auto_field)]
    names = ", ".join(quote(str(f.column)) for f in chosen)
    marks = ", ".join("%s" for _ in chosen)
    sql = f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES ({marks})"
    returning = auto and connection.features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {quote(str(meta.pk.column))}"
    return sql, chosen, returning


def delete(model: type[Model], **equal: Any) -> int:
    """`model.objects.filter(**equal).delete()` for a model that nothing refers to, in
    SQL written once: the rows whose columns (named by their fields' attribute names,
    `game_id`) equal the values given; how many of its rows. A model that other rows
    refer to (whose deletion Django's collector follows) or that a receiver of
    `pre_delete` or `post_delete` listens to is deleted by Django."""
    meta = model._meta
    if meta.related_objects or pre_delete.has_listeners(model) or post_delete.has_listeners(model):
        return model._default_manager.filter(**equal).delete()[1].get(meta.label, 0)
    names = tuple(equal)
    sql, chosen = _delete_sql(model, names, connection.vendor)
    params = [f.get_db_prep_value(equal[n], connection) for n, f in zip(names, chosen, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


@cache
def _delete_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    quote = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    chosen = [by_attname[name] for name in names]
    where = " AND ".join(f"{quote(str(f.column))} = %s" for f in chosen)
    return f"DELETE FROM {quote(model._meta.db_table)} WHERE {where}", chosen
