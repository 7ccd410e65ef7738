"""The reads and writes of a tap: the fast path's SQL (apps/fastpath) or the ORM's own.

Both give the same rows and store the same values (``tests/parties/test_tap_sql.py`` runs
both); the ORM is the reference and the fallback (``FAST_PATH=off``), the fast path what a
big night runs on. What each read is for is said in tables.py.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone

from apps import fastpath
from apps.fastpath import tap_reads, tap_writes
from apps.parties.models import Event, Party, Player, Table


def night_of_tap(code: str, action_id: str) -> Party | None:
    """The night of this code, with ``retried``: whether a tap of this id was applied."""
    if fastpath.enabled():
        return tap_reads.night_of_tap(code, action_id)
    applied = Event.objects.filter(party=OuterRef("pk"), action_id=action_id)
    return Party.objects.filter(code=code).annotate(retried=Exists(applied)).first()


def player_of(party: Party, player_id: int) -> Player | None:
    if fastpath.enabled():
        return tap_reads.player_of(party, player_id)
    return Player.objects.filter(party=party, pk=player_id).first()


def locked_table(party: Party, pk: int) -> Table | None:
    """A table of the night's current round, locked until the tap's transaction ends; its
    state is read only if asked for (the state cache usually has it)."""
    if fastpath.enabled():
        return tap_reads.locked_table(party, pk)
    tables = Table.objects.select_for_update().defer("state")
    return tables.filter(party=party, round=party.current_round, pk=pk).first()


def tap_rows(code: str, action_id: str, player_id: int, table_id: int):
    """(night, player, table) of a tap whose phone showed its table, the table locked; None
    when any of them is not found as given (the tap then reads them one by one)."""
    if fastpath.enabled():
        return tap_reads.tap_rows(code, action_id, player_id, table_id)
    party = night_of_tap(code, action_id)
    player = party and player_of(party, player_id)
    table = player and locked_table(party, table_id)
    return (party, player, table) if table else None


def save_table(table: Table, state_text: str, seats_text: str) -> None:
    """Save a table's state, seats, version and the time it changed (``table.changed``
    is set, as ``auto_now`` would). ``state_text``: the state as JSON, encoded already."""
    if fastpath.enabled():
        tap_writes.save_table(table, state_text, seats_text)
        return
    table.changed = timezone.now()
    Table.objects.filter(pk=table.pk).update(
        state=table.state, seats=table.seats, version=table.version, changed=table.changed
    )


def append_event(**values: Any) -> None:
    """Append one entry to the night's log: ``values`` by field name (``party_id``,
    ``table_id``, ``player_id`` as ids)."""
    if fastpath.enabled():
        tap_writes.append_event(**values)
        return
    Event.objects.create(**values)
