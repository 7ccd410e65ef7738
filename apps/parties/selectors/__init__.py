"""Reads of a party night: its tables' states, the players' tallies, who sits where.

A busy night is read often and changes a little at a time, so reads are cached in the
process by what makes them true: a table's state by its version, the night's context by the
night's version. A version never changes meaning, so nothing cached goes stale; what is kept,
and for how long, is caches.py's.

By what they read: ``tables`` (a round's tables as rows and states), ``past`` (the rounds
before the one in play), ``night`` (the night at one version, its tallies and its list).
"""

from __future__ import annotations

from .night import (
    NIGHTS,
    Night,
    Tally,
    expected_of,
    invitable,
    listed_players,
    night_at,
    players_of,
    preview_correction,
    tallies,
    tallies_of,
    waiting_requests,
)
from .past import (
    NO_PAST,
    PAST,
    PastRounds,
    latest_prizes,
    past_of,
    travelling_holders,
)
from .tables import (
    STATES,
    STATES_PER_READ,
    SUMMARIES,
    TableRow,
    decoded_state,
    keep_sent_state,
    keep_state,
    moment_of,
    ms_of,
    round_state,
    rows_of,
    stored_states,
    table_at,
    table_rows,
    table_state,
    table_states,
    table_summaries,
)

__all__ = [
    "decoded_state",
    "expected_of",
    "invitable",
    "keep_sent_state",
    "keep_state",
    "latest_prizes",
    "listed_players",
    "moment_of",
    "ms_of",
    "Night",
    "night_at",
    "NIGHTS",
    "NO_PAST",
    "PAST",
    "past_of",
    "PastRounds",
    "players_of",
    "preview_correction",
    "round_state",
    "rows_of",
    "STATES",
    "STATES_PER_READ",
    "stored_states",
    "SUMMARIES",
    "table_at",
    "table_rows",
    "table_state",
    "table_states",
    "table_summaries",
    "TableRow",
    "tallies",
    "tallies_of",
    "Tally",
    "travelling_holders",
    "waiting_requests",
]
