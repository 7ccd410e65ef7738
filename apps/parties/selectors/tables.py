"""A night's tables: as rows (who sits where, at which version) and as states, each state
read and decoded once per version and kept while it is current (caches.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from apps.core.changes import Change, stamp
from apps.parties.caches import Cache, by_version
from apps.parties.models import Party, Table
from apps.parties.rules.state import share_logs, with_tail
from apps.parties.rules.summary import TableSummary, summary_of
from apps.parties.rules.table import DONE, TableState

# A table's state by (table id, version); the newest three versions of each table. Only the
# tables in play are asked for again and again: the others go idle here (caches.py).
STATES = Cache(4096, slot=by_version, keep=3)
# A table's marks on the score sheets by (table id, version): every table of the night, read
# at each change of the night for the tallies and the travelling prizes, in a few hundred
# bytes instead of its whole game (rules/summary.py).
SUMMARIES = Cache(16384, slot=by_version, keep=1)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table without its state: what a query of the round's tables returns cheaply. (With
    slots: a night keeps one for every table of its past rounds.)"""

    pk: int
    round: int
    number: int
    version: int
    seats: tuple[int, ...]
    changed: datetime | None = None  # when the table last changed

    @property
    def stamp(self) -> int:
        return stamp(self.round, self.version)

    @property
    def changed_ms(self) -> int:
        return ms_of(self.changed) if self.changed else 0


def ms_of(moment: datetime) -> int:
    """A moment in whole milliseconds since 1970, as a table's change message carries it;
    ``moment_of`` turns it back into the same milliseconds."""
    return round(moment.timestamp() * 1000)


def moment_of(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def rows_of(tables, when: bool = True) -> list[TableRow]:
    """Tables (a queryset) as rows, without their states; ``when``: with the time each
    last changed (the console's clock of a table in play; a past table's is not kept)."""
    fields = ["pk", "round", "number", "version", "seats"] + (["changed"] if when else [])
    return [
        TableRow(pk, r, n, v, tuple(s), *changed)
        for pk, r, n, v, s, *changed in tables.values_list(*fields)
    ]


def table_rows(party: Party, round_number: int | None = None) -> list[TableRow]:
    number = party.current_round if round_number is None else round_number
    return rows_of(party.tables.filter(round=number))


def table_at(row: TableRow) -> tuple[TableRow, TableState]:
    """A table's state as near ``row.version`` as can be had: at that version when it is
    cached, else as it is now, with the row's version moved to match. A state is only ever
    kept under its own version: a fragment stamped v shows the table at v, never later."""
    cached = STATES.peek((row.pk, row.version))
    if cached is not None:
        return row, cached
    version, data = Table.objects.values_list("version", "state").get(pk=row.pk)
    return replace(row, version=version), decoded_state(row.pk, version, data)


def keep_sent_state(change: Change) -> TableState | None:
    """Cache the state a table's change carries (services/log.py record_table) under its
    version: a server process that did not make the change draws it without reading the
    table back from the database. Returns the state, or None when it does not read as a
    table's state, or brings the tail of a version this process does not hold (the table is
    then read back from the database as for any other)."""
    payload = change.payload
    key = (payload["table"], change.version)
    state = STATES.peek(key)
    if state is not None:
        return state
    try:
        if "tail" in payload:
            before = STATES.peek((payload["table"], payload["base"]))
            if before is None:
                return None
            return STATES.put(key, with_tail(before, json.loads(payload["tail"])))
        return decoded_state(*key, json.loads(payload["state"]))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def decoded_state(pk: int, version: int, data: dict, keep: bool = True) -> TableState:
    """A table's state at ``version`` from its stored form, kept under that version (unless
    ``keep`` is false). The rolls and entries it shares with an older version kept here are
    held once (rules/state.py ``share_logs``)."""
    state = STATES.peek((pk, version))
    if state is None:
        state = TableState.from_json(data)
        share_logs(state, STATES.newest_before(pk, version))
        if keep:
            STATES.put((pk, version), state)
    return state


def keep_state(table_id: int, version: int, state: dict) -> None:
    """Cache a table's state as just saved and committed, under its version."""
    decoded_state(table_id, version, state)


def table_state(table: Table) -> TableState:
    """The state of a table row just read, decoded once per version."""
    return STATES.get((table.pk, table.version), lambda: TableState.from_json(table.state))


def table_states(rows: Iterable[TableRow], keep: bool = True) -> list[TableState]:
    """The states of many tables for tallies and flags: the ones not cached at their version
    come in one query, as they are now (and are kept under their own versions, unless
    ``keep`` is false: a service reading inside its transaction may see a version that is
    never committed)."""
    rows = list(rows)
    found = {r.pk: STATES.peek((r.pk, r.version)) for r in rows}
    missing = [pk for pk, state in found.items() if state is None]
    for pk, version, data in stored_states(missing):
        found[pk] = decoded_state(pk, version, data, keep)
    return [found[r.pk] for r in rows]


def table_summaries(rows: Iterable[TableRow], keep: bool = True) -> list[TableSummary]:
    """The summaries of many tables (``keep`` as for ``table_states``). A table whose state
    is not cached is read in the same one query as the others, summed up, and its state let
    go: a finished table's game is not kept for the tallies' sake."""
    rows = list(rows)
    found = {r.pk: SUMMARIES.peek((r.pk, r.version), touch=keep) for r in rows}
    for row in rows:
        if found[row.pk] is None and (state := STATES.peek((row.pk, row.version))) is not None:
            found[row.pk] = _kept_summary(row.pk, row.version, summary_of(state), keep)
    missing = [pk for pk, summary in found.items() if summary is None]
    for pk, version, data in stored_states(missing):
        summary = SUMMARIES.peek((pk, version)) or summary_of(TableState.from_json(data))
        found[pk] = _kept_summary(pk, version, summary, keep)
    return [found[r.pk] for r in rows]


# Tables whose states are read in one query. A finished table's state decodes to some 90 KB
# of lists and dicts; a server started late in a night (or a host's correction, which reads
# the past rounds afresh) read every past table in one query, and at round 41 of 30 tables
# its 1,200 decoded states, held at once, took the process from 84 to 204 MB for good.
STATES_PER_READ = 100


def stored_states(pks: list[int]) -> Iterator[tuple[int, int, dict]]:
    """(pk, version, stored state) of these tables, read ``STATES_PER_READ`` at a time so
    that only those are decoded at once."""
    for start in range(0, len(pks), STATES_PER_READ):
        chunk = pks[start : start + STATES_PER_READ]
        yield from Table.objects.filter(pk__in=chunk).values_list("pk", "version", "state")


def _kept_summary(pk: int, version: int, summary: TableSummary, keep: bool) -> TableSummary:
    return SUMMARIES.put((pk, version), summary) if keep else summary


def round_state(rows: list[TableRow]) -> tuple[bool, bool]:
    """(STOP called, round over) for a round's tables (head table first)."""
    if not rows:
        return False, False
    states = table_states(rows)
    return states[0].stopped, all(s.phase == DONE for s in states)
