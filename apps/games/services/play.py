"""Moves: a phone's move, and the moves the scheduler fires (the rules' timed system moves
and the bots'), each applied in the order the server commits them."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from apps.core import scheduler
from apps.core.errors import Refused
from apps.core.tokens import SeatClaim
from apps.games.models import Room, RoomEvent
from apps.games.registry import get_game

from .common import apply_move, locked_room, plan_deadlines, seat_for_claim

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActionResult:
    version: int
    duplicate: bool = False  # the id was applied before: acknowledged again, not re-applied


def check_action(action_id: Any, action: Any) -> None:
    if not isinstance(action_id, str) or not 8 <= len(action_id) <= 64:
        raise Refused(_("An action needs an id; nothing changed."))
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused(_("That is not a move in this game."))


def perform_action(
    room_code: str, claim: SeatClaim | None, action_id: str, action: Any
) -> ActionResult:
    """Apply one player's move. A retried id is acknowledged and not applied again. A move is
    refused only when the rules find it no longer legal, never because something else
    happened in the room since the phone drew its buttons: the commit order is the order of
    a race, the same on every screen."""
    check_action(action_id, action)
    with transaction.atomic():
        room = locked_room(room_code)
        seat = seat_for_claim(room, claim)
        if room.events.filter(action_id=action_id).exists():
            return ActionResult(room.version, duplicate=True)
        if room.status == Room.Status.LOBBY:
            raise Refused(_("The game has not started yet."))
        if room.status == Room.Status.FINISHED:
            raise Refused(_("This game is over."))
        if seat.player is None:
            raise Refused(_("Your seat is not in this game; you can watch it."))
        entry = get_game(room.game)
        state = entry.load_state(room.state)
        if seat.taken_over:  # the player moves again: the bot hands the seat back
            seat.taken_over = False
            seat.save(update_fields=["taken_over"])
        apply_move(room, entry, state, seat.player, action, action_id, RoomEvent.MOVE)
        return ActionResult(room.version)


def fire_deadline(deadline_id: int, scope: str, now: datetime) -> bool:
    """The scheduler's handler for rooms: make the due move if it is still wanted."""
    code = scope.split(":", 1)[1]
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        deadline = scheduler.claim(deadline_id)
        if room is None or deadline is None or room.status != Room.Status.PLAYING:
            return False
        entry = get_game(room.game)
        state = entry.load_state(room.state)
        payload = deadline.payload
        if payload.get("kind") == RoomEvent.SYSTEM:
            if not scheduler.still_offered(
                payload["action"], entry.rules.legal_actions(state, None)
            ):
                plan_deadlines(room, entry, state)
                return False
            apply_move(
                room, entry, state, None, payload["action"], f"sys:{deadline.pk}", RoomEvent.SYSTEM
            )
            return True
        return _bot_move(room, entry, state, int(payload["player"]), f"bot:{deadline.pk}")


def _bot_move(room: Room, entry, state: Any, player: int, action_id: str) -> bool:
    seat = room.seats.filter(player=player).first()
    legal = entry.rules.legal_actions(state, player)
    if seat is None or not seat.bot_plays or not legal:
        plan_deadlines(room, entry, state)
        return False
    level = seat.bot_level or entry.default_bot_level
    rng = random.Random(f"{room.seed}:{room.version}:bot:{player}")
    choice = entry.bots.choose(state, player, level, rng)
    if choice is None:  # the bot waits: look again after another think
        think = entry.think_ms(state, player, level, rng)
        scheduler.arm(room.scope, f"bot:{player}", think, {"kind": RoomEvent.BOT, "player": player})
        return False
    # A bot must never stall the table on a bad choice: any legal move will do.
    for action in (choice, *rng.sample(legal, len(legal))):
        try:
            apply_move(room, entry, state, player, action, action_id, RoomEvent.BOT)
            return True
        except Refused:
            continue
    log.warning("room %s: no move of seat %s could be applied", room.code, player)
    return False


def play_bots(room_code: str, limit: int = 10_000) -> int:
    """Fire the room's pending moves (bots' and system moves) at once, earliest first, until
    a person must act (tests, tools); how many moves were made."""
    from django.utils import timezone

    scope = f"room:{room_code}"
    moves = idle = 0
    while moves < limit and idle < 20:
        pending = scheduler.pending(scope)
        if not pending:
            break
        if fire_deadline(pending[0].pk, scope, timezone.now()):
            moves, idle = moves + 1, 0
        else:
            idle += 1  # a bot that chose to wait, or a move no longer wanted
    return moves
