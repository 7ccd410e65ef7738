"""Reads of game rooms: who a phone is, what each viewer may see, and replays from the log."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.core import scheduler
from apps.core.codes import normalize_code
from apps.core.dice import rng_for
from apps.core.qr import qr_svg
from apps.core.tokens import read_seat_token, seat_cookie_name
from apps.games.models import Room, RoomEvent, Seat
from apps.games.registry import get_game
from apps.games.services.presence import takeover_after


def room_by_code(code: str) -> Room | None:
    return Room.objects.filter(code=normalize_code(code)).first()


def cookie_name(room: Room) -> str:
    return seat_cookie_name(room.scope)


def seat_for_token(room: Room, token: str | None) -> Seat | None:
    """The seat a phone's token stands for, or None (no token, forged, stale or elsewhere)."""
    claim = read_seat_token(token, room.scope)
    if claim is None:
        return None
    return room.seats.filter(id=claim.seat_id, nonce=claim.nonce, claimed=True).first()


def replay(room: Room, upto_version: int | None = None) -> Any:
    """The state rebuilt from the seed and the log alone (the start, then every move), each
    move with the rng of the version it was applied at."""
    rules = get_game(room.game).rules
    state = None
    for entry in room.events.order_by("version"):
        if upto_version is not None and entry.version >= upto_version:
            break
        rng = rng_for(room.seed, entry.version)
        if entry.kind == RoomEvent.START:
            state = rules.setup(entry.data["players"], entry.data["options"], rng)
        else:
            state = rules.apply(state, entry.seat, entry.data, rng)
    return state


def results(room: Room, outcome: dict, seats: list[Seat | None]) -> list[dict]:
    """The framework's results table from any game's outcome: places, names and points."""
    rows = []
    place = 1
    for group in outcome["ranking"]:
        for seat_number in group:
            seat = seats[seat_number] if seat_number < len(seats) else None
            rows.append(
                {
                    "place": place,
                    "name": seat.name
                    if seat
                    else _("Seat {number}").format(number=seat_number + 1),
                    "score": outcome["scores"].get(seat_number),
                }
            )
        place += len(group)
    return rows


def room_context(room: Room, seat: Seat | None, base_url: str = "", screen: bool = False) -> dict:
    """Everything the room's templates need for one viewer; the game's part comes from its
    rules' view for that viewer's seat, so another seat's hidden cards are never in it."""
    entry = get_game(room.game)
    seats = list(room.seats.all())
    me = seat if seat is not None and seat.player is not None else None
    room_path = reverse("games:room", args=[room.code])
    context: dict[str, Any] = {
        "room": room,
        "entry": entry,
        "seat": seat,
        "seats": seats,
        "room_path": room_path,
        "screen": screen,
        "is_creator": bool(seat and seat.is_creator),
        "creator": next((s for s in seats if s.is_creator), None),
    }
    if room.status == Room.Status.LOBBY:
        sitting = [s for s in seats if not s.is_empty]
        levels = entry.bot_levels
        for s in seats:
            level = levels.get(s.bot_level) or levels[entry.default_bot_level]
            s.bot_label = level.label if len(levels) > 1 and s.is_bot else ""
        context.update(
            sitting=len(sitting),
            can_start=entry.min_players <= len(sitting) <= entry.max_players,
            bot_levels=entry.bot_levels,
            join_qr=qr_svg(base_url + room_path, scale=10 if screen else 5) if base_url else "",
        )
        return context
    state = entry.load_state(room.state)
    view = entry.rules.view(state, me.player if me else None)
    by_player = {s.player: s for s in seats if s.player is not None}
    players = [by_player.get(p) for p in range(len(state.players))]
    context["players"] = players
    context["claimable"] = [
        s for s in seats if s.player is not None and s.prelisted and not s.claimed
    ]
    context["connected"] = connected_players(players)
    context["timers"] = timers(room)
    outcome = entry.rules.outcome(state)
    context["results"] = results(room, outcome, players) if outcome is not None else None
    context.update(entry.present(view, context))
    return context


def timers(room: Room) -> list[dict]:
    """The room's pending timed system moves, for countdowns on the screens: each with its
    move and the milliseconds left at render time (relative, so a phone's clock does not
    matter)."""
    now = timezone.now()
    return [
        {
            "type": d.payload["action"].get("type"),
            "action": d.payload["action"],
            "ms": max(0, int((d.due_at - now).total_seconds() * 1000)),
        }
        for d in scheduler.pending(room.scope)
        if d.payload.get("kind") == RoomEvent.SYSTEM
    ]


def connected_players(players: list[Seat | None]) -> set[int]:
    """The rules' seats whose phone was seen recently (a bot seat counts as there)."""
    recent = timezone.now() - takeover_after() / 2
    return {
        number
        for number, seat in enumerate(players)
        if seat is not None and (seat.is_bot or (seat.seen_at and seat.seen_at >= recent))
    }


def render_room(room: Room, seat: Seat | None, base_url: str = "", screen: bool = False) -> str:
    context = room_context(room, seat, base_url, screen)
    return render_to_string("games/partials/live.html", context)


def render_for_viewer(
    code: str, seat_id: int | None, nonce: str = "", base_url: str = "", screen: bool = False
) -> tuple[int, str]:
    """(version, HTML) for one socket's viewer, read fresh: the seat may have changed hands."""
    room = room_by_code(code)
    if room is None:
        return 0, '<section id="room-live"><p>This room is gone.</p></section>'
    seat = None
    if seat_id is not None and not screen:
        seat = room.seats.filter(id=seat_id, nonce=nonce, claimed=True).first()
    return room.version, render_room(room, seat, base_url, screen)
