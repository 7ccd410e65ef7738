"""What every room write shares: the locked room, applying a move to the log, and telling
the pages and the scheduler after each change."""

from __future__ import annotations

import os
import random
import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from apps.core import scheduler
from apps.core.changes import room_change
from apps.core.codes import new_code, normalize_code
from apps.core.dice import new_seed, rng_for
from apps.core.errors import Refused, refused_by_rules
from apps.core.live import emit
from apps.core.names import clean_name as clean_person_name
from apps.core.tokens import SeatClaim, make_seat_token
from apps.games.models import Room, RoomEvent, Seat
from apps.games.registry import GameEntry, get_game

NAME_MAX = 30


def seat_token(room: Room, seat: Seat) -> str:
    return make_seat_token(room.scope, seat.id, seat.nonce)


def new_nonce() -> str:
    return secrets.token_hex(8)


def clean_name(name: Any) -> str:
    return clean_person_name(name, NAME_MAX, empty=_("Type your name first."))


def locked_room(code: str) -> Room:
    try:
        return Room.objects.select_for_update().get(code=normalize_code(str(code)))
    except Room.DoesNotExist:
        raise Refused(_("There is no room with the code {code}.").format(code=code)) from None


def seat_for_claim(room: Room, claim: SeatClaim | None) -> Seat:
    if claim is None:
        raise Refused(_("You are watching this table; take a seat to play."))
    if claim.scope != room.scope:
        raise Refused(_("That seat belongs to another room."))
    seat = room.seats.filter(id=claim.seat_id).first()
    if seat is None:
        raise Refused(_("That seat is not in this room."))
    if not seat.claimed or seat.nonce != claim.nonce:
        raise Refused(_("This seat has been given to someone else; take a seat again."))
    return seat


def room_seed(options: dict) -> int:
    """A secret seed, unless a test run or a DEBUG install asks for a fixed one."""
    if fixed := os.environ.get("BUNKO_FIXED_SEED"):
        return int(fixed)
    if settings.DEBUG and "seed" in options:
        return int(options["seed"])
    return new_seed()


def unique_code() -> str:
    for _attempt in range(50):
        code = new_code()
        if not Room.objects.filter(code=code).exists():
            return code
    raise Refused(_("Could not find a free room code; try again."))


# -- after every change ---------------------------------------------------------------------------


def changed(room: Room, *fields: str, state: Any = None) -> None:
    """Bump the version and save; after commit the pages catch up. While the game runs, the
    room's deadlines are made to match the new state (system moves, bots' moves)."""
    room.version += 1
    room.save(update_fields=["version", "updated_at", *fields])
    emit(room.group, room_change(room.code, room.version))
    if room.status == Room.Status.PLAYING:
        entry = get_game(room.game)
        plan_deadlines(room, entry, state if state is not None else entry.load_state(room.state))
    else:
        scheduler.clear(room.scope)


def plan_deadlines(room: Room, entry: GameEntry, state: Any) -> None:
    """The moves this state has waiting: every timed system move the rules list, and a move
    for each bot-played seat that may act (several bots may act at once). A move still wanted
    keeps the time it was first armed at."""
    wanted = scheduler.system_moves(entry.rules.legal_actions(state, None), kind=RoomEvent.SYSTEM)
    for seat in room.seats.filter(player__isnull=False):
        if not seat.bot_plays or not entry.rules.legal_actions(state, seat.player):
            continue
        level = seat.bot_level or entry.default_bot_level
        think = entry.think_ms(state, seat.player, level, random.Random())
        wanted[f"bot:{seat.player}"] = (think, {"kind": RoomEvent.BOT, "player": seat.player})
    scheduler.sync(room.scope, wanted)


def apply_move(
    room: Room,
    entry: GameEntry,
    state: Any,
    player: int | None,
    action: dict,
    action_id: str,
    kind: str,
) -> Any:
    """Apply one move to the rules and the log; the room is finished when, and only when,
    the rules' outcome says so."""
    with refused_by_rules():
        new = entry.rules.apply(state, player, action, rng_for(room.seed, room.version))
    RoomEvent.objects.create(
        room=room, version=room.version, action_id=action_id, kind=kind, seat=player, data=action
    )
    room.state = new.to_json()
    if entry.rules.outcome(new) is not None:
        room.status = Room.Status.FINISHED
    changed(room, "state", "status", state=new)
    return new


def on_commit(function, *args) -> None:
    transaction.on_commit(lambda: function(*args))
