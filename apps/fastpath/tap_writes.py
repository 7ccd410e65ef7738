"""The two writes of a tap, in SQL written out once (tap_reads.py does the same for its reads).

Every tap saves its table and appends its entry to the night's log. Through the ORM the two
cost about 2 ms of CPU on a slow laptop (``save()`` and ``create()`` build their SQL anew
each time) against a few hundred microseconds as written here: at 100 busy tables that was a
sixth of all the server's work. The statements are the ones the ORM wrote; the values go
through the backend's own adaptation (dates, JSON), so SQLite and PostgreSQL store exactly
what the ORM stored. The table's state is encoded to JSON once, for the database and for the
change's message alike.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.db import connection
from django.utils import timezone

from apps.parties.models import Event, Table


def _json(value: Any, text: str):
    """``value`` as its JSON column takes it, from ``text``: its JSON, encoded already."""
    if connection.vendor == "postgresql":
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=lambda _value: text)
    return text


@cache
def _table_sql() -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(
        f"{quote(Table._meta.get_field(name).column)} = %s"
        for name in ("state", "seats", "version", "changed")
    )
    return f"UPDATE {quote(Table._meta.db_table)} SET {columns} WHERE {quote('id')} = %s"


@cache
def _event_sql() -> str:
    quote = connection.ops.quote_name
    fields = [f for f in Event._meta.concrete_fields if not f.primary_key]
    return (
        f"INSERT INTO {quote(Event._meta.db_table)} "
        f"({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )


def save_table(table: Table, state_text: str, seats_text: str) -> None:
    """Save a table's state, seats, version and the time it changed (``table.changed``
    is set, as ``auto_now`` would)."""
    ops = connection.ops
    table.changed = timezone.now()
    params = [
        _json(table.state, state_text),
        _json(table.seats, seats_text),
        table.version,
        ops.adapt_datetimefield_value(table.changed),
        table.pk,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(), params)


def append_event(**values: Any) -> None:
    """Append one entry to the night's log: ``values`` by field name (``party``, ``table``,
    ``player`` as ids: ``party_id``...); ``created`` is now, ``data`` JSON-encoded here."""
    ops = connection.ops
    values = {"created": timezone.now(), "data": {}, **values}
    params = []
    for field in Event._meta.concrete_fields:
        if field.primary_key:
            continue
        if field.attname in values:
            value = values[field.attname]
        elif field.has_default() or field.null:
            value = field.get_default()  # as the ORM would: a field added later keeps its own
        else:  # a required field this caller does not know of yet: never a silent NULL
            raise TypeError(f"append_event needs a value for Event.{field.attname}")
        if field.name == "data":
            value = _json(value, json.dumps(value))
        elif field.name == "created":
            value = ops.adapt_datetimefield_value(value)
        params.append(value)
    with connection.cursor() as cursor:
        cursor.execute(_event_sql(), params)
