"""The reads of a tap, in SQL written out once: one round trip when the phone knows its table.

A tap is what a big night does hundreds of times a second, and Django's query compiler cost
more than the database's answer: the night with "was this tap applied before?" took 0.63 ms
of CPU to build and 0.16 ms to run as written here (PostgreSQL, this laptop). ``raw()``
then still cost more than the query (it matched the columns to the fields and looked up
their conversions anew for every row), so a row becomes a model instance here, with each
field's own conversions found once (``_reading``). Each query is the one the ORM wrote for
it (apps/parties/services/tables.py says what each read is for; tap_store.py holds the
ORM's own reads, the fallback).
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
def _tap_sql() -> str:
    """The night, whether the tap was applied before, the player and the table the phone
    showed (locked), in one round trip: a tap's three reads when the phone knows its table."""
    sql = (
        f"SELECT {_columns(Party, 'p')}, EXISTS("
        f"SELECT 1 FROM {Event._meta.db_table} e WHERE e.party_id = p.id AND e.action_id = %s"
        f") AS retried, {_columns(Player, 'pl')}, {_columns(Table, 't', leave_out=('state',))}"
        f" FROM {Party._meta.db_table} p"
        f" JOIN {Player._meta.db_table} pl ON pl.party_id = p.id AND pl.id = %s"
        f" JOIN {Table._meta.db_table} t"
        " ON t.party_id = p.id AND t.round = p.current_round AND t.id = %s"
        " WHERE p.code = %s"
    )
    # Only the table's row is locked: a night's and a player's rows are read by every tap.
    return sql + (" FOR UPDATE OF t" if connection.features.has_select_for_update_of else "")


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


def _first_row(sql: str, params: list) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _instance(model, row: tuple, start: int = 0, leave_out: tuple[str, ...] = ()):
    """The ``model`` instance in ``row`` from column ``start`` on (as ``_columns`` lists
    them), and the column after it."""
    names, conversions = _reading(model, leave_out, connection.vendor)
    values: list[Any] = list(row[start : start + len(names)])
    for position, steps, column in conversions:
        value = values[position]
        for step in steps:
            value = step(value, column, connection)
        values[position] = value
    return model.from_db(DEFAULT_DB_ALIAS, names, values), start + len(names)


def _one(model, sql: str, params: list, leave_out: tuple[str, ...] = (), extra: str = ""):
    """The first row of ``sql`` as a ``model`` instance (``extra``: the name of one more
    column after the model's, set on the instance as it is), or None."""
    row = _first_row(sql, params)
    if row is None:
        return None
    instance, end = _instance(model, row, 0, leave_out)
    if extra:
        setattr(instance, extra, row[end])
    return instance


def tap_rows(code: str, action_id: str, player_id: int, table_id: int):
    """(night, player, table) of a tap whose phone showed its table, the table locked; None
    when any of them is not found as given (the tap then reads them one by one)."""
    row = _first_row(_tap_sql(), [action_id, player_id, table_id, code])
    if row is None:
        return None
    party, end = _instance(Party, row)
    party.retried = row[end]
    player, end = _instance(Player, row, end + 1)
    table, _end = _instance(Table, row, end, leave_out=("state",))
    return party, player, table


def night_of_tap(code: str, action_id: str) -> Party | None:
    """The night of this code, with ``retried``: whether a tap of this id was applied."""
    return _one(Party, _party_sql(), [action_id, code], extra="retried")


def player_of(party: Party, player_id: int) -> Player | None:
    return _one(Player, _player_sql(), [party.pk, player_id])


def locked_table(party: Party, pk: int) -> Table | None:
    """A table of the night's current round, locked until the tap's transaction ends."""
    params = [party.pk, party.current_round, pk]
    return _one(Table, _table_sql(), params, leave_out=("state",))
