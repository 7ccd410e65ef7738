"""Every write to a party night: one function per action, each in one transaction.

Each function locks the party row, changes what it must, appends one Event with the next
version, and broadcasts that version to the party's group after commit.
"""

from __future__ import annotations

from apps.core.errors import Refused

from .night import (
    add_player,
    create_party,
    end_night,
    free_player,
    join_party,
    pause_night,
    remove_player,
    rename_player,
    resume_night,
    start_next_round,
)
from .tables import correct_entry, table_action

__all__ = [
    "Refused",
    "add_player",
    "correct_entry",
    "create_party",
    "end_night",
    "free_player",
    "join_party",
    "pause_night",
    "remove_player",
    "rename_player",
    "resume_night",
    "start_next_round",
    "table_action",
]
