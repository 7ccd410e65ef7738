"""Every write to a party night: one function per action, each in one transaction.

A night-wide change locks the party row and appends an Event at the night's next version; a
tap locks only its table and appends an Event at the table's next version (see ``log``).
After commit the screens that show the change are told.
"""

from __future__ import annotations

from .doors import (
    ask_to_join,
    collect_seat,
    let_in,
    set_expected_players,
    turn_away,
    turn_away_all,
    wait_scope,
    waiting_of,
)
from .night import (
    add_player,
    create_party,
    end_night,
    free_player,
    join_party,
    pause_night,
    player_seen,
    remove_player,
    rename_player,
    reopen_night,
    resume_night,
    set_player_language,
    set_screen_language,
    show_room,
    start_next_round,
)
from .tables import correct_entry, host_move, table_action

__all__ = [
    "add_player",
    "ask_to_join",
    "collect_seat",
    "let_in",
    "set_expected_players",
    "turn_away",
    "turn_away_all",
    "wait_scope",
    "waiting_of",
    "correct_entry",
    "create_party",
    "end_night",
    "free_player",
    "host_move",
    "join_party",
    "pause_night",
    "player_seen",
    "remove_player",
    "rename_player",
    "reopen_night",
    "resume_night",
    "set_player_language",
    "set_screen_language",
    "show_room",
    "start_next_round",
    "table_action",
]
