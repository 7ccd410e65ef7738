"""Writes to game rooms: one function per change, each in one transaction with the room row
locked (select_for_update), each telling the room's live pages after commit."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.core.codes import new_code, normalize_code
from apps.core.dice import new_seed, rng_for
from apps.core.live import broadcast
from apps.core.tokens import SeatClaim, make_seat_token
from apps.games.models import Action, Room, Seat
from apps.games.registry import GameEntry, UnknownGame, get_game
from apps.core.protocol import IllegalAction

NAME_MAX = 30
BOT_NAMES = ("Bot Kiki", "Bot Juma", "Bot Zuri", "Bot Tumo", "Bot Nia")


class RoomError(Exception):
    """A refused request: the message says why, in words a player reads. Nothing changed."""


@dataclass(frozen=True)
class ActionResult:
    version: int
    duplicate: bool = False  # the id was applied before: acknowledged again, not re-applied


def seat_token(room: Room, seat: Seat) -> str:
    return make_seat_token(room.scope, seat.id, seat.nonce)


# -- helpers ----------------------------------------------------------------------------------


def _clean_name(name: Any) -> str:
    text = " ".join(str(name or "").split())[:NAME_MAX]
    if not text:
        raise RoomError("Type your name first.")
    return text


def _entry(slug: str) -> GameEntry:
    try:
        return get_game(slug)
    except UnknownGame as error:
        raise RoomError(str(error)) from None


def _locked_room(code: str) -> Room:
    try:
        return Room.objects.select_for_update().get(code=normalize_code(str(code)))
    except Room.DoesNotExist:
        raise RoomError(f"There is no room with the code {code}.") from None


def _seat_for_claim(room: Room, claim: SeatClaim | None) -> Seat:
    if claim is None:
        raise RoomError("You are watching this table; take a seat to play.")
    if claim.scope != room.scope:
        raise RoomError("That seat belongs to another room.")
    seat = room.seats.filter(id=claim.seat_id).first()
    if seat is None:
        raise RoomError("That seat is not in this room.")
    if not seat.claimed or seat.nonce != claim.nonce:
        raise RoomError("This seat has been given to someone else; take a seat again.")
    return seat


def _changed(room: Room, *fields: str) -> None:
    """Bump the version, save, and after commit tell the pages and wake the bot runner."""
    from apps.games import bots  # the runner calls back into this module

    room.version += 1
    room.save(update_fields=["version", "updated_at", *fields])
    broadcast(room.group, room.version)
    code = room.code
    transaction.on_commit(lambda: bots.schedule(code))


def _seed(options: dict) -> int:
    """A secret seed, unless a test run or a DEBUG install asks for a fixed one."""
    if fixed := os.environ.get("BUNKO_FIXED_SEED"):
        return int(fixed)
    if settings.DEBUG and "seed" in options:
        return int(options["seed"])
    return new_seed()


def _unique_code() -> str:
    for _ in range(50):
        code = new_code()
        if not Room.objects.filter(code=code).exists():
            return code
    raise RoomError("Could not find a free room code; try again.")


# -- the lobby --------------------------------------------------------------------------------


def create_room(
    game: str,
    options: dict | None,
    creator_name: str,
    prelisted: list[str] | None = None,
    party_code: str = "",
) -> tuple[Room, Seat]:
    """A new room in its lobby, with the creator seated and any pre-listed names kept."""
    entry = _entry(game)
    creator = _clean_name(creator_name)
    names: list[str] = []
    for raw in prelisted or []:
        name = " ".join(str(raw).split())[:NAME_MAX]
        if name and name.casefold() not in {n.casefold() for n in names}:
            names.append(name)
    if creator.casefold() not in {n.casefold() for n in names}:
        names.insert(0, creator)
    if len(names) > entry.max_players:
        raise RoomError(f"{entry.name} seats at most {entry.max_players} players.")
    opts = {**entry.default_options, **(options or {})}
    seed = _seed(opts)
    opts.pop("seed", None)
    with transaction.atomic():
        room = Room.objects.create(
            code=_unique_code(), game=entry.slug, options=opts, seed=seed, party_code=party_code
        )
        creator_seat = None
        for slot in range(entry.max_players):
            name = names[slot] if slot < len(names) else ""
            is_creator = name.casefold() == creator.casefold()
            seat = Seat.objects.create(
                room=room,
                slot=slot,
                name=name,
                prelisted=bool(name) and not is_creator,
                is_creator=is_creator,
                claimed=is_creator,
                nonce=secrets.token_hex(8) if is_creator else "",
            )
            if is_creator:
                creator_seat = seat
        assert creator_seat is not None
        broadcast(room.group, room.version)
    return room, creator_seat


def take_seat(code: str, slot: int, name: str = "") -> Seat:
    """Sit on an empty seat (lobby only) or claim a pre-listed name (also mid-game, when a bot
    has been playing for that name)."""
    with transaction.atomic():
        room = _locked_room(code)
        seat = room.seats.filter(slot=slot).first()
        if seat is None:
            raise RoomError("There is no such seat at this table.")
        if seat.claimed:
            raise RoomError(f"{seat.name} already sits there; pick another seat.")
        if seat.is_bot:
            raise RoomError("A bot sits there; pick another seat.")
        if not seat.prelisted:
            if room.status != Room.Status.LOBBY:
                raise RoomError("The game has started; you can watch it from here.")
            seat.name = _clean_name(name)
            taken = {s.name.casefold() for s in room.seats.all() if s.name and s.id != seat.id}
            if seat.name.casefold() in taken:
                raise RoomError(f"Someone here is already called {seat.name}; add an initial.")
        seat.claimed = True
        seat.nonce = secrets.token_hex(8)
        seat.taken_over = False
        seat.left_at = None
        seat.save()
        _changed(room)
    return seat


def set_seat_bot(code: str, claim: SeatClaim | None, slot: int, bot: bool) -> Seat:
    """The creator puts a bot on an empty seat, or frees a bot's seat (lobby only)."""
    with transaction.atomic():
        room = _locked_room(code)
        me = _seat_for_claim(room, claim)
        if not me.is_creator:
            raise RoomError("Only the player who made the room can add bots.")
        if room.status != Room.Status.LOBBY:
            raise RoomError("The game has started; seats are fixed now.")
        seat = room.seats.filter(slot=slot).first()
        if seat is None:
            raise RoomError("There is no such seat at this table.")
        if bot and not seat.is_empty:
            raise RoomError("Only an empty seat can take a bot.")
        if not bot and not seat.is_bot:
            raise RoomError("There is no bot on that seat.")
        if bot:
            used = {s.name for s in room.seats.all()}
            seat.name = next(n for n in BOT_NAMES if n not in used)
        else:
            seat.name = ""
        seat.is_bot = bot
        seat.save()
        _changed(room)
    return seat


