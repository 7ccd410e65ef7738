"""Helpers for the night's tests."""

from __future__ import annotations

from dataclasses import dataclass

from apps.parties.models import Party, Player, Table
from apps.parties.rules.table import TableState, outcome


@dataclass
class SeatedTable:
    """A table of the current round as a test reads it: its row, state and players."""

    table: Table
    state: TableState
    players: list[Player]

    @property
    def head(self) -> bool:
        return self.table.number == 1

    @property
    def result(self) -> dict | None:
        return outcome(self.state)


def tables_of(party: Party) -> list[SeatedTable]:
    party.refresh_from_db()
    tables = list(party.tables.filter(round=party.current_round).order_by("number"))
    players = party.players.in_bulk([pid for t in tables for pid in t.seats])
    return [
        SeatedTable(t, TableState.from_json(t.state), [players[pid] for pid in t.seats])
        for t in tables
    ]
