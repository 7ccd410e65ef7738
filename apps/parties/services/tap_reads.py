"""The three reads of a tap, in SQL written out once.

A tap is what a big night does hundreds of times a second, and Django's query compiler cost
more than the database's answer: the night with "was this tap applied before?" took 0.63 ms
of CPU to build and 0.16 ms to run as written here (PostgreSQL, this laptop). ``raw()``
then still cost more than the query (it matched the columns to the fields and looked up
their conversions anew for every row), so a row becomes a model instance here, with each
field's own conversions found once (``_reading``). Each query is the one the ORM wrote for
it (tables.py says what each read is for).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection

from apps.parties.models import Event, Party, Player, Table


def _columns(model, alias: str, leave_out: tuple[str, ...] = ()) -> str:
    quote = connection.ops.quote_name
    return ", ".join(
        f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields if f.name not in leave_out
    )


@cache
def _party_sql() -> str:
    return (
        f"SELECT {_columns(Party, 'p')}, EXISTS("
        f"SELECT 1 FROM {Event._meta.db_table} e WHERE e.party_id = p.id AND e.action_id = %s"
        f") AS retried FROM {Party._meta.db_table} p WHERE p.code = %s"
    )


@cache
def _player_sql() -> str:
    return (
        f"SELECT {_columns(Player, 'pl')} FROM {Player._meta.db_table} pl"
        " WHERE pl.party_id = %s AND pl.id = %s"
    )


@cache
def _table_sql() -> str:
    # The state stays in the database (deferred): the state cache usually has it.
    sql = (
        f"SELECT {_columns(Table, 't', leave_out=('state',))} FROM {Table._meta.db_table} t"
        " WHERE t.party_id = %s AND t.round = %s AND t.id = %s"
    )
    # SQLite has no row locks: its write transaction (IMMEDIATE) holds the whole database.
    return sql + (" FOR UPDATE" if connection.features.has_select_for_update else "")


@cache
def _reading(model, leave_out: tuple[str, ...], vendor: str) -> tuple[list[str], list]:
    """The attribute names of ``model``'s columns as ``_columns`` lists them, and for each
    column that needs it the backend's and the field's conversions (SQLCompiler's own)."""
    fields = [f for f in model._meta.concrete_fields if f.name not in leave_out]
    conversions = []
    for position, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        steps = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if steps:
            conversions.append((position, steps, column))
    return [f.attname for f in fields], conversions


def _one(model, sql: str, params: list, leave_out: tuple[str, ...] = (), extra: str = ""):
    """The first row of ``sql`` as a ``model`` instance (``extra``: the name of one more
    column after the model's, set on the instance as it is), or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    names, conversions = _reading(model, leave_out, connection.vendor)
    values: list[Any] = list(row)
    for position, steps, column in conversions:
        value = values[position]
        for step in steps:
            value = step(value, column, connection)
        values[position] = value
    instance = model.from_db(DEFAULT_DB_ALIAS, names, values[: len(names)])
    if extra:
        setattr(instance, extra, values[len(names)])
    return instance


def night_of_tap(code: str, action_id: str) -> Party | None:
    """The night of this code, with ``retried``: whether a tap of this id was applied."""
    return _one(Party, _party_sql(), [action_id, code], extra="retried")


def player_of(party: Party, player_id: int) -> Player | None:
    return _one(Player, _player_sql(), [party.pk, player_id])


def locked_table(party: Party, pk: int) -> Table | None:
    """A table of the night's current round, locked until the tap's transaction ends."""
    params = [party.pk, party.current_round, pk]
    return _one(Table, _table_sql(), params, leave_out=("state",))