def start_room(code: str, claim: SeatClaim | None) -> Room:
    """Deal: the seated players, bots and pre-listed names (a bot plays for a pre-listed name
    until its player claims it) become the game's seats, in lobby order."""
    with transaction.atomic():
        room = _locked_room(code)
        me = _seat_for_claim(room, claim)
        if not me.is_creator:
            raise RoomError("Only the player who made the room can start it.")
        if room.status != Room.Status.LOBBY:
            raise RoomError("The game has already started.")
        entry = _entry(room.game)
        playing = [s for s in room.seats.all() if not s.is_empty]
        count = len(playing)
        if count < entry.min_players:
            raise RoomError(
                f"{entry.name} needs at least {entry.min_players} players and {count} "
                f"{'sits' if count == 1 else 'sit'} so far: wait, or put a bot on a seat."
            )
        if count > entry.max_players:
            raise RoomError(f"{entry.name} takes at most {entry.max_players} players.")
        now = timezone.now()
        for player, seat in enumerate(playing):
            seat.player = player
            if seat.claimed and seat.sockets == 0 and seat.left_at is None:
                seat.left_at = now  # never connected: the takeover clock starts now
            seat.save()
        names = [s.name for s in playing]
        options = dict(room.options)
        try:
            state = entry.rules.setup(names, options, rng_for(room.seed, room.version))
        except IllegalAction as error:
            raise RoomError(str(error)) from None
        Action.objects.create(
            room=room,
            version=room.version,
            action_id=f"start:{room.code}",
            kind="start",
            payload={"players": names, "options": options},
        )
        room.state = state.to_json()
        room.status = Room.Status.PLAYING
        _changed(room, "state", "status")
        code = room.code
        transaction.on_commit(lambda: _schedule_takeover(code))
    return room


# -- playing ----------------------------------------------------------------------------------


def _is_finished(entry: GameEntry, state: Any, players: int) -> bool:
    """Over when nobody, not even the table as a whole, has anything left to do."""
    seats: list[int | None] = [None, *range(players)]
    return not any(entry.rules.legal_actions(state, seat) for seat in seats)


