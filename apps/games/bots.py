"""The bot runner: after every committed change, a seat a bot plays for (a bot seat, an
absent player's, a pre-listed name not yet claimed) makes its move after a short,
human-looking delay.

Moves go through services.perform_bot_action with the id ``bot:<room>:<version>``, so the
same move scheduled twice (two processes, a retried timer) is applied once, and a move
chosen on a table that has changed since is dropped.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection
from django.db.models import Q

from apps.games.models import Room, Seat
from apps.games.registry import get_game

log = logging.getLogger(__name__)


def bot_delay() -> float:
    """GAME_BOT_DELAY seconds, give or take 40%, so bots don't move like clockwork."""
    base = float(getattr(settings, "GAME_BOT_DELAY", 1.2))
    if base <= 0:
        return 0.0
    return max(0.0, random.uniform(base * 0.6, base * 1.4))


def next_bot_move(room: Room) -> tuple[int, dict] | None:
    """The move the first bot-played seat with something to do would make now, if any."""
    if room.status != Room.Status.PLAYING or room.state is None:
        return None
    entry = get_game(room.game)
    state = entry.load_state(room.state)
    seats = Seat.objects.filter(room=room, player__isnull=False).order_by("player")
    for seat in seats:
        if not seat.bot_plays:
            continue
        player = seat.player
        assert player is not None
        legal = [
            a
            for a in entry.rules.legal_actions(state, player)
            if a.get("type") not in entry.table_actions
        ]
        if not legal:
            continue
        rng = random.Random(f"{room.seed}:{room.version}:bot")
        if room.options.get("bots") == "random":
            action = entry.bots.choose_random(state, player, rng)
        else:
            action = entry.bots.choose_heuristic(state, player, rng)
        if action not in legal:  # a bot must never stall the table on a bad choice
            action = rng.choice(legal)
        return player, action
    return None


def play_bot_move(room_code: str) -> bool:
    """Make the next bot move now, if one is due; whether a move was applied."""
    from apps.games.services import perform_bot_action

    room = Room.objects.filter(code=room_code).first()
    if room is None:
        return False
    move = next_bot_move(room)
    if move is None:
        return False
    player, action = move
    action_id = f"bot:{room.code}:{room.version}"
    result = perform_bot_action(room.code, player, room.version, action, action_id)
    return result is not None and not result.duplicate


def play_bots(room_code: str, limit: int = 10_000) -> int:
    """Let the bots move until a person must act (tests and tools); how many moves."""
    moves = 0
    while moves < limit and play_bot_move(room_code):
        moves += 1
    return moves


# -- timers ---------------------------------------------------------------------------------


def _in_thread(work, *args) -> None:
    """Run ``work`` with a DB connection of this thread's own, closed at the end."""
    try:
        for attempt in range(5):
            try:
                close_old_connections()
                work(*args)
                return
            except OperationalError:
                # A busy database (another writer holds the lock): try again shortly.
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))
    except Exception:
        log.exception("bot runner: %s%r failed", getattr(work, "__name__", work), args)
    finally:
        connection.close()


def _has_bot_seats(room_code: str) -> bool:
    bot_played = Q(is_bot=True) | Q(taken_over=True) | Q(claimed=False)
    seats = Seat.objects.filter(room__code=room_code, room__status=Room.Status.PLAYING)
    return seats.filter(bot_played, player__isnull=False).exists()


def schedule(room_code: str) -> None:
    """After a commit: let a bot move after the delay, if one is due then."""
    if not _has_bot_seats(room_code):
        return  # a table of people: no thread to start
    timer = threading.Timer(bot_delay(), _in_thread, args=(play_bot_move, room_code))
    timer.daemon = True
    timer.start()


def _take_over(room_code: str) -> None:
    from apps.games.services import RoomError, take_over_absent_seats

    with contextlib.suppress(RoomError):  # the room is gone
        take_over_absent_seats(room_code)


def schedule_takeover(room_code: str, seconds: float) -> None:
    """Check for players gone longer than GAME_BOT_TAKEOVER once that time has passed."""
    timer = threading.Timer(seconds + 0.05, _in_thread, args=(_take_over, room_code))
    timer.daemon = True
    timer.start()
