"""Writes to game rooms: one function per change, each in one transaction with the room row
locked (select_for_update); after commit the room's pages catch up, and the room's deadlines
(timed system moves, bots' moves) follow every change of state."""

from __future__ import annotations

from .common import seat_token
from .lobby import create_room, set_seat_bot, start_room, take_invited_seat, take_seat
from .play import ActionResult, fire_deadline, perform_action, play_bots
from .presence import (
    seat_connected,
    seat_left,
    seated_at_the_night,
    stamp_seats,
    take_over_absent_seats,
    take_over_everywhere,
)
from .seats import fire_unopened, release_seat

__all__ = [
    "ActionResult",
    "create_room",
    "fire_deadline",
    "fire_unopened",
    "perform_action",
    "play_bots",
    "release_seat",
    "seat_connected",
    "seat_left",
    "seated_at_the_night",
    "seat_token",
    "set_seat_bot",
    "stamp_seats",
    "start_room",
    "take_over_absent_seats",
    "take_invited_seat",
    "take_over_everywhere",
    "take_seat",
]