def _apply(room: Room, player: int | None, action: dict, action_id: str) -> None:
    entry = _entry(room.game)
    state = entry.load_state(room.state)
    try:
        new = entry.rules.apply(state, player, action, rng_for(room.seed, room.version))
    except IllegalAction as error:
        raise RoomError(str(error)) from None
    Action.objects.create(
        room=room, version=room.version, action_id=action_id, player=player, payload=action
    )
    room.state = new.to_json()
    if _is_finished(entry, new, len(new.players)):
        room.status = Room.Status.FINISHED
    _changed(room, "state", "status")


def perform_action(
    room_code: str,
    seat_token_claim: SeatClaim | None,
    action_id: str,
    action: Any,
    seen_version: int | None = None,
) -> ActionResult:
    """Apply one player's action. A retried id is acknowledged and not applied again; an action
    chosen on a table that has changed since (``seen_version``) is refused as stale."""
    if not isinstance(action_id, str) or not 8 <= len(action_id) <= 64:
        raise RoomError("An action needs an id; nothing changed.")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RoomError("That is not a move in this game.")
    with transaction.atomic():
        room = _locked_room(room_code)
        seat = _seat_for_claim(room, seat_token_claim)
        if room.actions.filter(action_id=action_id).exists():
            return ActionResult(room.version, duplicate=True)
        if room.status == Room.Status.LOBBY:
            raise RoomError("The game has not started yet.")
        if seat.player is None:
            raise RoomError("Your seat is not in this game; you can watch it.")
        if seen_version is not None and (
            seen_version > room.version or room.actions.filter(version__gte=seen_version).exists()
        ):
            raise RoomError("The table changed before your move arrived: look again and choose.")
        entry = _entry(room.game)
        player: int | None = seat.player
        if action["type"] in entry.table_actions:
            state = entry.load_state(room.state)
            if action not in entry.rules.legal_actions(state, player):
                player = None  # any player may move the table on, as the host would
        _apply(room, player, action, action_id)
        return ActionResult(room.version)


def perform_bot_action(
    room_code: str, player: int, at_version: int, action: dict, action_id: str
) -> ActionResult | None:
    """A bot's move, chosen at ``at_version``; None when the table moved on meanwhile or the
    seat's player is back (the move is dropped, not an error)."""
    with transaction.atomic():
        room = _locked_room(room_code)
        if room.actions.filter(action_id=action_id).exists():
            return ActionResult(room.version, duplicate=True)
        if room.version != at_version or room.status != Room.Status.PLAYING:
            return None
        seat = room.seats.filter(player=player).first()
        if seat is None or not seat.bot_plays:
            return None
        _apply(room, player, action, action_id)
        return ActionResult(room.version)


# -- presence and takeover ----------------------------------------------------------------------


def _takeover_seconds() -> float:
    return float(getattr(settings, "GAME_BOT_TAKEOVER", 60))


def _schedule_takeover(code: str) -> None:
    from apps.games import bots

    bots.schedule_takeover(code, _takeover_seconds())


def seat_connected(room_code: str, seat_id: int) -> None:
    """A socket of the seat's phone opened: the seat is its player's again."""
    with transaction.atomic():
        room = _locked_room(room_code)
        seat = room.seats.filter(id=seat_id).first()
        if seat is None:
            return
        was_taken_over = seat.taken_over
        seat.sockets += 1
        seat.left_at = None
        seat.taken_over = False
        seat.save(update_fields=["sockets", "left_at", "taken_over"])
        if was_taken_over:
            _changed(room)


def seat_disconnected(room_code: str, seat_id: int) -> None:
    """A socket closed; with none left, the takeover clock starts."""
    with transaction.atomic():
        room = _locked_room(room_code)
        seat = room.seats.filter(id=seat_id).first()
        if seat is None:
            return
        seat.sockets = max(0, seat.sockets - 1)
        if seat.sockets == 0:
            seat.left_at = timezone.now()
            code = room.code
            transaction.on_commit(lambda: _schedule_takeover(code))
        seat.save(update_fields=["sockets", "left_at"])


def take_over_absent_seats(room_code: str, now: datetime | None = None) -> list[str]:
    """Bots play for the players whose phones have been gone longer than GAME_BOT_TAKEOVER."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=_takeover_seconds())
    with transaction.atomic():
        room = _locked_room(room_code)
        if room.status != Room.Status.PLAYING:
            return []
        absent = list(
            room.seats.filter(
                claimed=True,
                is_bot=False,
                taken_over=False,
                sockets=0,
                left_at__lte=cutoff,
                player__isnull=False,
            )
        )
        for seat in absent:
            seat.taken_over = True
            seat.save(update_fields=["taken_over"])
        if absent:
            _changed(room)
        return [seat.name for seat in absent]
